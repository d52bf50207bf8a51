/* force_models.c -- the registry of force models, expanded from force_models.def, and the
 * generic store their samples are made on (mb_force_models.h). */
#include "mb_force_models.h"
#include "mb_vec.h"

#include <math.h>
#include <stddef.h>

#define MB_FORCE_MODEL(sym, writes, nodes, precision, potential, jacobian) \
    extern const mb_force_type *const mb_force_##sym;
#include "force_models.def"
#undef MB_FORCE_MODEL

#define MB_FORCE_MODEL(sym, writes, nodes, precision, potential, jacobian)                  \
    static const mb_force_model entry_##sym = {                                            \
        &mb_force_##sym, MB_FORCE_WRITES_##writes, MB_FORCE_NODES_##nodes,                 \
        MB_FORCE_PRECISION_##precision, MB_FORCE_POTENTIAL_##potential,                    \
        MB_FORCE_JACOBIAN_##jacobian, mb_force_sample_##sym                                \
    };
#include "force_models.def"
#undef MB_FORCE_MODEL

static const mb_force_model *const registry[] = {
#define MB_FORCE_MODEL(sym, writes, nodes, precision, potential, jacobian) &entry_##sym,
#include "force_models.def"
#undef MB_FORCE_MODEL
    NULL
};

const mb_force_model *const *mb_force_models(void)
{
    return registry;
}

const mb_force_model *mb_force_model_of(const mb_force_type *type)
{
    for (const mb_force_model *const *m = registry; *m; m++)
        if (*(*m)->type == type)
            return *m;
    return NULL;
}

/* L = R diag(I) R^T w of node i */
static void angular_momentum(mb_nodes *s, size_t i)
{
    double R[9], wb[3];
    mb_q_to_mat(R, &s->q[4 * i]);
    mb_m3t_mul_v(wb, R, &s->omega[3 * i]);
    for (int a = 0; a < 3; a++)
        wb[a] *= s->inertia[3 * i + a];
    mb_m3_mul_v(&s->angmom[3 * i], R, wb);
}

/* Node i: positions spread along x with sines in every component, velocities and angular
 * velocities of cosines, masses 0.41 + 0.37 i, three distinct moments, a unit quaternion
 * of no special axis. */
void mb_force_sample_nodes(mb_nodes *s)
{
    for (size_t i = 0; i < s->n; i++) {
        double fi = (double)i, I[3], q[4], qn = 0.0;
        mb_nodes_set_mass(s, i, 0.41 + 0.37 * fi);
        for (int a = 0; a < 3; a++) {
            double k = (double)(3 * i + (size_t)a);
            s->x[3 * i + a] = 0.9 * fi * (a == 0) + 0.31 * sin(2.3 * k + 1.0) + 0.2 * (a == 2);
            s->v[3 * i + a] = 0.83 * cos(1.7 * k + 0.4);
            s->omega[3 * i + a] = 1.1 * sin(0.7 * k + 0.3);
            I[a] = (0.11 + 0.05 * a) * s->mass[i];
        }
        mb_nodes_set_inertia(s, i, I);
        for (int c = 0; c < 4; c++) {
            q[c] = 1.0 + 0.4 * cos(1.3 * (double)(4 * i + (size_t)c));
            qn += q[c] * q[c];
        }
        for (int c = 0; c < 4; c++)
            s->q[4 * i + c] = q[c] / sqrt(qn);
        angular_momentum(s, i);
        s->radius[i] = 0.0;
    }
}
