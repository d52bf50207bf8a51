/* mb_implicit.h -- the linear solver shared by the implicit Euler schemes.
 *
 * Both implicit-euler and implicit-euler-newton solve systems with the matrix
 * A = M - h C - h^2 K (mb_linsolve.h).  In double the solver is chosen by the option
 * solver=auto|dense|gauss|sparse|banded: dense is GSL LU, gauss the double instance of the
 * templated Gaussian elimination the MPFR twins use (so a 53-bit twin reproduces it bit
 * for bit on any system, and it allocates nothing per step, unlike GSL 2.7's LU_decomp
 * which allocates its pivot vector on every call), sparse a Krylov solver on CSR
 * (krylov=bicgstab by default, cg or gmres), banded GSL's banded LU (linsolve_band.c),
 * blocktri the block Thomas sweep of block-tridiagonal systems (linsolve_blocktri.c).
 * auto takes gauss up to dense_max nodes (default 16, from the measurement in
 * doc/integrators.md: there the direct solve costs no more than
 * BiCGSTAB and is exact to round-off); above, blocktri while every node couples only to
 * its neighbours in the numbering (a chain: block-tridiagonal A, an exact O(n) solve;
 * checked at every step, so a coupling beyond the neighbours sends that step to the
 * Krylov solver), and sparse otherwise.  Whenever the block sweep rejects a pivot block
 * (mb_blocktri_solve: singular, ill-conditioned or grown), that step is solved by GSL's
 * banded LU with partial pivoting instead (counted in blocktri_fallbacks); solver=blocktri
 * on a system that is not block-tridiagonal is an error (MB_EDOM).  The MPFR twins
 * always use the templated dense Gaussian elimination.
 *
 * Singular systems: the dense solvers report MB_ESINGULAR from their pivots.  The sparse
 * path reports it for a zero diagonal entry (Jacobi) or a Krylov breakdown, and
 * MB_EMAXITER when it cannot converge; a singular but consistent system (b in the range
 * of A) can be "solved" by a Krylov method, which then returns one of its solutions. */
#ifndef MB_IMPLICIT_H
#define MB_IMPLICIT_H

#include "mb_forces.h"
#include "mb_linsolve.h"
#include "mb_linsys_sink.h"
#include "mb_options.h"

enum { MB_SOLVER_DENSE = 1, MB_SOLVER_SPARSE = 2, MB_SOLVER_GAUSS = 3, MB_SOLVER_BANDED = 4,
       MB_SOLVER_BLOCKTRI = 5 };
enum { MB_KRYLOV_BICGSTAB = 1, MB_KRYLOV_CG = 2, MB_KRYLOV_GMRES = 3 };
/* where mb_implicit_solver_assemble left A: nowhere (J holds the blocks), in the
 * block-tridiagonal storage, in the CSR matrix */
enum { MB_ASSEMBLED_NONE = 0, MB_ASSEMBLED_BLOCKTRI = 1, MB_ASSEMBLED_CSR = 2 };

/* Option table entries common to the implicit schemes (spliced into each table). */
#define MB_IMPLICIT_SOLVER_OPTIONS \
    { "solver", MB_OPT_CHOICE, "auto", 1, 0, "auto|dense|gauss|sparse|banded|blocktri", \
      "linear solver: GSL dense LU, templated Gaussian elimination, Krylov on CSR, GSL " \
      "banded LU, block Thomas sweep (chains; banded LU where a pivot block is unsafe); " \
      "auto = gauss up to dense_max nodes, above blocktri for chains, else sparse" }, \
    { "dense_max", MB_OPT_INT, "16", 1, 2000, NULL, \
      "largest node count solved by Gaussian elimination under solver=auto" }, \
    { "krylov", MB_OPT_CHOICE, "bicgstab", 1, 0, "bicgstab|cg|gmres", \
      "sparse solver: Jacobi-BiCGSTAB, Jacobi-CG (SPD only) or GSL GMRES(restart)" }, \
    { "precond", MB_OPT_CHOICE, "auto", 1, 0, "auto|jacobi|sgs", \
      "Krylov preconditioner: Jacobi (the diagonal) or symmetric Gauss-Seidel in " \
      "Eisenstat's split form (krylov=bicgstab only); auto = sgs for bicgstab, jacobi for cg" }, \
    { "rtol", MB_OPT_DOUBLE, "1e-12", 1e-16, 1e-2, NULL, \
      "Krylov stopping test |b - A x| <= rtol |b|" }, \
    { "lin_max_iter", MB_OPT_INT, "2000", 1, 10000000, NULL, \
      "Krylov iterations before MB_EMAXITER (GMRES: restart cycles)" }, \
    { "restart", MB_OPT_INT, "20", 2, 500, NULL, "GMRES restart length m" }

/* Largest system the dense path accepts (3n unknowns): 6000^2 doubles = 288 MB. */
#define MB_DENSE_MAX_UNKNOWNS 6000

