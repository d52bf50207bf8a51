/* impact_reference_mpfr.c -- the event-located impact reference in MPFR: the equations of
 * mb_impact_reference.h, each smooth phase carried by the project's Gragg-Bulirsch-Stoer
 * engine (mb_mpfr_ode_span), each event located by bisection on its event function.  All
 * three tangential laws, the total Mindlin form (T = -k_t(delta) xi, the project's
 * Hertz-Mindlin law) among them: its sticking rate and slip -> stick function gain the
 * terms of k_t's change, T delta'/(2 delta) and mu F_n delta'/(2 delta)
 * (doc/dem.md, "The event-located impact reference"). */
#include "mb_impact_reference.h"
#include "mb_closed_contact.h"
#include "mb_mpfr_reference.h"
#include "mb_status.h"

#include <math.h>
#include <mpfr.h>
#include <stdlib.h>

typedef __mpfr_struct real;
enum { DIM = 11, IT = 10, NTMP = 24 };
enum phase { FREE_APART, FREE_OVERLAP, STICK, SLIP };

struct mctx {
    const mb_impact_params *p;
    enum phase phase;
    int s;                               /* sign of T while sliding */
    long bits;
    mpfr_prec_t prec;
    mpfr_t tmp[NTMP];
    real dy[DIM];                        /* scratch for the rate of F_n */
    unsigned long evals;
};

/* named temporaries */
#define NX   c->tmp[0]
#define NZ   c->tmp[1]
#define DIST c->tmp[2]
#define DEL  c->tmp[3]
#define RATE c->tmp[4]
#define L1   c->tmp[5]
#define L2   c->tmp[6]
#define UT   c->tmp[7]
#define FN   c->tmp[8]
#define TF   c->tmp[9]
#define F1X  c->tmp[10]
#define F1Z  c->tmp[11]
#define A    c->tmp[12]
#define B    c->tmp[13]
#define U0   c->tmp[14]
#define U1   c->tmp[15]
#define KT   c->tmp[16]
#define G0   c->tmp[17]
#define G1   c->tmp[18]
#define GK   c->tmp[19]

/* the total Mindlin form's share of k_t's change: GK = X delta'/(2 delta) of X (FN or T)
 * (geometry done); 0 when the form is another or delta <= 0 */
static int total_form_term(struct mctx *c, mpfr_srcptr X)
{
    if (c->p->tangential != MB_IMPACT_TANGENTIAL_MINDLIN_TOTAL || mpfr_sgn(DEL) <= 0)
        return 0;
    mpfr_mul(GK, X, RATE, MPFR_RNDN);
    mpfr_div(GK, GK, DEL, MPFR_RNDN);
    mpfr_div_2ui(GK, GK, 1, MPFR_RNDN);
    return 1;
}

static double reduced(double a, double b, int plane) { return plane ? a : a * b / (a + b); }

