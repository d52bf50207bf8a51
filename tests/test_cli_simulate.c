/* test_cli_simulate.c -- the `simulate` and `bench` commands, run as the built program
 * (test_program.h): usage and input errors (exit 2 with a message naming
 * the culprit), the CSV format, the energy account, and the byte identity of MPFR-53
 * twins with the double run where the two instances perform the same operations. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_files.h"
#include "test_program.h"

static char dir[256];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/mb_cli_XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        cr_log_warn("could not remove %s", dir);
}

TestSuite(cli, .init = make_dir, .fini = remove_dir);

/* Run "motionbench ARGS"; stdout -> dir/out, stderr -> dir/err; return the exit status. */
static int run(const char *args)
{
    cr_assert_not_null(getenv("MB_BUILDDIR"), "MB_BUILDDIR is not set (run through make check)");
    char cmd[4096], prog[2048];
    snprintf(cmd, sizeof cmd, "'%s' %s > '%s/out' 2> '%s/err'", tp_program(prog, sizeof prog),
             args, dir, dir);
    int st = system(cmd);
    cr_assert(WIFEXITED(st), "motionbench did not exit normally (%d): %s", st, cmd);
    return WEXITSTATUS(st);
}

static char *slurp(const char *name)
{
    return tf_read_in(dir, name, NULL);
}

static void expect_usage_error(const char *args, const char *needle)
{
    int rc = run(args);
    char *err = slurp("err");
    cr_expect_eq(rc, 2, "'%s' exited %d", args, rc);
    cr_expect(strstr(err, needle) != NULL, "'%s': message '%s' lacks '%s'", args, err, needle);
    free(err);
}

Test(cli, help_for_every_command)
{
    const char *cmds[] = { "--help", "simulate --help", "bench --help",
                           "bench implicit-chain --help", "bench implicit-cloth --help",
                           "list --help", NULL };
    for (const char **c = cmds; *c; c++) {
        cr_expect_eq(run(*c), 0, "'%s' failed", *c);
        char *out = slurp("out");
        cr_expect(strstr(out, "usage") != NULL, "'%s' printed no usage", *c);
        free(out);
    }
}

Test(cli, bad_input_exits_2_with_a_clear_message)
{
    expect_usage_error("simulate -p harmonik -i explicit-euler --dt 0.1 --t-end 1",
                       "did you mean 'harmonic'");
    expect_usage_error("simulate -p harmonic -i implict-euler --dt 0.1 --t-end 1",
                       "did you mean 'implicit-euler'");
    expect_usage_error("simulate -p harmonic -i 'implicit-euler[solvr=dense]' --dt 0.1 --t-end 1",
                       "did you mean 'solver'");
    expect_usage_error("simulate -p damped -i explicit-euler --dt 0.1 --t-end 1 --set kk=3",
                       "did you mean 'k'");
    expect_usage_error("simulate -p damped -i explicit-euler --dt 0 --t-end 1", "--dt");
    expect_usage_error("simulate -p damped -i explicit-euler --dt -0.1 --t-end 1", "--dt");
    expect_usage_error("simulate -p damped -i explicit-euler --dt 0.1 --t-end -1", "--t-end");
    expect_usage_error("simulate -p damped -i explicit-euler --dt nan --t-end 1", "--dt");
    expect_usage_error("simulate -p damped -i explicit-euler --dt 0.1 --t-end 1 --set c=nan",
                       "c = 'nan' must be finite");
    expect_usage_error("simulate -p damped -i explicit-euler --dt 0.1 --t-end 1 --set k=inf",
                       "must be finite");
    expect_usage_error("simulate -p damped -i explicit-euler --dt 0.1 --t-end 1 --precision mpfr:0",
                       "--precision");
    expect_usage_error("simulate -p damped -i explicit-euler --dt 0.1 --t-end 1 --precision quad",
                       "--precision");
    expect_usage_error("simulate -p damped --dt 0.1 --t-end 1", "required");
    expect_usage_error("simulate -p damped -i explicit-euler --dt 0.1 --t-end 1 --bogus 3",
                       "unknown option '--bogus'");
    expect_usage_error("bench implicit-chian", "unknown benchmark");
    /* transverse stiffness k (1 - L/l) = -1/2 with m0 = m1 = k = h = 1 makes
     * M - h^2 K singular (det = m0 m1 + h^2 K_t (m0 + m1) = 0) */
    expect_usage_error("simulate -p spring-pair -i 'implicit-euler[solver=dense]' --dt 1 --t-end 1 "
                       "--set m0=1 --set m1=1 --set k=1 --set rest=0.75 --set d=0.5", "singular");
}

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

