// odeint_free_fall.cpp -- optional peer of `motionbench bench leapfrog` (not part of the
// library, not built by make): Boost.Odeint's velocity_verlet stepping N free particles
// under uniform gravity, the system of the benchmark's whole step, in the peer's best
// form for the work: the acceleration is a = g per component, with no mass array and no
// divide (under a uniform field the masses cancel; computing (m g) / m per component
// would weaken the peer).
//
//   g++ -O2 -o odeint_free_fall tools/peers/odeint_free_fall.cpp
//   ./odeint_free_fall [MAX_NODES [MIN_TIME]]
//   ./odeint_free_fall --rate N SECONDS
//
// The first form prints node-steps/s per size (10^3 .. MAX_NODES by decades), CPU time
// of the thread, best of 5 batches of at least MIN_TIME / 5 seconds each, the clock and
// batching of the motionbench step benchmarks.  The second prints the rate of one batch
// of at least SECONDS on N particles (after one untimed step): the form that
// `motionbench bench leapfrog --odeint ./odeint_free_fall` calls once per round, so that
// Odeint and the library are timed alternately in one run.
#include <boost/numeric/odeint.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace {

typedef std::vector<double> state;
const double gravity_g[3] = { 0.0, 0.0, -9.81 };

double cpu_now()
{
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// a = g per component: the acceleration of uniform gravity, whatever the mass
struct gravity_acceleration {
    void operator()(const state &x, const state &v, state &a, double) const
    {
        (void)x;
        (void)v;
        const std::size_t n3 = a.size();
        for (std::size_t j = 0; j < n3; j += 3) {
            a[j] = gravity_g[0];
            a[j + 1] = gravity_g[1];
            a[j + 2] = gravity_g[2];
        }
    }
};

struct free_fall {
    state x, v;
    std::size_t n;
    boost::numeric::odeint::velocity_verlet<state> stepper;
    double t;
    explicit free_fall(std::size_t n);
    // node-steps/s of one batch of at least `slice` seconds of CPU time
    double batch_rate(double slice);
};

free_fall::free_fall(std::size_t nodes) : x(3 * nodes), v(3 * nodes), n(nodes), t(0.0)
{
    for (std::size_t i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            std::size_t j = 3 * i + k;
            x[j] = 1e-3 * static_cast<double>(j % 1013);
            v[j] = 1e-2 * static_cast<double>(j % 71) - 0.3;
        }
    }
}

double free_fall::batch_rate(double slice)
{
    gravity_acceleration accel;
    const double h = 1e-4;
    long steps = 0;
    double t0 = cpu_now(), dt;
    do {
        stepper.do_step(accel, std::make_pair(std::ref(x), std::ref(v)), t, h);
        t += h;
        steps++;
        dt = cpu_now() - t0;
    } while (steps < 2 || dt < slice);
    return static_cast<double>(n) * static_cast<double>(steps) / dt;
}

double rate(std::size_t n, double min_time)
{
    free_fall system(n);
    double best = 0.0;
    for (int batch = 0; batch < 5; batch++)
        best = std::max(best, system.batch_rate(min_time / 5.0));
    return best;
}

// --rate N SECONDS: one batch after one untimed step (first touch of the arrays)
int one_batch(const char *nodes, const char *seconds)
{
    double n = std::atof(nodes), slice = std::atof(seconds);
    if (!(n >= 1.0 && n <= 1e8) || !(slice > 0.0 && slice <= 60.0)) {
        std::fprintf(stderr, "usage: odeint_free_fall --rate N in [1, 1e8] SECONDS in (0, 60]\n");
        return 2;
    }
    free_fall system(static_cast<std::size_t>(n));
    system.batch_rate(0.0);
    std::printf("%.17g\n", system.batch_rate(slice));
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc == 4 && std::string(argv[1]) == "--rate")
        return one_batch(argv[2], argv[3]);
    double max_nodes = argc > 1 ? std::atof(argv[1]) : 1e6;
    double min_time = argc > 2 ? std::atof(argv[2]) : 1.0;
    if (!(max_nodes >= 1e3 && max_nodes <= 1e8) || !(min_time > 0.0 && min_time <= 60.0)) {
        std::fprintf(stderr, "usage: odeint_free_fall [MAX_NODES in [1e3, 1e8] [MIN_TIME in (0, 60]]]\n");
        return 2;
    }
    std::printf("Boost.Odeint velocity_verlet, N free particles under gravity, node-steps/s (CPU time)\n");
    std::printf("%12s %14s\n", "nodes", "velocity_verlet");
    for (double nn = 1e3; nn <= max_nodes * 1.0000001; nn *= 10.0) {
        std::size_t n = static_cast<std::size_t>(nn);
        std::printf("%12zu %14.4g\n", n, rate(n, min_time));
        std::fflush(stdout);
    }
    return 0;
}
