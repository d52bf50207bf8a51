/* test_external.c -- the pieces of the external-program protocol (src/external,
 * doc/external.md): the trajectory reader over a buffer (every defect with its line and
 * reason, the time tolerance, truncated input), the integrator spec, descriptors, and the
 * run description (values checked against the problem parameters given here, never
 * against the code that wrote them). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mb_external.h"
#include "mb_problem.h"
#include "mb_status.h"
#include "mb_stepper.h"

/* 1 node, no rotation, rows requested at 0, 0.5, 1 (dt 0.5). */
static const double times3[3] = { 0.0, 0.5, 1.0 };
static const mb_trajectory_request rq3 = { 1, 0, 3, times3, 0.5 };

static const char good[] =
    "t,energy_kinetic,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz\r\n"
    "0,9,1,2,3,4,5,6\r\n"
    "0.5,9, 0.1 ,2,3,4,5,6\n"
    "1,9,0x1p-2,2,3,4,5,-1e-300";

static int parse(const char *text, const mb_trajectory_request *rq, char *why)
{
    mb_trajectory tr;
    int s = mb_trajectory_parse(text, strlen(text), rq, &tr, why, 200);
    mb_trajectory_free(&tr);
    return s;
}

Test(trajectory, good_file_read_exactly)
{
    mb_trajectory tr;
    char why[200] = "";
    cr_assert_eq(mb_trajectory_parse(good, strlen(good), &rq3, &tr, why, sizeof why), MB_SUCCESS,
                 "%s", why);
    cr_assert_eq(tr.n_rows, 3);
    cr_expect_eq(tr.t[1], 0.5);
    cr_expect_eq(tr.values[6 + 0], 0.1);          /* strtod of "0.1": the nearest double */
    cr_expect_eq(tr.values[12 + 0], 0.25);        /* C hexadecimal float 0x1p-2 */
    cr_expect_eq(tr.values[12 + 5], -1e-300);
    mb_trajectory_free(&tr);
}

/* Each defect: its text and the reason that must be given. */
static const struct { const char *text, *why; } defects[] = {
    { "", "empty file (no header)" },
    { "t,n0_x,n0_y,n0_z,n0_vx,n0_vy\n", "line 1: missing column 'n0_vz' (6 of 7" },
    { "t,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz,n0_qw\n", "line 1: unexpected column 'n0_qw'" },
    { "t,n0_y,n0_x,n0_z,n0_vx,n0_vy,n0_vz\n", "line 1: column 2 is 'n0_y', expected 'n0_x'" },
    { "energy_total,t,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz\n", "line 1: column 1 is 'energy_total', expected 't'" },
    { "t,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz\n", "line 1: too few rows: 0 of the 3 requested" },
    { "t,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz\n0,1,2,3,4,5,6\n0.5,1,2,3,4,5,6\n",
      "line 3: too few rows: 2 of the 3 requested (missing from t = 1)" },
    { "t,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz\n0,1,2,3,4,5,6\n0.5,1,2,3,4,5,6\n1,1,2,3,4,5,6\n1.5,1,2,3,4,5,6\n",
      "line 5: too many rows: 3 were requested" },
    { "t,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz\n0,1,2,3,4,5,6\n\n0.5,1,2,3,4,5,6\n", "line 3: empty line" },
    { "t,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz\n0,1,2,3,4,5\n", "line 2: 6 fields, the header has 7" },
    { "t,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz\n0,1,2,3,4,5,6,7\n", "line 2: more fields than the 7" },
    { "t,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz\nNaN,1,2,3,4,5,6\n", "line 2: column t: NaN is not finite" },
    { "t,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz\n1e999,1,2,3,4,5,6\n", "line 2: column t: 1e999 is not finite" },
    { "t,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz\n0,1,2,3,4,5,six\n", "line 2: column n0_vz: 'six' is not a number" },
    { "t,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz\n0,1,2,3,,5,6\n", "line 2: column n0_vx is empty" },
    { "t,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz\n0,1,2,3,4 5,5,6\n", "line 2: column n0_vx: '4 5' is not a number" },
    { "t,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz\n0.25,1,2,3,4,5,6\n", "line 2: t = 0.25, expected 0 (row 0)" },
};

