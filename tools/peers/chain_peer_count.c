/* chain_peer_count.c -- the lean chain peer of `motionbench bench implicit-chain` (its own
 * files, src/cli/bench_rebuild.c and src/cli/bench_blocktri.c) run STEPS times on the
 * spring-chain problem of PARTICLES particles, for instruction counts per node-step: the
 * difference of two profiles (STEPS = 11 and 1) over 10 PARTICLES.  Each step is the
 * peer's: the plain rebuild of A and b, the block Thomas sweep with x+ = x + h v+ in its
 * backward pass (h = 1/120, the chain's default gravity, no drag), always from the
 * problem's initial state.
 *
 * Build and run from a built tree:
 *   gcc -O2 -ffp-contract=off -I . -I src/core -I src/forces -I src/linsolve \
 *       -I src/integrators -I src/problems -I src/cli -I src/metrics -o chain_peer_count \
 *       tools/peers/chain_peer_count.c src/cli/bench_rebuild.c src/cli/bench_blocktri.c \
 *       -L.libs -lmotionbench -lm
 *   LD_LIBRARY_PATH=.libs valgrind --tool=callgrind --toggle-collect=bench_rebuild_run \
 *       --toggle-collect=bench_thomas_solve ./chain_peer_count PARTICLES STEPS
 * Prints a checksum of the last v+ and x+ (so that no step can be left out).  Exit status
 * 2 on bad arguments, 1 when the sweep refuses a pivot. */
#include <stdio.h>
#include <stdlib.h>

#include "bench_blocktri.h"
#include "bench_rebuild.h"
#include "mb_options.h"
#include "mb_problem.h"
#include "mb_status.h"

/* a whole number >= least from text, else 0 */
static size_t count_arg(const char *text, size_t least)
{
    char *end;
    double v = strtod(text, &end);
    return *end == '\0' && v >= (double)least && v <= 1e8 && v == (double)(size_t)v
           ? (size_t)v : 0;
}

int main(int argc, char **argv)
{
    size_t n = argc == 3 ? count_arg(argv[1], 2) : 0, steps = argc == 3 ? count_arg(argv[2], 1) : 0;
    if (n == 0 || steps == 0) {
        fprintf(stderr, "usage: chain_peer_count PARTICLES STEPS (PARTICLES >= 2, STEPS >= 1)\n");
        return 2;
    }
    char set[64];
    snprintf(set, sizeof set, "n=%zu", n);
    const mb_problem_type *pt;
    mb_options *in = mb_options_new(), *p = NULL;
    mb_system *sys = NULL;
    if (mb_options_set_pair(in, set) != MB_SUCCESS
        || mb_problem_prepare("spring-chain", in, &pt, &p) != MB_SUCCESS
        || pt->setup(p, &sys) != MB_SUCCESS) {
        fprintf(stderr, "chain_peer_count: %s\n", mb_last_error());
        return 2;
    }
    const double g[3] = { 0.0, -9.81, 0.0 }, h = 1.0 / 120.0;
    const mb_nodes *s = sys->nodes;
    bench_rebuild *R = bench_rebuild_alloc(sys, g, 0.0, NULL);
    bench_thomas *T = bench_thomas_alloc(n);
    double *v = malloc(3 * n * sizeof(double)), *x = malloc(3 * n * sizeof(double));
    if (R == NULL || T == NULL || v == NULL || x == NULL) {
        fprintf(stderr, "chain_peer_count: out of memory\n");
        return 2;
    }
    for (size_t q = 0; q < steps; q++) {
        bench_rebuild_run(R, s, h);
        if (bench_thomas_solve(T, R->Db, R->L, R->U, s->x, h, v, x) != 0) {
            fprintf(stderr, "chain_peer_count: the sweep refused a pivot block\n");
            return 1;
        }
    }
    double sum = 0.0;
    for (size_t k = 0; k < 3 * n; k++)
        sum += v[k] + x[k];
    printf("checksum %.17g\n", sum);
    return 0;
}