Test(cli, csv_format_every_and_atomic_output)
{
    char args[1024];
    snprintf(args, sizeof args, "simulate -p spring-pair -i symplectic-euler --dt 0.01 --t-end 0.095 "
             "--every 3 -o '%s/run.csv'", dir);
    cr_assert_eq(run(args), 0);
    char *csv = slurp("run.csv");
    const char *header = "t,energy_kinetic,energy_potential,energy_dissipated,energy_total,"
                         "energy_external,energy_error,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz,n1_x,n1_y,n1_z,n1_vx,n1_vy,n1_vz\n";
    cr_expect(strncmp(csv, header, strlen(header)) == 0, "header: %.200s", csv);
    /* 10 steps (the last shortened to land on 0.095): rows at 0, 3, 6, 9 and 10 */
    cr_expect_eq(count_lines(csv), 1 + 5, "%s", csv);
    const char *last = strrchr(csv, '\n');
    while (last > csv && last[-1] != '\n')
        last--;
    cr_expect(strncmp(last, "0.095", 5) == 0 || strncmp(last, "0.0949999", 9) == 0
              || strncmp(last, "0.09500000", 10) == 0, "last row starts '%.30s'", last);
    free(csv);
    /* nothing but the output is left in the directory (temporary file renamed) */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "test $(ls '%s' | grep -c tmp) -eq 0", dir);
    cr_expect_eq(system(cmd), 0, "a temporary file was left behind");
}

/* run spec at precision prec into dir/name; return the file text */
static char *simulate_to(const char *problem, const char *sets, const char *spec, const char *prec,
                         const char *name)
{
    char args[1024];
    snprintf(args, sizeof args, "simulate -p %s %s -i '%s' --dt 0.0173 --t-end 1.5 "
             "--precision %s -o '%s/%s'", problem, sets, spec, prec, dir, name);
    cr_assert_eq(run(args), 0, "%s", args);
    return slurp(name);
}

static void expect_identical(const char *problem, const char *sets, const char *spec)
{
    char *a = simulate_to(problem, sets, spec, "double", "a.csv");
    char *b = simulate_to(problem, sets, spec, "mpfr:53", "b.csv");
    cr_expect(strcmp(a, b) == 0, "%s on %s: mpfr:53 output differs from double", spec, problem);
    free(a);
    free(b);
}

Test(cli, mpfr53_byte_identical_to_double)
{
    expect_identical("spring-chain", "--set n=5 --set D=0.02", "explicit-euler");
    expect_identical("spring-chain", "--set n=5 --set D=0.02", "symplectic-euler");
    /* decoupled systems: GSL's LU (solver=dense) too */
    expect_identical("harmonic", "", "implicit-euler[solver=dense]");
    expect_identical("damped", "", "implicit-euler[solver=dense]");
    expect_identical("damped", "", "implicit-euler-newton[solver=dense]");
    /* coupled systems: identical with solver=gauss (the same elimination in both
     * instances), not with GSL's LU (a different elimination order) */
    expect_identical("spring-chain", "--set n=6", "implicit-euler[solver=gauss]");
    expect_identical("cloth", "--set nx=3 --set ny=3", "implicit-euler-newton[solver=gauss]");
    /* control: at 54 bits the numbers differ, so the comparison can fail */
    char *a = simulate_to("damped", "", "symplectic-euler", "double", "a.csv");
    char *b = simulate_to("damped", "", "symplectic-euler", "mpfr:54", "b.csv");
    cr_expect(strcmp(a, b) != 0, "mpfr:54 output equals the double output");
    free(a);
    free(b);
}

/* Energy account on the damped oscillator with symplectic Euler at a small step:
 * E_kin + E_pot + W_dissipated stays at E_0 up to the scheme's O(h) energy error
 * (h w ~ 2e-4 here, so 1e-3 relative is generous), while W_dissipated itself is a sizable
 * fraction of E_0 -- without it the balance would be off by that much. */