Test(trajectory, each_defect_has_its_reason)
{
    for (size_t k = 0; k < sizeof defects / sizeof defects[0]; k++) {
        char why[200] = "";
        cr_expect_eq(parse(defects[k].text, &rq3, why), MB_EINVAL, "case %zu accepted", k);
        cr_expect(strncmp(why, defects[k].why, strlen(defects[k].why)) == 0,
                  "case %zu: reason '%s', expected '%s...'", k, why, defects[k].why);
    }
}

/* A state value that is NaN or Inf is read as such: the replay declares the run diverged
 * at that row (src/metrics/divergence.c), as a scheme's own NaN would. */
Test(trajectory, non_finite_state_read)
{
    mb_trajectory tr;
    char why[200] = "";
    const char text[] = "t,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz\n0,1,2,3,4,5,6\n"
                        "0.5,1,NaN,3,4,5,6\n1,1,2,-1e999,4,5,6\n";
    cr_assert_eq(mb_trajectory_parse(text, strlen(text), &rq3, &tr, why, sizeof why),
                 MB_SUCCESS, "%s", why);
    cr_expect(isnan(tr.values[6 + 1]));
    cr_expect(isinf(tr.values[12 + 2]) && tr.values[12 + 2] < 0);
    mb_trajectory_free(&tr);
}

Test(trajectory, nul_byte_refused)
{
    char why[200] = "";
    mb_trajectory tr;
    const char text[] = "t,n0_x\0,n0_y";
    cr_expect_eq(mb_trajectory_parse(text, sizeof text - 1, &rq3, &tr, why, sizeof why), MB_EINVAL);
    cr_expect_str_eq(why, "NUL byte (not a text file)");
}

/* The tolerance on times is 1e-9 dt + 1e-12 |t|: at t = 0.5, dt = 0.5 that is 5e-10 + 5e-13. */
Test(trajectory, time_tolerance)
{
    char text[400], why[200];
    const char *fmt = "t,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz\n0,1,2,3,4,5,6\n%.17g,1,2,3,4,5,6\n1,1,2,3,4,5,6\n";
    snprintf(text, sizeof text, fmt, 0.5 + 4.9e-10);
    cr_expect_eq(parse(text, &rq3, why), MB_SUCCESS, "%s", why);
    snprintf(text, sizeof text, fmt, 0.5 - 5.1e-10);
    cr_expect_eq(parse(text, &rq3, why), MB_EINVAL);
    cr_expect(strncmp(why, "line 3: t = 0.4999999994", 24) == 0, "%s", why);
}

/* Every truncation of a good file is either refused with a reason or (only when nothing
 * but the last line's end is missing) read whole: never a crash, never a partial read. */
Test(trajectory, truncated_input)
{
    size_t n = strlen(good);
    for (size_t len = 0; len < n; len++) {
        mb_trajectory tr;
        char why[200] = "";
        int s = mb_trajectory_parse(good, len, &rq3, &tr, why, sizeof why);
        if (s == MB_SUCCESS)
            cr_expect(tr.n_rows == 3, "length %zu read %zu rows", len, tr.n_rows);
        else
            cr_expect(why[0] != '\0', "length %zu refused without a reason", len);
        mb_trajectory_free(&tr);
    }
}

/* A file far larger than the rows requested can hold is refused before it is read whole:
 * (3 rows + header) x (7 + 16 columns) x 64 bytes + 1 MiB = 1 054 464 bytes; 2 MiB are written. */
Test(trajectory, runaway_file_refused)
{
    char path[] = "/tmp/mb-traj-XXXXXX", why[200] = "";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs("t,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz\n", f);
    for (int k = 0; k < 2 * 1024 * 1024 / 16; k++)
        fputs("0,0,0,0,0,0,0\n\n", f);
    fclose(f);
    mb_trajectory tr;
    cr_expect_eq(mb_trajectory_read_file(path, &rq3, &tr, why, sizeof why), MB_EINVAL);
    cr_expect(strstr(why, "more than 1054464 bytes") != NULL, "%s", why);
    unlink(path);
}