/* n, delta, delta', arms and u_t of the state (mb_impact_reference.h) */
static void geometry(struct mctx *c, const real *y)
{
    const mb_impact_params *p = c->p;
    if (p->plane) {
        mpfr_set_d(NX, 0.0, MPFR_RNDN);
        mpfr_set_d(NZ, -1.0, MPFR_RNDN);
        mpfr_set(DIST, &y[1], MPFR_RNDN);
        mpfr_d_sub(DEL, p->radius[0], &y[1], MPFR_RNDN);
    } else {
        mpfr_sub(A, &y[5], &y[0], MPFR_RNDN);
        mpfr_sub(B, &y[6], &y[1], MPFR_RNDN);
        mpfr_hypot(DIST, A, B, MPFR_RNDN);
        mpfr_div(NX, A, DIST, MPFR_RNDN);
        mpfr_div(NZ, B, DIST, MPFR_RNDN);
        mpfr_set_d(A, p->radius[0], MPFR_RNDN);
        mpfr_add_d(A, A, p->radius[1], MPFR_RNDN);
        mpfr_sub(DEL, A, DIST, MPFR_RNDN);
    }
    if (p->rigid_arms)
        mpfr_set_zero(B, 1);
    else
        mpfr_div_2ui(B, DEL, 1, MPFR_RNDN);                 /* delta / 2 */
    mpfr_d_sub(L1, p->radius[0], B, MPFR_RNDN);
    if (p->plane)
        mpfr_set_zero(L2, 1);
    else
        mpfr_d_sub(L2, p->radius[1], B, MPFR_RNDN);
    /* u = v1 - v2 + w1 (a1z, -a1x) - w2 (a2z, -a2x), a1 = l1 n, a2 = -l2 n */
    mpfr_mul(A, &y[4], L1, MPFR_RNDN);                       /* w1 l1 */
    mpfr_mul(B, &y[9], L2, MPFR_RNDN);                       /* w2 l2 */
    mpfr_add(A, A, B, MPFR_RNDN);                            /* w1 l1 + w2 l2 */
    mpfr_sub(U0, &y[2], &y[7], MPFR_RNDN);
    mpfr_sub(U1, &y[3], &y[8], MPFR_RNDN);
    mpfr_mul(RATE, NX, U0, MPFR_RNDN);
    mpfr_fma(RATE, NZ, U1, RATE, MPFR_RNDN);                 /* n.(v1 - v2) */
    mpfr_fma(U0, A, NZ, U0, MPFR_RNDN);
    mpfr_mul(B, A, NX, MPFR_RNDN);
    mpfr_sub(U1, U1, B, MPFR_RNDN);
    mpfr_mul(UT, NZ, U0, MPFR_RNDN);                         /* t = (n_z, -n_x) */
    mpfr_mul(B, NX, U1, MPFR_RNDN);
    mpfr_sub(UT, UT, B, MPFR_RNDN);
}

/* K = (4/3) E* sqrt(R*) */
static double hertz_k(const mb_impact_params *p)
{
    return 4.0 / 3.0 * p->estar * sqrt(reduced(p->radius[0], p->radius[1], p->plane));
}

/* KT = k_t(delta) */
static void tangential_k(struct mctx *c)
{
    const mb_impact_params *p = c->p;
    if (p->tangential == MB_IMPACT_TANGENTIAL_LINEAR) {
        mpfr_set_d(KT, p->kt, MPFR_RNDN);
        return;
    }
    mpfr_max(KT, DEL, G0, MPFR_RNDN);                        /* G0 = 0 here */
    mpfr_mul_d(KT, KT, reduced(p->radius[0], p->radius[1], p->plane), MPFR_RNDN);
    mpfr_sqrt(KT, KT, MPFR_RNDN);
    mpfr_mul_d(KT, KT, 8.0 * p->gstar, MPFR_RNDN);
}

/* FN, TF and f1 = -F_n n + T t of the phase (geometry done) */
static void forces(struct mctx *c, const real *y)
{
    const mb_impact_params *p = c->p;
    mpfr_set_zero(FN, 1);
    mpfr_set_zero(TF, 1);
    if (c->phase == STICK || c->phase == SLIP) {
        if (p->normal == MB_IMPACT_NORMAL_LINEAR) {
            mpfr_mul_d(FN, DEL, p->kn, MPFR_RNDN);
            mpfr_mul_d(A, RATE, p->cn, MPFR_RNDN);
            mpfr_add(FN, FN, A, MPFR_RNDN);
        } else if (mpfr_sgn(DEL) > 0) {
            mpfr_sqrt(A, DEL, MPFR_RNDN);
            mpfr_mul(FN, A, DEL, MPFR_RNDN);
            mpfr_mul_d(FN, FN, hertz_k(p), MPFR_RNDN);
        }
        if (c->phase == STICK)
            mpfr_set(TF, &y[IT], MPFR_RNDN);
        else
            mpfr_mul_d(TF, FN, c->s * p->mu, MPFR_RNDN);
    }
    mpfr_mul(F1X, TF, NZ, MPFR_RNDN);                        /* T t_x - F_n n_x */
    mpfr_mul(A, FN, NX, MPFR_RNDN);
    mpfr_sub(F1X, F1X, A, MPFR_RNDN);
    mpfr_mul(F1Z, TF, NX, MPFR_RNDN);                        /* -T n_x - F_n n_z */
    mpfr_mul(A, FN, NZ, MPFR_RNDN);
    mpfr_add(F1Z, F1Z, A, MPFR_RNDN);
    mpfr_neg(F1Z, F1Z, MPFR_RNDN);
}