Test(cli, dissipated_work_closes_the_energy_balance)
{
    char args[512];
    snprintf(args, sizeof args, "simulate -p damped -i symplectic-euler --dt 1e-4 --t-end 2 "
             "--every 20000 -o '%s/e.csv'", dir);
    cr_assert_eq(run(args), 0);
    char *csv = slurp("e.csv");
    double t0, k0, p0, w0, e0, t1, k1, p1, w1, e1;
    char *row1 = strchr(csv, '\n') + 1, *row2 = strchr(row1, '\n') + 1;
    cr_assert_eq(sscanf(row1, "%lf,%lf,%lf,%lf,%lf", &t0, &k0, &p0, &w0, &e0), 5);
    cr_assert_eq(sscanf(row2, "%lf,%lf,%lf,%lf,%lf", &t1, &k1, &p1, &w1, &e1), 5);
    cr_expect_eq(w0, 0.0);
    cr_expect(w1 > 0.1 * e0, "dissipated %g of %g", w1, e0);
    cr_expect(fabs(e1 + w1 - e0) <= 1e-3 * e0, "balance off by %g (E0 %g)", e1 + w1 - e0, e0);
    free(csv);
}

Test(cli, stats_report_iterations)
{
    cr_assert_eq(run("simulate -p cloth -i 'implicit-euler[solver=sparse]' --dt 0.01 --t-end 0.05 "
                     "--every 5 --stats"), 0);
    char *err = slurp("err");
    cr_expect(strstr(err, "steps 5") != NULL, "%s", err);
    unsigned long lin = 0;
    const char *p = strstr(err, "linear_iterations ");
    cr_expect(p && sscanf(p, "linear_iterations %lu", &lin) == 1 && lin >= 5, "%s", err);
    free(err);
}

/* The rows of a `bench implicit-*` output: *dv the peer's difference from the library's
 * v+ (column 11), cfg its configuration (column 13); the number of rows read. */
static int bench_rows(const char *out, double dv[8], char cfg[8][128])
{
    int rows = 0;
    for (const char *line = out; line && *line && rows < 8; line = strchr(line, '\n')) {
        line += *line == '\n';
        double f[12];
        char c[128];
        if (sscanf(line, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %127s", &f[0], &f[1],
                   &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9], &f[10], &f[11], c) == 13) {
            dv[rows] = f[10];
            snprintf(cfg[rows], 128, "%s", c);
            rows++;
        }
    }
    return rows;
}

/* The benchmarks name their peer and its configuration, and the peer solves the step's
 * system.  Chain: the lean peer's block Thomas sweep (cofactor inverses, benchmark code)
 * against the library's block sweep on the same matrix; two backward-stable solves agree
 * to 2 n u kappa(A) growth (test_blocktri.c), with kappa ~ 10^2 for the chain at
 * h = 1/120, n = 3 x 3162 and growth <= 16: 1e-9 (the printed difference is v+'s and
 * x+'s, x+ = x + h v+ formed in the peer's backward pass: x+'s relative difference is at
 * most v+'s times h max|v+| / max|x+| plus a rounding).  Cloth: CHOLMOD factorises the
 * symmetric part S of A once the fixed degrees of freedom are eliminated
 * (bench_cholmod.h).  What remains nonsymmetric is the dashpots' term of K, of relative
 * size about h^2 (c / l) |dv| / m = (1/120)^2 (0.0017 / 0.025) 0.1 / 0.0031 = 1.5e-4 for
 * relative velocities |dv| ~ g h ~ 0.1 m/s after a step: the printed asymmetry must stay
 * below 1e-3, and the peer's v+ differs from the library's Krylov solve of A by at most
 * kappa(S) asym / 2 plus the Krylov tolerance (1e-12 kappa), kappa(S) < 10 (h^2 k / m =
 * 1.3): below 5e-3.  A peer fed the fixed rows as they are (30 % asymmetric) is 6 % off. */
