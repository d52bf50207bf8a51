/* probes.c -- the state of every run at the case's probe times (mb_probes.h).  The time
 * written is the time of the state kept, step n = round(t / dt) at n dt as the runner
 * counts it (t = n h), which may differ from the probe time given in its last digits. */
#include "mb_probes.h"
#include "mb_report.h"
#include "mb_status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int mb_probes_begin(mb_run_result *r, const mb_case *c, size_t nodes)
{
    r->probe_nodes = nodes;
    r->n_probes_kept = 0;
    if (c->n_probes == 0 || nodes == 0)
        return MB_SUCCESS;
    r->probes = calloc(c->n_probes * nodes * MB_PROBE_VALUES, sizeof *r->probes);
    if (r->probes == NULL)
        MB_ERROR(MB_ENOMEM, "no memory for %zu probes of %zu nodes", c->n_probes, nodes);
    return MB_SUCCESS;
}

long mb_probes_next_step(const mb_run_result *r, const mb_case *c, double h)
{
    if (r->probes == NULL || r->n_probes_kept >= c->n_probes)
        return -1;
    return (long)llround(c->probe_t[r->n_probes_kept] / h);
}

void mb_probes_keep(mb_run_result *r, const mb_nodes *on)
{
    double *p = r->probes + r->n_probes_kept * r->probe_nodes * MB_PROBE_VALUES;
    for (size_t i = 0; i < r->probe_nodes; i++, p += MB_PROBE_VALUES) {
        memcpy(p, &on->x[3 * i], 3 * sizeof *p);
        memcpy(p + 3, &on->v[3 * i], 3 * sizeof *p);
        memcpy(p + 6, &on->q[4 * i], 4 * sizeof *p);
        memcpy(p + 10, &on->omega[3 * i], 3 * sizeof *p);
    }
    r->n_probes_kept++;
}

int mb_probes_asked(const mb_case_result *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (r[i].c->n_probes > 0)
            return 1;
    return 0;
}

static void write_run(FILE *f, const mb_case *c, size_t a, size_t j, const mb_run_result *u)
{
    char prec[32];
    mb_case_precision_label(c, prec, sizeof prec);
    for (size_t k = 0; k < u->n_probes_kept; k++)
        for (size_t i = 0; i < u->probe_nodes; i++) {
            const double *p = u->probes + (k * u->probe_nodes + i) * MB_PROBE_VALUES;
            mb_csv_text(f, c->name); mb_csv_sep(f);
            mb_csv_text(f, c->integrators[a]); mb_csv_sep(f);
            mb_csv_text(f, prec); mb_csv_sep(f);
            mb_csv_number(f, c->dt[j]); mb_csv_sep(f);
            mb_csv_number(f, (double)llround(c->probe_t[k] / c->dt[j]) * c->dt[j]);
            fprintf(f, ",%zu", i);
            for (int m = 0; m < MB_PROBE_VALUES; m++) {
                mb_csv_sep(f);
                mb_csv_number(f, p[m]);
            }
            mb_csv_end(f);
        }
}

void mb_probes_write_csv(FILE *f, const mb_case_result *r, size_t n)
{
    fputs("case,integrator,precision,dt,t,node,x,y,z,vx,vy,vz,qw,qx,qy,qz,wx,wy,wz", f);
    mb_csv_end(f);
    for (size_t i = 0; i < n; i++) {
        const mb_case *c = r[i].c;
        for (size_t a = 0; a < c->n_integrators; a++)
            for (size_t j = 0; j < c->n_dt; j++) {
                const mb_run_result *u = &r[i].runs[a * c->n_dt + j];
                if (!u->not_run && u->probes)
                    write_run(f, c, a, j, u);
            }
    }
}
