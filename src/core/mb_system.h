/* mb_system.h -- a simulated system: node store, force field, time, energy account.
 *
 * mb_system integrates in double; mb_system_mpfr is the same system carried by a
 * same-scheme twin at MPFR precision (it shares the force field of its double system).
 * The energy account follows Woo's energy tracker (DESIGN 3): kinetic and potential
 * energy are state functions; dissipated and external work are accumulated along the
 * run (see mb_energy.h). */
#ifndef MB_SYSTEM_H
#define MB_SYSTEM_H

#include "mb_cell.h"
#include "mb_forces.h"
#include "mb_nodes.h"

typedef struct mb_work {
    double dissipated;   /* work removed by drag, dashpots, damping, friction (>= 0) */
    double external;     /* work put in by non-conservative external loads */
} mb_work;

typedef struct mb_system {
    mb_nodes *nodes;
    mb_forces *forces;   /* owned */
    double t;
    mb_work work;        /* accumulated by schemes and the driver */
    double dissipated_by_scheme; /* work removed by a scheme's own damping (Cundall) */
    mb_cell *cell;       /* optional deforming periodic space (owned), NULL: none */
} mb_system;

typedef struct mb_system_mpfr {
    mb_nodes_mpfr *nodes;
    const mb_forces *forces; /* borrowed from the double system */
    double t;
    double dissipated_by_scheme;
    mb_cell *cell;       /* own copy of the double system's cell (NULL: none) */
} mb_system_mpfr;

mb_system *mb_system_alloc(size_t n_nodes);
void mb_system_free(mb_system *sys);
/* 1 when sys lives in periodic space: a deforming cell, or a force model acting across
 * the faces of a periodic box or cell (mb_forces_periodic).  Such a system conserves no
 * angular momentum: the minimum image breaks rotational invariance (doc/statistics.md). */
int mb_system_periodic(const mb_system *sys);
/* A twin of sys at prec bits, with the same state rounded to nearest. */
mb_system_mpfr *mb_system_mpfr_alloc_twin(const mb_system *sys, mpfr_prec_t prec);
void mb_system_mpfr_free(mb_system_mpfr *tw);

#endif