static int rhs(void *ctx, const real *y, real *dy)
{
    struct mctx *c = ctx;
    const mb_impact_params *p = c->p;
    c->evals++;
    geometry(c, y);
    forces(c, y);
    for (int k = 0; k < DIM; k++)
        mpfr_set_zero(&dy[k], 1);
    for (int b = 0; b < (p->plane ? 1 : 2); b++) {
        /* body 2: f2 = -f1 at a2 = -l2 n, so a2 x f2 = l2 n x f1 */
        mpfr_ptr l = b == 0 ? L1 : L2;
        mpfr_set(&dy[5 * b], &y[5 * b + 2], MPFR_RNDN);
        mpfr_set(&dy[5 * b + 1], &y[5 * b + 3], MPFR_RNDN);
        mpfr_div_d(&dy[5 * b + 2], F1X, b == 0 ? p->mass[0] : -p->mass[1], MPFR_RNDN);
        mpfr_div_d(&dy[5 * b + 3], F1Z, b == 0 ? p->mass[0] : -p->mass[1], MPFR_RNDN);
        mpfr_mul(A, NZ, F1X, MPFR_RNDN);                     /* (n x f1)_y = n_z f_x - n_x f_z */
        mpfr_mul(B, NX, F1Z, MPFR_RNDN);
        mpfr_sub(A, A, B, MPFR_RNDN);
        mpfr_mul(A, A, l, MPFR_RNDN);
        mpfr_div_d(&dy[5 * b + 4], A, p->inertia[b], MPFR_RNDN);
    }
    if (c->phase == STICK) {
        mpfr_set_zero(G0, 1);
        tangential_k(c);
        mpfr_mul(&dy[IT], KT, UT, MPFR_RNDN);
        mpfr_neg(&dy[IT], &dy[IT], MPFR_RNDN);
        if (total_form_term(c, &y[IT]))                       /* T (dk_t/dt)/k_t */
            mpfr_add(&dy[IT], &dy[IT], GK, MPFR_RNDN);
    }
    return MB_SUCCESS;
}

