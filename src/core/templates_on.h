/* templates_on.h -- the scalar layer that lets one source define a scheme for double and MPFR.
 *
 * A "source" file (foo_source.c) is written once against the macros below and included
 * twice by its instantiating file, after `#define BASE_DOUBLE` or `#define BASE_MPFR`
 * (GSL's multi-type templates are the model).  Every arithmetic operation is spelled as
 * one three-address macro on pointers, so the double instance performs exactly the
 * operations, in exactly the order, that the MPFR instance performs with correct
 * rounding.  At 53 bits with double's exponent range the two instances therefore give
 * the same bits (the build uses -ffp-contract=off so no FMA contraction intervenes).
 *
 * Scalars are always handled through pointers:
 *   REAL t[1];  R_INIT(t, prec); ... R_CLEAR(t);     a temporary
 *   REAL *x;    &x[i]                                   an element of a state array
 * In double, R_INIT/R_CLEAR do nothing; in MPFR they initialise and free the limbs,
 * so a kernel initialises its temporaries once per call, never per node.
 *
 * Names:  FUNCTION(mb_nodes, alloc) -> mb_nodes_alloc | mb_nodes_mpfr_alloc
 *         TYPE(mb_nodes)            -> mb_nodes       | mb_nodes_mpfr
 */
#include <math.h>
#include <mpfr.h>
#include "mb_compiler.h"
#include "mb_mpfr_extra.h"

#define MB_CONCAT2x(a, b) a##_##b
#define MB_CONCAT2(a, b) MB_CONCAT2x(a, b)
#define MB_CONCAT3x(a, b, c) a##_##b##_##c
#define MB_CONCAT3(a, b, c) MB_CONCAT3x(a, b, c)

#if defined(BASE_DOUBLE)

#define REAL double
#define IS_MPFR 0
#define FUNCTION(dir, name) MB_CONCAT2(dir, name)
#define TYPE(dir) dir
#define R_INIT(r, prec) ((void)(prec), (void)(r))
/* a small per-element helper of a hot loop: inlined in double, so that its scratch can
 * live in registers; an ordinary function in MPFR */
#define R_HOT static MB_ALWAYS_INLINE
/* unroll the small fixed loop that follows completely (mb_compiler.h); nothing in MPFR */
#define R_UNROLL(n) MB_UNROLL(n)
#define R_CLEAR(r) ((void)(r))
#define R_PREC(r) ((mpfr_prec_t)53)
#define R_SET(r, a) (*(r) = *(a))
#define R_SET_D(r, d) (*(r) = (double)(d))
#define R_SET_SI(r, i) (*(r) = (double)(i))
#define R_GET_D(a) (*(a))
#define R_ADD(r, a, b) (*(r) = *(a) + *(b))
#define R_SUB(r, a, b) (*(r) = *(a) - *(b))
#define R_MUL(r, a, b) (*(r) = *(a) * *(b))
#define R_DIV(r, a, b) (*(r) = *(a) / *(b))
#define R_ADD_D(r, a, d) (*(r) = *(a) + (double)(d))
#define R_SUB_D(r, a, d) (*(r) = *(a) - (double)(d))
#define R_MUL_D(r, a, d) (*(r) = *(a) * (double)(d))
#define R_DIV_D(r, a, d) (*(r) = *(a) / (double)(d))
#define R_MUL_2SI(r, a, e) (*(r) = ldexp(*(a), (int)(e)))
#define R_D_DIV(r, d, a) (*(r) = (double)(d) / *(a))
#define R_D_SUB(r, d, a) (*(r) = (double)(d) - *(a))
#define R_NEG(r, a) (*(r) = -*(a))
#define R_ABS(r, a) (*(r) = fabs(*(a)))
#define R_SQRT(r, a) (*(r) = sqrt(*(a)))
#define R_SIN(r, a) (*(r) = sin(*(a)))
#define R_COS(r, a) (*(r) = cos(*(a)))
#define R_SIN_COS(s, c, a) (*(s) = sin(*(a)), *(c) = cos(*(a)))   /* GCC fuses: one sincos */
#define R_SGN(a) ((*(a) > 0) - (*(a) < 0))
#define R_CMP(a, b) ((*(a) > *(b)) - (*(a) < *(b)))
#define R_CMP_D(a, d) ((*(a) > (double)(d)) - (*(a) < (double)(d)))
#define R_ISFINITE(a) isfinite(*(a))
#define R_ISZERO(a) (*(a) == 0.0)

#elif defined(BASE_MPFR)

#define REAL __mpfr_struct
#define IS_MPFR 1
#define FUNCTION(dir, name) MB_CONCAT3(dir, mpfr, name)
#define TYPE(dir) MB_CONCAT2(dir, mpfr)
#define MB_RND MPFR_RNDN
#define R_INIT(r, prec) mpfr_init2((r), (prec))
#define R_HOT static
#define R_UNROLL(n)
#define R_CLEAR(r) mpfr_clear(r)
#define R_PREC(r) mpfr_get_prec(r)
#define R_SET(r, a) mpfr_set((r), (a), MB_RND)
#define R_SET_D(r, d) mpfr_set_d((r), (d), MB_RND)
#define R_SET_SI(r, i) mpfr_set_si((r), (i), MB_RND)
#define R_GET_D(a) mpfr_get_d((a), MB_RND)
#define R_ADD(r, a, b) mpfr_add((r), (a), (b), MB_RND)
#define R_SUB(r, a, b) mpfr_sub((r), (a), (b), MB_RND)
#define R_MUL(r, a, b) mpfr_mul((r), (a), (b), MB_RND)
#define R_DIV(r, a, b) mpfr_div((r), (a), (b), MB_RND)
#define R_ADD_D(r, a, d) mpfr_add_d((r), (a), (d), MB_RND)
#define R_SUB_D(r, a, d) mpfr_sub_d((r), (a), (d), MB_RND)
#define R_MUL_D(r, a, d) mpfr_mul_d((r), (a), (d), MB_RND)
#define R_DIV_D(r, a, d) mpfr_div_d((r), (a), (d), MB_RND)
#define R_MUL_2SI(r, a, e) mpfr_mul_2si((r), (a), (long)(e), MB_RND)
#define R_D_DIV(r, d, a) mpfr_d_div((r), (d), (a), MB_RND)
#define R_D_SUB(r, d, a) mpfr_d_sub((r), (d), (a), MB_RND)
#define R_NEG(r, a) mpfr_neg((r), (a), MB_RND)
#define R_ABS(r, a) mpfr_abs((r), (a), MB_RND)
#define R_SQRT(r, a) mpfr_sqrt((r), (a), MB_RND)
#define R_SIN(r, a) mpfr_sin((r), (a), MB_RND)
#define R_COS(r, a) mpfr_cos((r), (a), MB_RND)
#define R_SIN_COS(s, c, a) mpfr_sin_cos((s), (c), (a), MB_RND)  /* both correctly rounded */
#define R_SGN(a) mpfr_sgn(a)
#define R_CMP(a, b) mpfr_cmp((a), (b))
#define R_CMP_D(a, d) mpfr_cmp_d((a), (d))
#define R_ISFINITE(a) mpfr_number_p(a)
#define R_ISZERO(a) mpfr_zero_p(a)

#else
#error "define BASE_DOUBLE or BASE_MPFR before including templates_on.h"
#endif
