/* system.c -- allocation of systems and their MPFR twins; whether a system is periodic. */
#include "mb_system.h"
#include "mb_status.h"

#include <stdlib.h>

mb_system *mb_system_alloc(size_t n_nodes)
{
    mb_system *sys = calloc(1, sizeof *sys);
    if (sys == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "cannot allocate a system");
    sys->nodes = mb_nodes_alloc(n_nodes, 53);
    sys->forces = mb_forces_alloc();
    if (!sys->nodes || !sys->forces) {
        mb_system_free(sys);
        MB_ERROR_NULL(MB_ENOMEM, "cannot allocate a system of %zu nodes", n_nodes);
    }
    return sys;
}

int mb_system_periodic(const mb_system *sys)
{
    return sys->cell != NULL || mb_forces_periodic(sys->forces);
}

void mb_system_free(mb_system *sys)
{
    if (sys == NULL)
        return;
    mb_nodes_free(sys->nodes);
    mb_forces_free(sys->forces);
    mb_cell_free(sys->cell);
    free(sys);
}

mb_system_mpfr *mb_system_mpfr_alloc_twin(const mb_system *sys, mpfr_prec_t prec)
{
    if (prec < MPFR_PREC_MIN || prec > 100000)
        MB_ERROR_NULL(MB_EDOM, "MPFR precision %ld bits is out of range [%d, 100000]",
                      (long)prec, (int)MPFR_PREC_MIN);
    mb_system_mpfr *tw = calloc(1, sizeof *tw);
    if (tw == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "cannot allocate a twin system");
    tw->nodes = mb_nodes_mpfr_alloc(sys->nodes->n, prec);
    if (tw->nodes == NULL) {
        free(tw);
        return NULL;
    }
    mb_nodes_mpfr_set_from_double(tw->nodes, sys->nodes);
    if (sys->cell != NULL && (tw->cell = mb_cell_clone(sys->cell)) == NULL) {
        mb_nodes_mpfr_free(tw->nodes);
        free(tw);
        return NULL;
    }
    tw->forces = sys->forces;
    tw->t = sys->t;
    return tw;
}

void mb_system_mpfr_free(mb_system_mpfr *tw)
{
    if (tw == NULL)
        return;
    mb_nodes_mpfr_free(tw->nodes);
    mb_cell_free(tw->cell);
    free(tw);
}