/* event functions (as doubles: only their signs are used) of the phase; count active */
static int events(struct mctx *c, const real *y, double g[2])
{
    const mb_impact_params *p = c->p;
    geometry(c, y);
    forces(c, y);
    if (c->phase == FREE_APART || c->phase == FREE_OVERLAP) {
        g[0] = (c->phase == FREE_APART ? -1.0 : 1.0) * mpfr_get_d(DEL, MPFR_RNDN);
        return 1;
    }
    g[0] = mpfr_get_d(p->normal == MB_IMPACT_NORMAL_LINEAR ? FN : DEL, MPFR_RNDN);
    if (p->mu == 0.0)
        return 1;
    if (c->phase == STICK) {
        mpfr_mul_d(G1, FN, p->mu, MPFR_RNDN);
        mpfr_abs(A, &y[IT], MPFR_RNDN);
        mpfr_sub(G1, G1, A, MPFR_RNDN);
        g[1] = mpfr_get_d(G1, MPFR_RNDN);
        return 2;
    }
    /* -s k_t u_t - mu F_n', F_n' from delta'' = n.(a1 - a2) - (|v1 - v2|^2 - delta'^2)/dist */
    mpfr_set_zero(G0, 1);
    tangential_k(c);
    mpfr_mul(G1, KT, UT, MPFR_RNDN);
    mpfr_mul_si(G1, G1, -c->s, MPFR_RNDN);
    rhs(c, y, c->dy);                     /* recomputes the same geometry; G1 untouched */
    mpfr_sub(A, &c->dy[2], &c->dy[7], MPFR_RNDN);
    mpfr_mul(A, A, NX, MPFR_RNDN);
    mpfr_sub(B, &c->dy[3], &c->dy[8], MPFR_RNDN);
    mpfr_fma(A, B, NZ, A, MPFR_RNDN);                        /* n.(a1 - a2) */
    if (!p->plane) {
        mpfr_sub(U0, &y[2], &y[7], MPFR_RNDN);
        mpfr_sub(U1, &y[3], &y[8], MPFR_RNDN);
        mpfr_sqr(B, U0, MPFR_RNDN);
        mpfr_fma(B, U1, U1, B, MPFR_RNDN);
        mpfr_fms(B, RATE, RATE, B, MPFR_RNDN);               /* delta'^2 - |w|^2 */
        mpfr_div(B, B, DIST, MPFR_RNDN);
        mpfr_add(A, A, B, MPFR_RNDN);                        /* delta'' */
    }
    if (p->normal == MB_IMPACT_NORMAL_LINEAR) {
        mpfr_mul_d(A, A, p->cn, MPFR_RNDN);
        mpfr_mul_d(B, RATE, p->kn, MPFR_RNDN);
        mpfr_add(A, A, B, MPFR_RNDN);
    } else {
        mpfr_set_zero(B, 1);
        mpfr_max(B, DEL, B, MPFR_RNDN);
        mpfr_sqrt(B, B, MPFR_RNDN);
        mpfr_mul(A, B, RATE, MPFR_RNDN);
        mpfr_mul_d(A, A, 1.5 * hertz_k(p), MPFR_RNDN);
    }
    mpfr_mul_d(A, A, p->mu, MPFR_RNDN);
    mpfr_sub(G1, G1, A, MPFR_RNDN);
    if (total_form_term(c, FN)) {                             /* + mu F_n delta'/(2 delta) */
        mpfr_mul_d(GK, GK, p->mu, MPFR_RNDN);
        mpfr_add(G1, G1, GK, MPFR_RNDN);
    }
    g[1] = mpfr_get_d(G1, MPFR_RNDN);
    return 2;
}

static real *vec_new(mpfr_prec_t prec)
{
    real *v = malloc(DIM * sizeof *v);
    for (int k = 0; v && k < DIM; k++)
        mpfr_init2(&v[k], prec);
    return v;
}

static void vec_free(real *v)
{
    for (int k = 0; v && k < DIM; k++)
        mpfr_clear(&v[k]);
    free(v);
}

static void vec_copy(real *d, const real *s)
{
    for (int k = 0; k < DIM; k++)
        mpfr_set(&d[k], &s[k], MPFR_RNDN);
}

static int span(struct mctx *c, real *y, double t0, double t1)
{
    return t1 > t0 ? mb_mpfr_ode_span(rhs, c, DIM, c->bits, y, t0, t1, &c->evals) : MB_SUCCESS;
}

static int record(mb_impact_events *ev, int kind, double t, mpfr_srcptr T)
{
    if (ev == NULL)
        return MB_SUCCESS;
    if (ev->count == MB_IMPACT_MAX_EVENTS)
        MB_ERROR(MB_EFAILED, "impact reference (mpfr): more than %d events", MB_IMPACT_MAX_EVENTS);
    ev->kind[ev->count] = kind;
    ev->t[ev->count] = t;
    ev->force_t[ev->count] = T ? mpfr_get_d(T, MPFR_RNDN) : 0.0;
    ev->count++;
    return MB_SUCCESS;
}