Test(trajectory, quaternion_must_be_unit)
{
    static const double t1[1] = { 0.0 };
    mb_trajectory_request rq = { 1, 1, 1, t1, 0.1 };
    const char *head = "t,n0_x,n0_y,n0_z,n0_vx,n0_vy,n0_vz,n0_qw,n0_qx,n0_qy,n0_qz,n0_wx,n0_wy,n0_wz\n";
    char text[400], why[200];
    snprintf(text, sizeof text, "%s0,0,0,0,0,0,0,0.6,0.8,0,0,1,2,3\n", head);
    cr_expect_eq(parse(text, &rq, why), MB_SUCCESS, "%s", why);
    snprintf(text, sizeof text, "%s0,0,0,0,0,0,0,0.6,0.8,0.01,0,1,2,3\n", head);
    cr_expect_eq(parse(text, &rq, why), MB_EINVAL);
    cr_expect(strstr(why, "line 2: node 0: quaternion norm") != NULL, "%s", why);
}

Test(spec, parse_and_canonical)
{
    mb_external_spec s;
    char canon[300];
    cr_assert_eq(mb_external_spec_parse("external:lammps[ fix = nve/sphere ,damping=0.2]", &s),
                 MB_SUCCESS, "%s", mb_last_error());
    cr_expect_str_eq(s.name, "lammps");
    cr_assert_eq(s.n_options, 2);
    cr_expect_str_eq(s.keys[0], "fix");
    cr_expect_str_eq(s.values[0], "nve/sphere");
    cr_expect_str_eq(s.values[1], "0.2");
    cr_assert_eq(mb_external_spec_canonical(&s, canon, sizeof canon), MB_SUCCESS);
    cr_expect_str_eq(canon, "external:lammps[fix=nve/sphere,damping=0.2]");
    static const char *const bad[] = { "external:", "external:a b", "external:a[b]",
                                       "external:a[b=1", "external:a[b=1]x",
                                       "external:a[b=1,b=2]", "external:a[=1]", "lammps" };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        cr_expect_eq(mb_external_spec_parse(bad[k], &s), MB_EINVAL, "'%s' accepted", bad[k]);
}

static char dir[64];