Test(cli, bench_peers_are_named_and_solve_the_step)
{
    double dv[8];
    char cfg[8][128];
    int rc = run("bench implicit-chain --max-n 3200 --steps 1");
    cr_expect(rc == 0 || rc == 1, "exit %d", rc);
    char *out = slurp("out");
    cr_expect(strstr(out, "# peer: lean chain step") != NULL, "%s", out);
    int rows = bench_rows(out, dv, cfg);
    cr_expect_eq(rows, 2, "%s", out);
    for (int k = 0; k < rows; k++)
        cr_expect(dv[k] <= 1e-9
                  && strcmp(cfg[k], "block-Thomas,rows[D|b],[X|z]-carried,x+in-back-pass") == 0,
                  "chain row %d: dv %g, peer %s", k, dv[k], cfg[k]);
    free(out);
    /* glibc fills every allocation with bytes 0xfe (doubles near -1.6e303): a buffer the
     * benchmark reads before it writes (a Krylov guess) makes the solve overflow, exit 2 */
    setenv("MALLOC_PERTURB_", "1", 1);
    rc = run("bench implicit-cloth --max-n 3200 --steps 1");
    unsetenv("MALLOC_PERTURB_");
    cr_expect(rc == 0 || rc == 1, "exit %d", rc);
    out = slurp("out");
    cr_expect(strstr(out, "# peer: lean cloth step") != NULL, "%s", out);
    if (strstr(out, "no CHOLMOD") != NULL) {
        cr_log_warn("motionbench was built without CHOLMOD: the cloth's peer is not checked");
        free(out);
        return;
    }
    /* the libraries on one thread from the moment they load: the benchmark ran itself
     * again with the environment that says so (bench_cholmod_one_thread_process) */
    cr_expect(strstr(out, ", one thread: OMP_THREAD_LIMIT=1 OPENBLAS_NUM_THREADS=1 from the "
                          "libraries' load,") != NULL, "%s", out);
    rows = bench_rows(out, dv, cfg);
    cr_expect_eq(rows, 2, "%s", out);
    for (int k = 0; k < rows; k++) {
        const char *a = strstr(cfg[k], "asym="), *o = strstr(cfg[k], "others=");
        double asym = a ? strtod(a + 5, NULL) : NAN;
        /* One thread: the CPU time other threads of the process took during the peer's
         * factorisations and solves (process minus calling thread, measured by the kernel)
         * is none; CHOLMOD's four-thread OpenMP regions or OpenBLAS's threads left on take
         * 0.4-0.5 of it at these sizes, so 1 % separates the two.  Every row: with the
         * environment set OpenBLAS creates no worker that could spin in the peer's calls
         * (without it 7-9 % of the first size's time was seen under load). */
        double others = o ? strtod(o + 7, NULL) : NAN;
        cr_expect(others <= 0.01, "cloth row %d: peer %s", k, cfg[k]);
        cr_expect((!strncmp(cfg[k], "AMD,", 4) || !strncmp(cfg[k], "METIS,", 6)
                   || !strncmp(cfg[k], "NESDIS,", 7)) && asym <= 1e-3,
                  "cloth row %d: peer %s", k, cfg[k]);
        cr_expect(dv[k] <= 5e-3, "cloth row %d: dv %g, asym %g", k, dv[k], asym);
    }
    free(out);
}

/* The benchmark command runs and reports a fitted exponent (its pass/fail verdict on two
 * small sizes depends on machine load, so only the exit codes 0/1 are accepted here). */
Test(cli, bench_runs_and_fits_an_exponent)
{
    int rc = run("bench implicit-chain --max-n 3200 --steps 1");
    cr_expect(rc == 0 || rc == 1, "exit %d", rc);
    char *out = slurp("out");
    cr_expect(strstr(out, "growth exponent") != NULL, "%s", out);
    cr_expect(strstr(out, "     3162 ") != NULL, "sizes: %s", out);
    free(out);
    cr_expect_eq(run("bench implicit-chain --steps 0"), 2);
    cr_expect_eq(run("simulate -p damped -i implicit-euler --dt 0.1 --t-end 0.5 "
                     "--precision mpfr:80 --stats"), 0);
}

/* Spin-up through `simulate`: leap-frog with the first-step adjustment integrates a
 * constant torque exactly (omega is linear in t, and the rotation axis is fixed, so the
 * quaternion update composes exact rotations), hence the last row must equal the closed
 * form w(t) = (w0 + |T| t / I) n, I = 2/5 m r^2, up to round-off: 100 steps of a few
 * operations each, so 1e-13 relative is a safe bound.  Rotation columns must be present.
 * The torque is an external load: its work W_ext(t) = |T| w0 t + |T|^2 t^2 / (2 I) (the
 * integral of the power T.w, linear in t, which Gregory's rule integrates exactly) must be
 * in energy_external, and energy_error = E - E0 - W_ext must be round-off, where E - E0
 * alone is W_ext = 0.57 J (the fault of a simulate that ignores W_ext). */