/* the phase a contact starts in (mb_impact_reference.h) */
static void start_contact(struct mctx *c, real *y)
{
    const mb_impact_params *p = c->p;
    geometry(c, y);
    mpfr_set_zero(&y[IT], 1);
    double ut = mpfr_get_d(UT, MPFR_RNDN), rate = mpfr_get_d(RATE, MPFR_RNDN);
    c->s = ut > 0.0 ? -1 : 1;
    double fn0 = p->normal == MB_IMPACT_NORMAL_LINEAR ? p->cn * rate : 0.0, trial, limit;
    trial = (p->tangential == MB_IMPACT_TANGENTIAL_LINEAR ? p->kt : 8.0 * p->gstar) * fabs(ut);
    if (p->normal == MB_IMPACT_NORMAL_LINEAR)
        limit = p->mu * rate * p->kn;
    else if (p->tangential == MB_IMPACT_TANGENTIAL_MINDLIN_TOTAL)
        limit = p->mu * rate * 4.0 / 3.0 * p->estar;        /* |T| = k_t(delta) |u_t| t */
    else
        limit = p->mu * rate * 2.0 * p->estar;
    if (p->tangential != MB_IMPACT_TANGENTIAL_LINEAR && p->normal == MB_IMPACT_NORMAL_LINEAR)
        trial = 0.0;
    c->phase = (p->mu > 0.0 && (fn0 > 0.0 || trial <= limit)) ? STICK : SLIP;
}

static int transition(struct mctx *c, int which, double t, real *y, mb_impact_events *ev)
{
    const mb_impact_params *p = c->p;
    geometry(c, y);
    forces(c, y);
    if (c->phase == FREE_APART) {
        start_contact(c, y);
        return record(ev, MB_IMPACT_CONTACT_START, t, NULL);
    }
    if (c->phase == FREE_OVERLAP) {
        c->phase = FREE_APART;
        return record(ev, MB_IMPACT_OVERLAP_END, t, NULL);
    }
    if (which == 0) {
        int undamped = p->normal == MB_IMPACT_NORMAL_HERTZ || p->cn == 0.0;
        int st = record(ev, MB_IMPACT_FORCE_END, t, TF);
        c->phase = undamped ? FREE_APART : FREE_OVERLAP;
        mpfr_set_zero(&y[IT], 1);
        return st != MB_SUCCESS || !undamped ? st : record(ev, MB_IMPACT_OVERLAP_END, t, NULL);
    }
    if (c->phase == STICK) {
        c->s = mpfr_sgn(&y[IT]) >= 0 ? 1 : -1;
        c->phase = SLIP;
        mpfr_mul_d(&y[IT], FN, c->s * p->mu, MPFR_RNDN);
        return record(ev, MB_IMPACT_STICK_TO_SLIP, t, &y[IT]);
    }
    c->phase = STICK;
    mpfr_set(&y[IT], TF, MPFR_RNDN);
    return record(ev, MB_IMPACT_SLIP_TO_STICK, t, &y[IT]);
}

/* bisection in t on event `which` over [t0, t1] from y0: the earliest time (in double)
 * where g <= 0, and the state there into y */
static int locate(struct mctx *c, int which, const real *y0, double t0, double t1, real *y,
                  double *te)
{
    double lo = t0, hi = t1, g[2];
    while (1) {
        double mid = lo + 0.5 * (hi - lo);
        if (!(mid > lo && mid < hi))
            break;
        vec_copy(y, y0);
        int st = span(c, y, t0, mid);
        if (st != MB_SUCCESS)
            return st;
        events(c, y, g);
        if (g[which] > 0.0)
            lo = mid;
        else
            hi = mid;
    }
    vec_copy(y, y0);
    *te = hi;
    return span(c, y, t0, hi);
}

static double contact_time(const mb_impact_params *p, const mb_impact_state *s)
{
    double m = reduced(p->mass[0], p->mass[1], p->plane);
    if (p->normal == MB_IMPACT_NORMAL_LINEAR)
        return M_PI * sqrt(m / p->kn);
    double V = 0.0;                           /* Hertz: t_c at the approach speed */
    for (int b = 0; b < 2; b++)
        V = fmax(V, hypot(s->v[b][0], s->v[b][1]));
    V = V > 0.0 ? V : 1.0;
    return mb_closed_hertz_duration(m, reduced(p->radius[0], p->radius[1], p->plane), p->estar, V);
}

