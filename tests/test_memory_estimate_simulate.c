/* test_memory_estimate_simulate.c -- the estimate of a simulation's memory made before anything
 * is built (mb_memory_estimate_simulate: per node and per two-node coupling of each
 * measured scheme, memory_estimate.c) against the peak resident set of `simulate` run
 * as the built program (test_program.h), read from wait4's rusage.
 *
 * The process has a base (the program, its libraries, the parser) that the state estimate
 * leaves out, so the check is on differences between two sizes of one problem: the
 * estimate of the larger minus the smaller must lie between the measured difference and
 * 1.35 times it.  The estimate's constants are fits rounded up and multiplied by 1.1
 * (STATE_MARGIN), measured on other sizes (10^4 and 10^5 nodes), where pages touched in
 * part, capacities grown by doubling (the spring list) and the allocator's thresholds
 * make the cost per node differ by a few per cent between sizes: 1.35 = 1.1 x 1.2 with
 * room for that.  An estimate without the couplings' share (the implicit matrix grows
 * with the springs, about four per node on the cloth) falls far below the measurement;
 * one that counted the list of Jacobian blocks the first step used to build (160 bytes
 * per block, 16 blocks per cloth node) far above. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mb_memory.h"
#include "test_program.h"

/* Peak resident set (bytes) of "motionbench ARGS", its output written to file `out`. */
static double peak_rss_to(const char *args, const char *out)
{
    cr_assert_not_null(getenv("MB_BUILDDIR"), "MB_BUILDDIR is not set (run through make check)");
    char cmd[3072], prog[2048];
    snprintf(cmd, sizeof cmd, "exec '%s' %s > '%s'", tp_program(prog, sizeof prog), args, out);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    int st;
    struct rusage ru;
    cr_assert_eq(wait4(pid, &st, 0, &ru), pid);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "failed (%d): %s", st, cmd);
    return 1024.0 * (double)ru.ru_maxrss;         /* Linux: kilobytes */
}

/* Peak resident set (bytes) of "motionbench ARGS", output discarded. */
static double peak_rss(const char *args)
{
    return peak_rss_to(args, "/dev/null");
}

/* The estimate's and the measurement's differences between two sizes of a problem. */
static void expect_estimate(const char *problem, const char *sets[2], const size_t nodes[2],
                            const size_t links[2], const char *integrator)
{
    double measured[2], estimated[2];
    for (int q = 0; q < 2; q++) {
        char args[512];
        snprintf(args, sizeof args, "simulate -p %s %s -i %s --dt 1e-4 --t-end 3e-4 --every 1000 "
                 "-o /dev/null", problem, sets[q], integrator);
        measured[q] = peak_rss(args);
        mb_memory_estimate e;
        mb_memory_estimate_simulate(nodes[q], links[q], integrator, 0, &e);
        estimated[q] = e.total;
    }
    double dm = measured[1] - measured[0], de = estimated[1] - estimated[0];
    cr_log_info("%s, %s: estimate / measurement of the difference %.3f", problem, integrator,
                de / dm);
    cr_expect(dm > 0.0, "%s: the larger run took no more memory", problem);
    cr_expect(de >= dm && de <= 1.35 * dm, "%s, %s: estimated %.4g B more for the larger "
              "size, measured %.4g B (ratio %.3f, expected in [1, 1.35])", problem, integrator,
              de, dm, de / dm);
}

/* 40 x 40 and 200 x 200 particles: (nx - 1) ny + nx (ny - 1) + 2 (nx - 1)(ny - 1) springs */
static const char *cloth_sets[2] = { "--set nx=40 --set ny=40", "--set nx=200 --set ny=200" };
static const size_t cloth_nodes[2] = { 1600, 40000 }, cloth_links[2] = { 6162, 158802 };

Test(memory_estimate, implicit_euler_cloth)
{
    expect_estimate("cloth", cloth_sets, cloth_nodes, cloth_links, "implicit-euler");
}

Test(memory_estimate, explicit_euler_cloth)
{
    expect_estimate("cloth", cloth_sets, cloth_nodes, cloth_links, "explicit-euler");
}

/* 5000 and 60000 particles, n - 1 springs */
Test(memory_estimate, implicit_euler_chain)
{
    const char *sets[2] = { "--set n=5000", "--set n=60000" };
    const size_t nodes[2] = { 5000, 60000 }, links[2] = { 4999, 59999 };
    expect_estimate("spring-chain", sets, nodes, links, "implicit-euler");
}

/* every other measured scheme on the chain (each one's bytes a node, measured again when
 * the explicit schemes' had grown past their estimates on the chain, doc/limits.md) and
 * on the cloth (its springs' share) */
Test(memory_estimate, other_schemes_chain_and_cloth)
{
    const char *sets[2] = { "--set n=5000", "--set n=60000" };
    const size_t nodes[2] = { 5000, 60000 }, links[2] = { 4999, 59999 };
    const char *schemes[] = { "explicit-euler", "rk4", "leapfrog", "verlet-nosquish",
                              "implicit-euler-newton" };
    for (size_t k = 0; k < sizeof schemes / sizeof *schemes; k++) {
        expect_estimate("spring-chain", sets, nodes, links, schemes[k]);
        expect_estimate("cloth", cloth_sets, cloth_nodes, cloth_links, schemes[k]);
    }
}

/* The estimate `bench fincham` prints for its largest size ("memory estimate at the
 * largest size, N bodies: TEXT") in bytes, from its output in file `out` */
static double fincham_estimate(const char *out)
{
    FILE *f = fopen(out, "r");
    cr_assert_not_null(f);
    static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    char line[256], unit[8];
    double bodies, value, bytes = -1.0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "memory estimate at the largest size, %lf bodies: %lf %7s", &bodies,
                   &value, unit) == 3)
            for (int u = 0; u < 5; u++)
                if (strcmp(unit, units[u]) == 0)
                    bytes = value * pow(1024.0, u);
    fclose(f);
    cr_assert_gt(bytes, 0.0, "no estimate printed in %s", out);
    return bytes;
}

/* bench fincham's estimate (its bytes a body) against its peak resident set, the
 * difference between --max-nodes 1e4 and 1e5 (each size is freed before the next, so the
 * largest is the peak), within [1, 1.35] as above; the estimate is printed in 3
 * significant digits (0.5 % at most) */
Test(memory_estimate, bench_fincham)
{
    double measured[2], estimated[2];
    const char *sizes[2] = { "1e4", "1e5" };
    char out[] = "/tmp/test_memory_fincham_XXXXXX";
    int fd = mkstemp(out);
    cr_assert_geq(fd, 0);
    close(fd);
    for (int q = 0; q < 2; q++) {
        char args[256];
        snprintf(args, sizeof args, "bench fincham --max-nodes %s --min-time 0.001", sizes[q]);
        measured[q] = peak_rss_to(args, out);
        estimated[q] = fincham_estimate(out);
    }
    unlink(out);
    double dm = measured[1] - measured[0], de = estimated[1] - estimated[0];
    cr_log_info("bench fincham: estimate / measurement of the difference %.3f", de / dm);
    cr_expect(de >= dm / 1.005 && de <= 1.35 * dm, "bench fincham: estimated %.4g B more at "
              "10^5 bodies than at 10^4, measured %.4g B (ratio %.3f, expected in [1, 1.35])",
              de, dm, de / dm);
}
