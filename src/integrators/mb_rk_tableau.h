/* mb_rk_tableau.h -- Butcher tableaux of explicit Runge-Kutta methods as exact rationals
 * (used by explicit_rk_source.c). */
#ifndef MB_RK_TABLEAU_H
#define MB_RK_TABLEAU_H

#define RK_MAX_STAGES 4

struct rk_rational {
    long num, den;
};

struct rk_tableau {
    const char *name;
    int stages;
    struct rk_rational a[RK_MAX_STAGES][RK_MAX_STAGES];  /* strictly lower triangular */
    struct rk_rational b[RK_MAX_STAGES];
    struct rk_rational c[RK_MAX_STAGES];
};

/* the tableaux of rk4.c and rk4_defect.c (exported so tests can check their order
 * conditions) */
extern const struct rk_tableau mb_rk4_tableau;
extern const struct rk_tableau mb_rk4_defect_tableau;

#endif