Test(cli, spin_up_exact_with_rotation_columns)
{
    char args[512];
    snprintf(args, sizeof args, "simulate -p spin-up -i leapfrog --dt 0.01 --t-end 1 --every 100 "
             "-o '%s/s.csv'", dir);
    cr_assert_eq(run(args), 0);
    char *csv = slurp("s.csv");
    cr_expect(strstr(csv, ",n0_qw,n0_qx,n0_qy,n0_qz,n0_wx,n0_wy,n0_wz\n") != NULL, "%.300s", csv);
    char *row = strchr(csv, '\n') + 1;
    row = strchr(row, '\n') + 1;           /* the row at t = 1 */
    double c[20];
    int got = 0;
    for (char *p = row, *end; got < 20; got++, p = end + (*end == ',')) {
        c[got] = strtod(p, &end);
        if (end == p)
            break;
    }
    cr_assert_eq(got, 20, "%s", row);
    /* defaults of spin-up: m = 1.3, r = 0.25, T = (0.03, -0.02, 0.07), w0 = 1.1 */
    const double T[3] = { 0.03, -0.02, 0.07 }, I = 0.4 * 1.3 * 0.25 * 0.25;
    double tn = sqrt(T[0] * T[0] + T[1] * T[1] + T[2] * T[2]), w = 1.1 + tn * 1.0 / I;
    for (int a = 0; a < 3; a++) {
        double expect = w * T[a] / tn;
        cr_expect(fabs(c[17 + a] - expect) <= 1e-13 * w, "w[%d] = %.17g, closed form %.17g", a,
                  c[17 + a], expect);
    }
    /* rotation angle phi = w0 t + |T| t^2 / (2 I) about n: q = (cos phi/2, sin phi/2 n) */
    double phi = 1.1 + tn / (2.0 * I);
    cr_expect(fabs(c[13] - cos(0.5 * phi)) <= 1e-13, "qw %.17g vs %.17g", c[13], cos(0.5 * phi));
    for (int a = 0; a < 3; a++)
        cr_expect(fabs(c[14 + a] - sin(0.5 * phi) * T[a] / tn) <= 1e-13, "q[%d]", a + 1);
    double w_ext = tn * 1.1 + tn * tn / (2.0 * I);
    cr_expect(fabs(c[5] - w_ext) <= 1e-13 * w_ext, "energy_external %.17g, closed form %.17g",
              c[5], w_ext);
    cr_expect(fabs(c[6]) <= 1e-13 * c[4], "energy_error %.17g (E = %.17g, W_ext %.17g)", c[6],
              c[4], w_ext);
    free(csv);
}

/* W_ext over a shortened last step: t_end = 0.995 with dt = 0.01 ends with a step of
 * 0.005, which Gregory's rule for constant steps cannot take; external_work.c goes on
 * with the trapezoid rule, exact for the power T.w of spin-up (linear in t), so
 * energy_external must be the closed form |T| w0 t + |T|^2 t^2 / (2 I) at t = 0.995 to
 * round-off (1e-13 relative), and energy_error round-off.  A right-endpoint rule
 * (h P_{n+1}) would be off by h^2 |T|^2 / (2 I) = 1.2e-4 J. */
Test(cli, external_work_over_a_shortened_last_step)
{
    char args[512];
    snprintf(args, sizeof args, "simulate -p spin-up -i leapfrog --dt 0.01 --t-end 0.995 "
             "--every 1000 -o '%s/s.csv'", dir);
    cr_assert_eq(run(args), 0);
    char *csv = slurp("s.csv");
    char *row = strchr(strchr(csv, '\n') + 1, '\n') + 1;     /* the row at t_end */
    double t, ek, ep, wd, e, w_ext, err;
    cr_assert_eq(sscanf(row, "%lf,%lf,%lf,%lf,%lf,%lf,%lf", &t, &ek, &ep, &wd, &e, &w_ext, &err),
                 7, "%s", row);
    const double T[3] = { 0.03, -0.02, 0.07 }, I = 0.4 * 1.3 * 0.25 * 0.25;
    double tn = sqrt(T[0] * T[0] + T[1] * T[1] + T[2] * T[2]);
    double expect = tn * 1.1 * 0.995 + tn * tn * 0.995 * 0.995 / (2.0 * I);
    cr_expect(fabs(t - 0.995) <= 1e-15, "t %.17g", t);
    cr_expect(fabs(w_ext - expect) <= 1e-13 * expect, "energy_external %.17g, closed form %.17g",
              w_ext, expect);
    cr_expect(fabs(err) <= 1e-13 * e, "energy_error %.17g", err);
    free(csv);
}

/* The leap-frog translation kernel is free of transcendental calls: its 53-bit twin
 * reproduces the double run byte for byte (Kepler exercises sqrt and division). */
Test(cli, leapfrog_mpfr53_byte_identical)
{
    expect_identical("kepler", "", "leapfrog");
    expect_identical("free-fall", "", "leapfrog[adj_vel0=off]");
    expect_identical("spring-chain", "--set n=5 --set D=0.02", "leapfrog");
}