static void make_dir(void)
{
    strcpy(dir, "/tmp/mb-external-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

/* Write dir/NAME.adapter with the given text, try to load it, return the status. */
static int load_text(const char *name, const char *text, mb_adapter **a)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s.adapter", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
    return mb_adapter_load(path, a);
}

/* requires = INTERPRETER:MODULE: a module the interpreter imports passes, one it lacks is
 * named with the interpreter's path and Python's own words; a missing interpreter is named */
Test(descriptor, requires_modules, .init = make_dir, .fini = remove_dir)
{
    char py[4096], why[512];
    if (!mb_find_on_path("python3", py, sizeof py))
        cr_skip_test("python3 not on PATH");
    mb_adapter *a = NULL;
    cr_assert_eq(load_text("m", "[adapter]\nname = m\nprotocol = 1\ncommand = x\n"
                           "requires = python3:json, python3:os.path, sh\n", &a), MB_SUCCESS,
                 "%s", mb_last_error());
    cr_expect_eq(mb_adapter_check_requirements(a, why, sizeof why), 1, "%s", why);
    mb_adapter_free(a);
    cr_assert_eq(load_text("m", "[adapter]\nname = m\nprotocol = 1\ncommand = x\n"
                           "requires = python3:json, python3:mb_no_such_module_q\n", &a),
                 MB_SUCCESS, "%s", mb_last_error());
    cr_expect_eq(mb_adapter_check_requirements(a, why, sizeof why), 0);
    char expected[4700];
    snprintf(expected, sizeof expected, "requires python3:mb_no_such_module_q: %s cannot import "
             "mb_no_such_module_q (ModuleNotFoundError: No module named 'mb_no_such_module_q')", py);
    cr_expect_str_eq(why, expected);
    mb_adapter_free(a);
    cr_assert_eq(load_text("m", "[adapter]\nname = m\nprotocol = 1\ncommand = x\n"
                           "requires = mb-no-such-python:json\n", &a), MB_SUCCESS);
    cr_expect_eq(mb_adapter_check_requirements(a, why, sizeof why), 0);
    cr_expect_str_eq(why, "requires mb-no-such-python:json, but mb-no-such-python is not found "
                     "on PATH");
    mb_adapter_free(a);
}

Test(descriptor, fields_and_errors, .init = make_dir, .fini = remove_dir)
{
    mb_adapter *a = NULL;
    cr_assert_eq(load_text("ok", "[adapter]\nname = ok\nprotocol = 1\ncommand = python3 x.py -v\n"
                            "timeout = 2.5\nrequires = python3, motionbench-no-such-program\nvelocities = mid-step\n"
                            "options = fix, damping\nsummary = an example\n", &a), MB_SUCCESS,
                 "%s", mb_last_error());
    cr_expect_eq(a->argc, 3);
    cr_expect_str_eq(a->argv[2], "-v");
    cr_expect_eq(a->timeout, 2.5);
    cr_expect_eq(a->n_requires, 2);
    cr_expect_str_eq(a->requires[1], "motionbench-no-such-program");
    cr_expect_eq(a->mid_step, 1);
    cr_expect_eq(a->n_options, 2);
    mb_external_spec s;
    cr_assert_eq(mb_external_spec_parse("external:ok[fix=nve,thermostat=1]", &s), MB_SUCCESS);
    cr_expect_eq(mb_adapter_check_options(a, &s), MB_EINVAL);
    cr_expect(strstr(mb_last_error(), "adapter ok has no option 'thermostat'") != NULL, "%s",
              mb_last_error());
    char why[512];
    cr_expect_eq(mb_adapter_check_requirements(a, why, sizeof why), 0);
    cr_expect_str_eq(why, "requires motionbench-no-such-program, not found on PATH");
    mb_adapter_free(a);

    static const struct { const char *name, *text, *why; } bad[] = {
        { "a", "[adapter]\nname = b\nprotocol = 1\ncommand = x\n", ":2: name = b must equal the file's stem" },
        { "a", "[adapter]\nname = a\nprotocol = 3\ncommand = x\n", ":3: protocol = 3: this motionbench speaks protocols 1 and 2" },
        { "a", "[adapter]\nname = a\nprotocol = 1\n", ":1: name, protocol and command are required" },
        { "a", "[adapter]\nname = a\nprotocol = 1\ncommand = x\ncolour = red\n", ":5: unknown key 'colour'" },
        { "a", "[adapter]\nname = a\nprotocol = 1\ncommand = x\ntimeout = -1\n", ":5: timeout = -1: give a number of seconds > 0" },
        { "a", "[adapter]\nname = a\nprotocol = 1\ncommand = x\nvelocities = half\n", ":5: velocities = half" },
        { "a", "[run]\nname = a\n", ":1: unknown section [run]" },
        /* requires: PROGRAM or INTERPRETER:MODULE, the module a dotted Python name (it
         * reaches the interpreter's command line as "import MODULE") */
        { "a", "[adapter]\nname = a\nprotocol = 1\ncommand = x\nrequires = python3:os;id\n",
          ":5: requires: 'python3:os;id' is neither a program nor INTERPRETER:MODULE" },
        { "a", "[adapter]\nname = a\nprotocol = 1\ncommand = x\nrequires = :json\n",
          ":5: requires: ':json' is neither" },
        { "a", "[adapter]\nname = a\nprotocol = 1\ncommand = x\nrequires = python3:\n",
          ":5: requires: 'python3:' is neither" },
        { "a", "[adapter]\nname = a\nprotocol = 1\ncommand = x\nrequires = python3:a..b\n",
          ":5: requires: 'python3:a..b' is neither" },
        { "a", "[adapter]\nname = a\nprotocol = 1\ncommand = x\nrequires = python3:1a\n",
          ":5: requires: 'python3:1a' is neither" },
        { "a", "[adapter]\nname = a\nprotocol = 1\ncommand = x\nrequires = python3:a.\n",
          ":5: requires: 'python3:a.' is neither" },
        /* the reader's policy (mb_ini.h), the same as for case files */
        { "a", "[adapter]\nname = a\nprotocol = 1\ncommand = x\ncommand = y\n",
          ":5: duplicate key 'command' in [adapter] (first at line 4)" },
        { "a", "[adapter]\nname = a\nprotocol = 1\n[adapter]\ncommand = x\n",
          ":4: duplicate section [adapter] (first at line 1)" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        a = NULL;
        cr_expect_eq(load_text(bad[k].name, bad[k].text, &a), MB_EINVAL, "case %zu accepted", k);
        cr_expect(strstr(mb_last_error(), bad[k].why) != NULL, "case %zu: '%s', expected '%s'", k,
                  mb_last_error(), bad[k].why);
        mb_adapter_free(a);
    }
}

/* run.json of a problem, read back with jansson. */
static json_t *describe(const char *problem, const char *const *sets, int rotation)
{
    mb_options *given = mb_options_new(), *params = NULL;
    for (size_t k = 0; sets && sets[k]; k++)
        cr_assert_eq(mb_options_set_pair(given, sets[k]), MB_SUCCESS);
    const mb_problem_type *pt;
    cr_assert_eq(mb_problem_prepare(problem, given, &pt, &params), MB_SUCCESS, "%s", mb_last_error());
    mb_system *sys = NULL;
    cr_assert_eq(pt->setup(params, &sys), MB_SUCCESS);
    mb_external_spec spec;
    cr_assert_eq(mb_external_spec_parse("external:x[fix=nve]", &spec), MB_SUCCESS);
    mb_run_description d = { "c", "external:x[fix=nve]", &spec, pt, params, sys, 0.25, 2.0, 8, 1,
                             rotation };
    char path[128];
    snprintf(path, sizeof path, "%s/run.json", dir);
    cr_assert_eq(mb_run_description_write(&d, dir), MB_SUCCESS, "%s", mb_last_error());
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    cr_assert_not_null(root, "%s", err.text);
    mb_system_free(sys);
    mb_options_free(params);
    mb_options_free(given);
    return root;
}

/* The value at "a/b/0/c" (object keys and array indices). */
static json_t *at(json_t *root, const char *path)
{
    json_t *v = root;
    char buf[200];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *tok = strtok(buf, "/"); tok && v; tok = strtok(NULL, "/"))
        v = json_is_array(v) ? json_array_get(v, (size_t)atoi(tok)) : json_object_get(v, tok);
    return v;
}

static double num(json_t *root, const char *path)
{
    json_t *v = at(root, path);
    cr_assert(json_is_number(v), "%s is not a number", path);
    return json_number_value(v);
}

static const char *str(json_t *root, const char *path)
{
    json_t *v = at(root, path);
    cr_assert(json_is_string(v), "%s is not a string", path);
    return json_string_value(v);
}

Test(description, kepler_central_force, .init = make_dir, .fini = remove_dir)
{
    static const char *const sets[] = { "mu=2.385", "eccentricity=0.3", "mass=1.7", NULL };
    json_t *r = describe("kepler", sets, 0);
    cr_expect_str_eq(str(r, "protocol"), "motionbench-run/1");
    cr_expect_str_eq(str(r, "adapter"), "x");
    cr_expect_str_eq(str(r, "options/fix"), "nve");
    cr_expect_str_eq(str(r, "problem/name"), "kepler");
    cr_expect_eq(num(r, "problem/parameters/mu"), 2.385);
    cr_expect_eq(num(r, "problem/parameters/a"), 1.0);            /* the default, resolved */
    cr_expect_eq(num(r, "time/dt"), 0.25);
    cr_expect_eq(num(r, "time/steps"), 8);
    cr_expect_eq(num(r, "nodes/0/mass"), 1.7);
    /* periapsis of a = 1, e = 0.3: r = a (1 - e) = 0.7 on x; vis-viva speed
     * v = sqrt(mu (1 + e) / (a (1 - e))) on y */
    cr_expect(fabs(num(r, "nodes/0/position/0") - 0.7) <= 1e-15);
    cr_expect(fabs(num(r, "nodes/0/velocity/1") - sqrt(2.385 * 1.3 / 0.7)) <= 1e-14);
    cr_expect_str_eq(str(r, "forces/0/model"), "central");
    cr_expect_eq(num(r, "forces/0/mu"), 2.385);
    cr_expect_eq(json_array_size(json_object_get(r, "columns")), 7);
    cr_expect_str_eq(str(r, "columns/6"), "n0_vz");
    json_decref(r);
}

Test(description, spring_pair_springs, .init = make_dir, .fini = remove_dir)
{
    static const char *const sets[] = { "k=2.385", "rest=0.5", "m0=1.25", NULL };
    json_t *r = describe("spring-pair", sets, 0);
    cr_expect_eq(num(r, "nodes/0/mass"), 1.25);
    json_t *forces = json_object_get(r, "forces");
    int found = 0;
    for (size_t k = 0; k < json_array_size(forces); k++) {
        json_t *f = json_array_get(forces, k);
        if (strcmp(json_string_value(json_object_get(f, "model")), "springs") != 0)
            continue;
        found = 1;
        json_t *sp = json_array_get(json_object_get(f, "springs"), 0);
        cr_expect_eq(json_integer_value(json_object_get(sp, "i")), 0);
        cr_expect_eq(json_integer_value(json_object_get(sp, "j")), 1);
        cr_expect_eq(json_number_value(json_object_get(sp, "k")), 2.385);
        cr_expect_eq(json_number_value(json_object_get(sp, "rest")), 0.5);
    }
    cr_expect(found, "no springs model in run.json");
    json_decref(r);
}

Test(description, spin_up_torque_and_rotation_columns, .init = make_dir, .fini = remove_dir)
{
    static const char *const sets[] = { "tx=0.5", "ty=-0.25", "tz=2.385", NULL };
    json_t *r = describe("spin-up", sets, 1);
    cr_expect_str_eq(str(r, "forces/0/model"), "torque");
    cr_expect_str_eq(str(r, "forces/0/frame"), "global");
    cr_expect_eq(num(r, "forces/0/torque/2"), 2.385);
    /* the scene's per-body torque on the one body: "nodes": [0] */
    cr_expect_eq(json_array_size(json_object_get(json_array_get(json_object_get(r, "forces"), 0), "nodes")), 1);
    cr_expect_eq(num(r, "forces/0/nodes/0"), 0.0);
    cr_expect_eq(json_array_size(json_object_get(r, "columns")), 14);
    cr_expect_str_eq(str(r, "columns/13"), "n0_wz");
    cr_expect(json_is_true(json_object_get(r, "rotation")));
    json_decref(r);
}

/* ---- a trajectory against the run asked (trajectory_check.c) ----
 * The problems' initial states are set up by the registry; the rows are built here from
 * them and from closed forms (the settled sphere's overlap m g / kn), never from a scheme. */

typedef struct built {
    const mb_problem_type *pt;
    mb_options *params;
    mb_system *sys;
    mb_trajectory tr;
} built;

/* n_rows rows, each the initial state of problem (with sets), at t = k h. */
static void build(built *b, const char *problem, const char *const *sets, size_t n_rows,
                  double h, int rotation)
{
    mb_options *given = mb_options_new();
    for (size_t k = 0; sets && sets[k]; k++)
        cr_assert_eq(mb_options_set_pair(given, sets[k]), MB_SUCCESS);
    cr_assert_eq(mb_problem_prepare(problem, given, &b->pt, &b->params), MB_SUCCESS, "%s",
                 mb_last_error());
    mb_options_free(given);
    cr_assert_eq(b->pt->setup(b->params, &b->sys), MB_SUCCESS, "%s", mb_last_error());
    const mb_nodes *s = b->sys->nodes;
    size_t per = rotation ? 13 : 6;
    memset(&b->tr, 0, sizeof b->tr);
    b->tr.n_rows = n_rows;
    b->tr.n_nodes = s->n;
    b->tr.rotation = rotation;
    b->tr.stride = per * s->n;
    b->tr.t = calloc(n_rows, sizeof *b->tr.t);
    b->tr.values = calloc(n_rows * b->tr.stride, sizeof *b->tr.values);
    cr_assert(b->tr.t && b->tr.values);
    for (size_t k = 0; k < n_rows; k++) {
        b->tr.t[k] = (double)k * h;
        for (size_t i = 0; i < s->n; i++) {
            double *r = &b->tr.values[k * b->tr.stride + per * i];
            memcpy(r, &s->x[3 * i], 3 * sizeof *r);
            memcpy(r + 3, &s->v[3 * i], 3 * sizeof *r);
            if (rotation) {
                memcpy(r + 6, &s->q[4 * i], 4 * sizeof *r);
                memcpy(r + 10, &s->omega[3 * i], 3 * sizeof *r);
            }
        }
    }
}

static void unbuild(built *b)
{
    mb_trajectory_free(&b->tr);
    mb_system_free(b->sys);
    mb_options_free(b->params);
}

static int check(built *b, double h, char *why)
{
    why[0] = '\0';
    return mb_trajectory_check(&b->tr, b->pt, b->sys, h, why, 300);
}

/* Stale rows (every row the initial state) of systems that must move are refused, each
 * for the reason that applies: a velocity, an angular velocity, a net force, a net torque. */
Test(trajectory_check, stale_rows_refused_while_the_system_must_move)
{
    static const struct {
        const char *problem, *sets[4];
        int rotation;
        const char *why;
    } cases[] = {
        { "free-fall", { NULL }, 0, "line 3: repeats line 2 (every state value equal) while "
          "the system must move: node 0 moves (vx = 0.83)" },
        { "free-fall", { "vx0=0", "vz0=0", NULL }, 0, "line 3: repeats line 2 (every state "
          "value equal) while the system must move: node 0 is pushed (net force fz = -16.677)" },
        { "harmonic", { NULL }, 0, "line 3: repeats line 2 (every state value equal) while "
          "the system must move: node 0 is pushed (net force fx = -1)" },
        /* w0 T/|T| = 1.1 (0.03, -0.02, 0.07)/0.0787 */
        { "spin-up", { NULL }, 1, "line 3: repeats line 2 (every state value equal) while the "
          "system must move: node 0 turns (wx = 0.4191" },
        { "spin-up", { "omega0=0", NULL }, 1, "line 3: repeats line 2 (every state value "
          "equal) while the system must move: node 0 is twisted (net torque Tx = 0.03)" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        built b;
        char why[300];
        build(&b, cases[k].problem, cases[k].sets, 4, 0.01, cases[k].rotation);
        cr_expect_eq(check(&b, 0.01, why), MB_EINVAL, "case %zu accepted", k);
        cr_expect(strncmp(why, cases[k].why, strlen(cases[k].why)) == 0,
                  "case %zu: '%s', expected '%s...'", k, why, cases[k].why);
        unbuild(&b);
    }
}

/* Systems at rest repeat rows and are accepted: an oscillator at its equilibrium (no
 * force, no motion), a sphere settled on a plane (z = r - m g / kn, v = 0: the contact's
 * force balances the weight to rounding) and a box stopped by friction on a plane, held
 * there by the constrained scheme's contacts, which no force model holds (the force part
 * of the check reaches no conclusion for a constrained problem). */
Test(trajectory_check, rest_repeats_accepted)
{
    built b;
    char why[300];
    static const char *const still[] = { "x0=0", NULL };
    build(&b, "harmonic", still, 4, 0.1, 0);
    cr_expect_eq(check(&b, 0.1, why), MB_SUCCESS, "%s", why);
    unbuild(&b);

    static const char *const settle[] = { "kn=1e5", NULL };
    build(&b, "sphere-settle", settle, 4, 2e-6, 1);
    const mb_nodes *s = b.sys->nodes;
    double z_plane = s->x[2] - s->radius[0] - 1e-3;    /* the initial gap is 1e-3 */
    double rest = z_plane + s->radius[0] - s->mass[0] * 9.81 / 1e5;
    for (size_t k = 1; k < 4; k++) {
        b.tr.values[k * b.tr.stride + 2] = rest;
        b.tr.values[k * b.tr.stride + 5] = 0.0;
    }
    cr_expect_eq(check(&b, 2e-6, why), MB_SUCCESS, "%s", why);
    /* negative control: the same rows 1e-3 d* away from the rest overlap are pushed */
    for (size_t k = 1; k < 4; k++)
        b.tr.values[k * b.tr.stride + 2] = rest + 1e-3 * s->mass[0] * 9.81 / 1e5;
    cr_expect_eq(check(&b, 2e-6, why), MB_EINVAL);
    cr_expect(strstr(why, "line 4: repeats line 3") && strstr(why, "is pushed (net force fz"),
              "%s", why);
    unbuild(&b);

    build(&b, "box-on-plane", NULL, 4, 0.01, 1);
    for (size_t k = 1; k < 4; k++) {
        b.tr.values[k * b.tr.stride + 0] = 0.42;        /* stopped somewhere, at rest */
        b.tr.values[k * b.tr.stride + 3] = 0.0;
    }
    cr_expect_eq(check(&b, 0.01, why), MB_SUCCESS, "%s", why);
    unbuild(&b);
}

/* Row 0 is the initial state to 2^-49 of each quantity's scale (8 ulps of x0 = 1 here); a
 * quaternion may come back as -q. */
Test(trajectory_check, row0_is_the_initial_state)
{
    built b;
    char why[300];
    build(&b, "spin-up", NULL, 3, 0.01, 1);
    for (size_t k = 1; k < 3; k++)
        b.tr.values[k * b.tr.stride + 10] += 1e-3 * (double)k;     /* rows 1, 2 move */
    cr_expect_eq(check(&b, 0.01, why), MB_SUCCESS, "%s", why);
    for (int c = 6; c < 10; c++)
        b.tr.values[c] = -b.tr.values[c];
    cr_expect_eq(check(&b, 0.01, why), MB_SUCCESS, "-q: %s", why);
    double w = b.sys->nodes->omega[0], scale = fmax(fmax(fabs(w), fabs(b.sys->nodes->omega[1])),
                                                    fabs(b.sys->nodes->omega[2]));
    b.tr.values[10] = w + 0x1p-50 * scale;
    cr_expect_eq(check(&b, 0.01, why), MB_SUCCESS, "half the tolerance: %s", why);
    b.tr.values[10] = w + 0x1p-48 * scale;
    cr_expect_eq(check(&b, 0.01, why), MB_EINVAL);
    cr_expect(strncmp(why, "line 2: row 0 is not the initial state: node 0: wx = ", 53) == 0,
              "%s", why);
    unbuild(&b);
}

/* Mid-step velocities of a trajectory are synchronized by the leap-frog's own on-step
 * estimate (one home: mb_leapfrog_synchronize_nodes): after three leap-frog steps, the
 * scheme's on-step state and the trajectory synchronization of the same mid-step store
 * agree bit for bit in v and, for spherical nodes, in w and L (an aspherical node's
 * L(t - h/2) is not in a trajectory, which estimates it with q(t)). */
static void sync_matches_leapfrog(const char *problem)
{
    const mb_problem_type *pt;
    mb_options *params;
    cr_assert_eq(mb_problem_prepare(problem, NULL, &pt, &params), MB_SUCCESS, "%s", mb_last_error());
    mb_system *sys;
    cr_assert_eq(pt->setup(params, &sys), MB_SUCCESS, "%s", mb_last_error());
    mb_stepper *st = mb_stepper_alloc("leapfrog", sys);
    cr_assert_not_null(st, "%s", mb_last_error());
    const double h = 0.01;
    for (int k = 0; k < 3; k++)
        cr_assert_eq(mb_stepper_step(st, sys, h), MB_SUCCESS, "%s", mb_last_error());
    size_t n = sys->nodes->n;
    mb_nodes *scheme = mb_nodes_alloc(n, 53), *traj = mb_nodes_alloc(n, 53);
    mb_nodes_copy(scheme, sys->nodes);
    mb_nodes_copy(traj, sys->nodes);
    cr_assert_eq(mb_stepper_on_step(st, sys, scheme), MB_SUCCESS, "%s", mb_last_error());
    for (size_t i = 0; i < n; i++)          /* a trajectory's rows carry no such flag */
        traj->vel_mid[i] = 0;
    cr_assert_eq(mb_trajectory_synchronize(sys->forces, traj, sys->t, h, 1), MB_SUCCESS);
    size_t differ = 0;
    for (size_t i = 0; i < n; i++) {
        differ += memcmp(&scheme->v[3 * i], &traj->v[3 * i], 3 * sizeof(double)) != 0;
        if (!sys->nodes->aspherical[i])
            differ += memcmp(&scheme->omega[3 * i], &traj->omega[3 * i], 3 * sizeof(double)) != 0
                      || memcmp(&scheme->angmom[3 * i], &traj->angmom[3 * i],
                                3 * sizeof(double)) != 0;
        cr_expect(!traj->vel_mid[i], "%s node %zu still mid-step", problem, i);
    }
    cr_expect_eq(differ, 0, "%s: %zu nodes synchronized differently from the leap-frog",
                 problem, differ);
    mb_nodes_free(scheme);
    mb_nodes_free(traj);
    mb_stepper_free(st);
    mb_system_free(sys);
    mb_options_free(params);
}

Test(trajectory_sync, is_the_leapfrog_on_step_estimate)
{
    sync_matches_leapfrog("harmonic");
    sync_matches_leapfrog("damped");
    sync_matches_leapfrog("spin-up");
    sync_matches_leapfrog("kepler");
}
