// odeint_free_fall.cpp -- optional peer of `motionbench bench leapfrog` (not part of the
// library, not built by make): Boost.Odeint's velocity_verlet stepping N free particles
// (masses 1 .. 1.1) under uniform gravity, the same system and the same per-particle work
// (a = f / m with f = m g) as the benchmark's whole step and plain loop.
//
//   g++ -O2 -o odeint_free_fall tools/peers/odeint_free_fall.cpp
//   ./odeint_free_fall [MAX_NODES [MIN_TIME]]
//
// Prints node-steps/s per size (10^3 .. MAX_NODES by decades), CPU time of the thread,
// best of 5 batches of at least MIN_TIME / 5 seconds each, the clock and batching of
// the motionbench step benchmarks.  Run it beside `motionbench bench leapfrog`
// (alternating the two) and compare the whole-step column with this one.
#include <boost/numeric/odeint.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
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

// a = f / m with f = m g, per particle (what the force model and the kick compute)
struct gravity_acceleration {
    const std::vector<double> *mass;
    void operator()(const state &x, const state &v, state &a, double) const
    {
        (void)v;
        const std::size_t n = mass->size();
        for (std::size_t i = 0; i < n; i++)
            for (int k = 0; k < 3; k++)
                a[3 * i + k] = ((*mass)[i] * gravity_g[k]) / (*mass)[i];
        (void)x;
    }
};

double rate(std::size_t n, double min_time)
{
    state x(3 * n), v(3 * n);
    std::vector<double> mass(n);
    for (std::size_t i = 0; i < n; i++) {
        mass[i] = 1.0 + 1e-3 * static_cast<double>(i % 97);
        for (int k = 0; k < 3; k++) {
            std::size_t j = 3 * i + k;
            x[j] = 1e-3 * static_cast<double>(j % 1013);
            v[j] = 1e-2 * static_cast<double>(j % 71) - 0.3;
        }
    }
    boost::numeric::odeint::velocity_verlet<state> stepper;
    gravity_acceleration accel = { &mass };
    const double h = 1e-4;
    double t = 0.0, best = 0.0;
    for (int batch = 0; batch < 5; batch++) {
        long steps = 0;
        double t0 = cpu_now(), dt;
        do {
            stepper.do_step(accel, std::make_pair(std::ref(x), std::ref(v)), t, h);
            t += h;
            steps++;
            dt = cpu_now() - t0;
        } while (steps < 2 || dt < min_time / 5.0);
        best = std::max(best, static_cast<double>(n) * static_cast<double>(steps) / dt);
    }
    return best;
}

} // namespace

int main(int argc, char **argv)
{
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
