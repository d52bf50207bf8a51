/* fuzz_trajectory.c -- libFuzzer entry point for the trajectory readers of outside
 * integrators (mb_trajectory_parse, mb_trajectory_parse_npy; doc/external.md,
 * doc/hardening.md).
 *
 * The first byte of an input chooses the request the reader checks the file against:
 * bits 0-1 the node count (1 + value % 3), bit 2 whether rows carry rotation columns,
 * bit 3 whether times are requested (dt = 0.1, 1 to 8 of them from bits 4-6) or free
 * (as `score` reads), bit 7 the reader: the .npy one (mb_trajectory_parse_npy) when set,
 * else CSV.  The rest is the file.  Every input must end either in a
 * trajectory that honours the request (the requested row count, finite values, unit
 * quaternions are not required here) or in a defect named in `why`; the sanitizers
 * report everything else.  The same entry point runs under libFuzzer
 * (tests/fuzz/build.sh) and under the plain replay of fuzz_replay_main.c. */
#include "mb_external.h"
#include "mb_status.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* inputs above this size are not trajectories worth parsing: skip, do not report */
#define FUZZ_MAX_INPUT (1u << 20)

/* a CSV seed holds finite values only; a .npy one may hold NaN in a state column, which the
 * reader hands on (the replay's divergence), so only its times are checked */
static void check_result(const mb_trajectory_request *rq, const mb_trajectory *tr, int npy)
{
    if (rq->times != NULL && tr->n_rows != rq->n_times)
        abort();
    if (tr->n_nodes != rq->n_nodes || tr->rotation != rq->rotation)
        abort();
    for (size_t k = 0; k < tr->n_rows; k++) {
        if (!isfinite(tr->t[k]) || (k > 0 && !(tr->t[k] > tr->t[k - 1])))
            abort();
        for (size_t j = 0; j < tr->stride && !npy; j++)
            if (!isfinite(tr->values[k * tr->stride + j]))
                abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > FUZZ_MAX_INPUT)
        return 0;
    const uint8_t mode = data[0];
    double times[8];
    const size_t n_times = 1 + ((mode >> 4) & 7);
    for (size_t k = 0; k < n_times; k++)
        times[k] = 0.1 * (double)k;
    mb_trajectory_request rq = {
        .n_nodes = 1 + (mode & 3) % 3,
        .rotation = (mode >> 2) & 1,
        .n_times = (mode & 8) ? n_times : 0,
        .times = (mode & 8) ? times : NULL,
        .dt = 0.1,
    };
    mb_trajectory tr = { 0 };
    char why[512] = "";
    int npy = (mode & 128) != 0;
    int st = npy ? mb_trajectory_parse_npy((const char *)data + 1, size - 1, &rq, &tr, why,
                                           sizeof why)
                 : mb_trajectory_parse((const char *)data + 1, size - 1, &rq, &tr, why, sizeof why);
    if (st == MB_SUCCESS)
        check_result(&rq, &tr, npy);
    else if (why[0] == '\0')     /* a refusal always says why */
        abort();
    mb_trajectory_free(&tr);
    mb_clear_error();
    return 0;
}