typedef struct mb_implicit_solver {
    int kind, krylov;
    int sgs;                        /* BiCGSTAB by mb_bicgstab_sgs_solve (precond=sgs, auto) */
    size_t n3;
    mb_lu *lu;
    double *gA, *gb, gtmp[3];       /* solver=gauss: matrix, right-hand side, scratch */
    size_t *gpiv;
    mb_csr *csr;
    mb_band *band;                  /* solver=banded, or the fallback of blocktri */
    mb_blocktri *btri;              /* solver=blocktri, or auto on a chain */
    int auto_chain;                 /* solver=auto above dense_max: blocktri when A allows */
    unsigned long blocktri_fallbacks; /* steps the block sweep handed to the banded LU */
    mb_krylov *kry;
    mb_gmres *gmres;
    unsigned long iterations_last;  /* Krylov iterations (GMRES: cycles) of the last solve */
    int chain_last;                 /* the last system went to the block sweep */
    mb_linsys_sink sink;            /* assembly straight into btri or csr */
    int assembled;                  /* MB_ASSEMBLED_*: where A already is, set by
                                     * mb_implicit_solver_assemble, used by the next solve */
    int torques_pos_zero;           /* set by the scheme before mb_implicit_solver_assemble:
                                     * every torque of the store known +0
                                     * (mb_forces_assemble_known); 0 from alloc */
} mb_implicit_solver;

int mb_implicit_solver_alloc(mb_implicit_solver **out, const mb_options *opts, size_t n_nodes);
void mb_implicit_solver_free(mb_implicit_solver *S);
/* Assemble A from s (masses, fixed dofs) and J -- unless the last call was
 * mb_implicit_solver_assemble and left A in the solver's storage -- then solve A x = b;
 * x holds an initial guess on entry (read by the Krylov solvers: BiCGSTAB, CG, GMRES).
 * MB_ESINGULAR, MB_EMAXITER or MB_EDIVERGED on failure. */
int mb_implicit_solver_solve(mb_implicit_solver *S, const mb_nodes *s, const mb_jacobian *J,
                             double h, const double *b, double *x);
/* mb_implicit_solver_solve, and where the system goes to the block sweep on the storage
 * mb_implicit_solver_assemble filled (a chain), y+ = y + x h formed into y_new node by
 * node in the sweep's backward pass (mb_blocktri_solve_axpy: entry by entry the product,
 * then the sum): then *drifted = 1 and *nonfinite the sum of y+ - y+ over y+ (+0 when
 * every value is finite); else (another solver, or the sweep refused and the banded LU
 * solved) *drifted = 0, *nonfinite = +0 and y_new holds nothing of this step. */
int mb_implicit_solver_solve_drift(mb_implicit_solver *S, const mb_nodes *s,
                                   const mb_jacobian *J, double h, const double *b, double *x,
                                   const double *y, double *y_new, int *drifted,
                                   double *nonfinite);
/* 1 unless the next mb_implicit_solver_solve is certain to go to a direct solver (dense,
 * Gaussian elimination, banded, or the block sweep of a system already assembled into its
 * storage), which overwrite x whatever it holds: only the Krylov solvers read x as an
 * initial guess, so a caller may skip preparing one when this is 0. */
int mb_implicit_solver_wants_guess(const mb_implicit_solver *S);
/* The nodes with a fixed degree of freedom, as the last mb_implicit_solver_assemble listed
 * them when it assembled straight into the solver's storage (mb_linsys_sink_rhs: at most
 * MB_LINSYS_FIXED_LIST of them): their count, *list pointing to their indices (valid until
 * the next assembly); SIZE_MAX when that assembly did not list them (the block list's
 * path, or more fixed nodes than the list holds), so that every node is to be tested.
 * Call it between the assembly and the solve. */
size_t mb_implicit_solver_fixed_nodes(const mb_implicit_solver *S, const size_t **list);
/* Forces of the field F at (s, t), A and b = (M - h C) v + h f of one linearised
 * backward-Euler step, with the very bits of mb_forces_eval_jacobian followed by
 * mb_linsys_be_rhs and the assembly of the next solve.  Where the last step's system
 * went to the block sweep, or to the Krylov solver with the same CSR pattern, A is
 * assembled straight into that storage while the forces are evaluated
 * (mb_forces_assemble, mb_linsys_sink.h) and J keeps no blocks; the next
 * mb_implicit_solver_solve then solves without assembling.  Otherwise (the first step,
 * the dense and banded solvers, or a system whose blocks changed) J receives the blocks
 * and the solve assembles from them as before. */
int mb_implicit_solver_assemble(mb_implicit_solver *S, const mb_forces *F, mb_nodes *s,
                                double t, double h, mb_jacobian *J, double *b);

/* The MPFR twin's solver: dense Gaussian elimination at the twin's precision. */
typedef struct mb_implicit_solver_mpfr {
    size_t n3;
    mpfr_prec_t prec;
    __mpfr_struct *A, *b, tmp[3];
    size_t *piv;
} mb_implicit_solver_mpfr;

int mb_implicit_solver_mpfr_alloc(mb_implicit_solver_mpfr **out, const mb_options *opts,
                                  size_t n_nodes, mpfr_prec_t prec);
void mb_implicit_solver_mpfr_free(mb_implicit_solver_mpfr *S);
int mb_implicit_solver_mpfr_solve(mb_implicit_solver_mpfr *S, const mb_nodes_mpfr *s,
                                  const mb_jacobian_mpfr *J, double h,
                                  const __mpfr_struct *b, __mpfr_struct *x);

#endif