/* one macro step of 1/64 of the contact time; the earliest event it crossed applied */
static int macro_step(struct mctx *c, real *y, real *y0, real *yk, double *t, double t1,
                      mb_impact_events *ev)
{
    double t0 = *t, g[2];
    vec_copy(y0, y);
    int st = span(c, y, t0, t1);
    if (st != MB_SUCCESS)
        return st;
    int ng = events(c, y, g), which = -1;
    double te = t1;
    for (int k = 0; k < ng; k++) {
        if (!(g[k] < 0.0))
            continue;
        double tk = t1;
        st = locate(c, k, y0, t0, t1, yk, &tk);
        if (st != MB_SUCCESS)
            return st;
        if (which < 0 || tk < te) {
            which = k;
            te = tk;
            vec_copy(y, yk);
        }
    }
    *t = te;
    return which < 0 ? MB_SUCCESS : transition(c, which, te, y, ev);
}

int mb_impact_reference_mpfr(const mb_impact_params *p, const mb_impact_state *s0, double t_end,
                             long bits, mb_impact_state *out, mb_impact_events *ev)
{
    mb_impact_state probe;
    int st = mb_impact_reference(p, s0, s0->t, 1e-6, &probe, NULL);   /* checks p, s0 */
    if (st != MB_SUCCESS)
        return st;
    if (bits < 53 || bits > 4096 || !(t_end >= s0->t) || !isfinite(t_end))
        MB_ERROR(MB_EDOM, "impact reference (mpfr): bits in [53, 4096] and t_end >= t0 needed");
    struct mctx c = { .p = p, .phase = FREE_APART, .s = 1, .bits = bits };
    c.prec = (mpfr_prec_t)bits + 32 + 2 * (bits / 7 + 12 > 64 ? 64 : bits / 7 + 12) + 8;
    for (int k = 0; k < NTMP; k++)
        mpfr_init2(c.tmp[k], c.prec);
    for (int k = 0; k < DIM; k++)
        mpfr_init2(&c.dy[k], c.prec);
    real *y = vec_new(c.prec), *y0 = vec_new(c.prec), *yk = vec_new(c.prec);
    if (ev)
        ev->count = 0;
    st = y && y0 && yk ? MB_SUCCESS : MB_ENOMEM;
    if (st == MB_SUCCESS) {
        for (int b = 0; b < 2; b++) {
            mpfr_set_d(&y[5 * b], s0->x[b][0], MPFR_RNDN);
            mpfr_set_d(&y[5 * b + 1], s0->x[b][1], MPFR_RNDN);
            mpfr_set_d(&y[5 * b + 2], s0->v[b][0], MPFR_RNDN);
            mpfr_set_d(&y[5 * b + 3], s0->v[b][1], MPFR_RNDN);
            mpfr_set_d(&y[5 * b + 4], s0->w[b], MPFR_RNDN);
        }
        mpfr_set_zero(&y[IT], 1);
    }
    double t = s0->t, H = contact_time(p, s0) / 64.0;
    while (st == MB_SUCCESS && t < t_end)
        st = macro_step(&c, y, y0, yk, &t, fmin(t_end, t + H), ev);
    if (st == MB_SUCCESS) {
        out->t = t;
        for (int b = 0; b < 2; b++) {
            out->x[b][0] = mpfr_get_d(&y[5 * b], MPFR_RNDN);
            out->x[b][1] = mpfr_get_d(&y[5 * b + 1], MPFR_RNDN);
            out->v[b][0] = mpfr_get_d(&y[5 * b + 2], MPFR_RNDN);
            out->v[b][1] = mpfr_get_d(&y[5 * b + 3], MPFR_RNDN);
            out->w[b] = mpfr_get_d(&y[5 * b + 4], MPFR_RNDN);
        }
    }
    vec_free(y);
    vec_free(y0);
    vec_free(yk);
    for (int k = 0; k < NTMP; k++)
        mpfr_clear(c.tmp[k]);
    for (int k = 0; k < DIM; k++)
        mpfr_clear(&c.dy[k]);
    if (st == MB_ENOMEM)
        MB_ERROR(MB_ENOMEM, "impact reference (mpfr): out of memory");
    return st;
}
