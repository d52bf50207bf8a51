/* mb_probes.h -- the state of every run at the case's probe times ([run] probe,
 * doc/cases.md), kept without a reference and written to probes.csv (probes.c).
 *
 * A probe time is a step time of every dt of the case (the loader refuses any other), so
 * the state kept is the scheme's own on-step state at step round(t / dt): positions,
 * on-step velocities (synchronized for half-step schemes, as every metric), orientation
 * and global angular velocity of every node.  Nothing is interpolated.  A run that stops
 * before a probe time keeps the probes it reached. */
#ifndef MB_PROBES_H
#define MB_PROBES_H

#include <stdio.h>

#include "mb_runner.h"

/* Room for the case's probes of a run of `nodes` nodes (nothing without probes). */
int mb_probes_begin(mb_run_result *r, const mb_case *c, size_t nodes);
/* The step of the next probe to keep with steps of h, or -1 when every one is kept. */
long mb_probes_next_step(const mb_run_result *r, const mb_case *c, double h);
/* Keep on (the on-step state at the next probe's step). */
void mb_probes_keep(mb_run_result *r, const mb_nodes *on);
/* probes.csv: case,integrator,precision,dt,t,node, then x,y,z,vx,vy,vz,qw,qx,qy,qz,wx,wy,wz
 * for each probe kept, node by node, in report order. */
void mb_probes_write_csv(FILE *f, const mb_case_result *r, size_t n);
/* 1 when some case of the report has probe times. */
int mb_probes_asked(const mb_case_result *r, size_t n);
#endif