/* -o FILE gets the permissions of any new file (0666 less the umask), not mkstemp's
 * private 0600 carried over by the rename. */
Test(cli, output_file_mode_follows_the_umask)
{
    char args[1024], path[600];
    snprintf(args, sizeof args, "simulate -p harmonic -i explicit-euler --dt 0.1 --t-end 0.5 "
             "-o '%s/mode.csv'", dir);
    mode_t old = umask(022);
    int rc = run(args);
    umask(old);
    cr_assert_eq(rc, 0);
    snprintf(path, sizeof path, "%s/mode.csv", dir);
    struct stat sb;
    cr_assert_eq(stat(path, &sb), 0);
    cr_expect_eq(sb.st_mode & 0777, 0644, "mode %o", (unsigned)(sb.st_mode & 0777));
}

/* bench implicit-*: an unknown option is named as such, and a value out of range says
 * the range (the help text does too). */
Test(cli, bench_implicit_options_name_their_range)
{
    expect_usage_error("bench implicit-chain --bogus x", "unknown option '--bogus'");
    expect_usage_error("bench implicit-chain --max-n 1000",
                       "--max-n '1000': give a number in [3163, 100000000]");
    expect_usage_error("bench implicit-cloth --steps 0", "--steps '0': give a number in [1, 1000]");
    expect_usage_error("bench implicit-cloth --steps 2.5", "--steps '2.5': give a whole number in [1, 1000]");
    expect_usage_error("bench implicit-chain --dt -1", "--dt '-1': give a number > 0");
    cr_expect_eq(run("bench implicit-chain --help"), 0);
    char *out = slurp("out");
    cr_expect(strstr(out, "largest size in [3163, 1e8]") != NULL, "%s", out);
    free(out);
}

/* --dt auto on the harmonic oscillator (m = k = 1 by default): the critical step of Woo's
 * estimate is sqrt(2) sqrt(m/k), so DynDt starts at 0.9 sqrt(2) = 1.2727922061357855 and,
 * the stiffness being constant, neither shrinks nor grows: the rows fall at n dt0 (to the
 * rounding of the accumulated time).  That step is inside leap-frog's stability limit
 * 2 sqrt(m/k), so the energy stays bounded: leap-frog's energy error on the oscillator is
 * at most (w h)^2 / (4 - (w h)^2) of E (modified energy), 0.68 here. */
Test(cli, dt_auto_follows_the_critical_step)
{
    char args[512];
    snprintf(args, sizeof args, "simulate -p harmonic -i leapfrog --dt auto --t-end 12 -o '%s/a.csv'",
             dir);
    cr_assert_eq(run(args), 0);
    char *csv = slurp("a.csv");
    const double dt0 = 0.9 * sqrt(2.0);
    char *row = strchr(csv, '\n') + 1;
    double e0 = 0.0;
    int n = 0;
    for (; row && *row; n++) {
        double t, ek, ep, ed, et;
        cr_assert_eq(sscanf(row, "%lf,%lf,%lf,%lf,%lf", &t, &ek, &ep, &ed, &et), 5);
        if (n == 0)
            e0 = et;
        else if (t < 12.0 - 1e-9)
            cr_expect(fabs(t - n * dt0) <= 1e-12 * n, "row %d at t = %.17g, expected %.17g", n, t,
                      n * dt0);
        cr_expect(fabs(et - e0) <= 0.68 * e0, "energy %g at t = %g (E0 %g)", et, t, e0);
        row = strchr(row, '\n');
        row = row ? row + 1 : NULL;
    }
    cr_expect_eq(n, 1 + (int)ceil(12.0 / dt0), "%d rows", n);
    free(csv);
    /* no stiffness at t = 0 (spheres apart): an initial step is needed */
    expect_usage_error("simulate -p sphere-collision -i leapfrog --dt auto --t-end 0.01",
                       "give the initial step as --dt auto:DT0");
    cr_expect_eq(run("simulate -p sphere-collision -i leapfrog --dt auto:1e-5 --t-end 0.004 "
                     "--every 100"), 0);
    expect_usage_error("simulate -p harmonic -i leapfrog --dt auto:x --t-end 1", "--dt auto:");
    expect_usage_error("simulate -p harmonic -i leapfrog --dt auto --dt-safety 1.5 --t-end 1",
                       "--dt-safety '1.5': give a number in (0, 1]");
}
