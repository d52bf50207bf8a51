/* mb_locdyn.h -- local dynamics U = B + W R of seed 003 as a sparse block store.
 *
 * One diagonal block per constraint alpha (W_aa, B_a, the constraint itself) and a list
 * of off-diagonal blocks W_ab to every beta sharing a body with alpha:
 *   W_aa = h H_ia A_i^-1 H_ia^T + h H_ja A_j^-1 H_ja^T                     (seed eq. Walal)
 *   W_ab = s_ab h H_ka A_k^-1 H_kb^T,  k the body shared,                    (seed eq. Walbe)
 *   s_ab = -1 when body k is master in one frame and slave in the other, else +1,
 *   B_a  = H_ia u_i~ - H_ja u_j~  with u~ = u(t) + A^-1 h f the free velocity (eq. Bal).
 * When two constraints share both bodies, W_ab sums both terms.  Rows are inserted and
 * removed as constraints appear and vanish (Solfec's LOCDYN_Insert / LOCDYN_Remove);
 * mb_locdyn_update assembles every block at the current configuration
 * (LOCDYN_Update_Begin).  Blocks are individually allocated, so pointers stay valid. */
#ifndef MB_LOCDYN_H
#define MB_LOCDYN_H

#include "mb_constraint.h"

typedef struct mb_diab mb_diab;

typedef struct mb_offb {
    double W[9];          /* row-major W_ab */
    mb_diab *dia;         /* the column block beta */
} mb_offb;

struct mb_diab {
    mb_con con;           /* the constraint of this row */
    double W[9];          /* W_aa */
    double B[3];          /* free local velocity B_a */
    double target[3];     /* bilateral target velocity U* (contacts: unused) */
    mb_offb *adj;         /* off-diagonal blocks of row alpha */
    size_t nadj, capadj;
    size_t index;         /* position in the store */
};

typedef struct mb_locdyn {
    mb_diab **dia;
    size_t count, cap;
} mb_locdyn;

mb_locdyn *mb_locdyn_alloc(void);
void mb_locdyn_free(mb_locdyn *L);
/* Insert a row for constraint c (copied) and the symbolic off-diagonal blocks; NULL on
 * allocation failure. */
mb_diab *mb_locdyn_insert(mb_locdyn *L, const mb_con *c);
/* Remove row d and every off-diagonal block referring to it. */
void mb_locdyn_remove(mb_locdyn *L, mb_diab *d);
/* Number of off-diagonal blocks in the store. */
size_t mb_locdyn_offdiag_count(const mb_locdyn *L);
/* Assemble W and B at the configuration b for free velocities ufree (6n) and step h. */
void mb_locdyn_update(mb_locdyn *L, const mb_body_view *b, const double *ufree, double h);
/* Dense copy of W (3m x 3m, row-major, rows in store order) for checks. */
void mb_locdyn_dense(const mb_locdyn *L, double *W);

#endif
