#!/usr/bin/env python3
"""Unit tests of the adapters' translation code that needs neither LAMMPS nor Yade.

Expected values come from closed forms: a quaternion and its rotation matrix (Shepperd's
inverse must return the same unit quaternion up to sign), the uniform ellipsoid's moments
I1 = m (b^2 + c^2)/5 (and cyclic), w = R I^-1 R^T L, the protocol's sample times.
Tolerances: round-off of a few operations on O(1) values, 1e-14.
"""

import math
import os
import sys
import unittest

sys.dont_write_bytecode = True        # no __pycache__ in the source tree

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "adapters"))
import mbadapter as mb  # noqa: E402
import lammps_adapter as la  # noqa: E402
import gromacs_adapter as ga  # noqa: E402

TOL = 1e-14


def axis_angle(axis, angle):
    n = math.sqrt(sum(a * a for a in axis))
    s = math.sin(angle / 2) / n
    return (math.cos(angle / 2), axis[0] * s, axis[1] * s, axis[2] * s)


class ContactPairs(unittest.TestCase):
    def test_split_and_box_declined(self):
        model = {"pairs": [{"i": 0, "j": 1, "k": 1, "c": 0},
                           {"i": 0, "plane": {"point": [0, 0, 0], "normal": [0, 0, 1]}}]}
        spheres, planes = mb.contact_pairs(model)
        self.assertEqual((len(spheres), len(planes)), (1, 1))
        model["pairs"].append({"i": 0, "box": {"center": [0, 0, 0], "rotation": [1, 0, 0, 0, 1, 0, 0, 0, 1],
                                               "half_extents": [1, 1, 1]}})
        with self.assertRaises(mb.Declined):
            mb.contact_pairs(model)


class Quaternions(unittest.TestCase):
    def test_matrix_round_trip(self):
        # rotations of every branch of Shepperd's method (trace > 0 and each diagonal largest)
        for q in (axis_angle((0.3, -0.5, 0.81), 0.7), axis_angle((1, 0.1, 0), 3.0),
                  axis_angle((0.1, 1, 0.2), 3.1), axis_angle((0, 0.2, 1), 2.9)):
            back = mb.same_hemisphere(mb.quat_from_columns(*mb.rmatrix_columns(q)), q)
            for a, b in zip(q, back):
                self.assertAlmostEqual(a, b, delta=TOL)

    def test_rotate_quarter_turn(self):
        # a quarter turn about z takes e1 to e2
        v = mb.qrotate(axis_angle((0, 0, 1), math.pi / 2), (1, 0, 0))
        for a, b in zip(v, (0, 1, 0)):
            self.assertAlmostEqual(a, b, delta=TOL)

    def test_omega_from_angmom(self):
        # body frame = global frame: w_k = L_k / I_k
        w = mb.omega_from_angmom((1, 0, 0, 0), (1.3, 2.0, 4.0), (1.3, -1.0, 2.0))
        for a, b in zip(w, (1.0, -0.5, 0.5)):
            self.assertAlmostEqual(a, b, delta=TOL)

    def test_solve3(self):
        x = mb.solve3([[2, -1, 0], [-1, 2, 0], [0, 0, 4]], (1, 1, 8))
        for a, b in zip(x, (1, 1, 2)):
            self.assertAlmostEqual(a, b, delta=TOL)


class LiveView(list):
    """A package's live view of its state: one buffer the package overwrites each step."""


class Rows(unittest.TestCase):
    def test_rows_do_not_alias_a_live_view(self):
        # the package moves one buffer in place; every row must keep the values of its step
        position = LiveView([0.0, 0.0, 0.0])
        rows = []
        for step in range(3):
            position[0] = float(step)           # the package's step, in place
            rows.append(mb.state_row(0.1 * step, [{"position": position,
                                                    "velocity": position}]))
        self.assertEqual([r[1][0]["position"][0] for r in rows], [0.0, 1.0, 2.0])
        self.assertEqual([r[1][0]["velocity"][0] for r in rows], [0.0, 1.0, 2.0])
        self.assertIs(type(rows[1][1][0]["position"][0]), float)
        self.assertIs(type(rows[1][0]), float)

    def test_rows_written_as_collected(self):
        import tempfile
        position = LiveView([1.5, 0.0, 0.0])
        rows = []
        for step in range(2):
            position[0] += 1.0
            rows.append(mb.state_row(step, [{"position": position, "velocity": (0, 0, 0)}]))
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "trajectory.csv")
            mb.write_trajectory(path, {"nodes": [{}], "columns": ["t", "n0_x", "n0_vx"]}, rows)
            with open(path) as f:
                self.assertEqual(f.read(), "t,n0_x,n0_vx\n0.0,2.5,0.0\n1.0,3.5,0.0\n")


class Samples(unittest.TestCase):
    def test_every_and_last(self):
        rows = mb.sample_steps({"t0": 0.0, "dt": 0.1, "steps": 7, "t_end": 0.7, "sample_every": 3})
        self.assertEqual([s for s, _ in rows], [0, 3, 6, 7])
        self.assertEqual(rows[-1][1], 0.7)

    def test_last_on_grid(self):
        rows = mb.sample_steps({"t0": 0.0, "dt": 0.25, "steps": 4, "t_end": 1.0, "sample_every": 2})
        self.assertEqual(rows, [(0, 0.0), (2, 0.5), (4, 1.0)])


class Ellipsoid(unittest.TestCase):
    def test_moments_recovered(self):
        node = {"mass": 1.7, "inertia": [1.3, 2.385, 3.1]}
        a, b, c = la.ellipsoid_axes(node)
        m = node["mass"]
        for got, want in zip((m * (b * b + c * c) / 5, m * (a * a + c * c) / 5, m * (a * a + b * b) / 5),
                             node["inertia"]):
            self.assertAlmostEqual(got, want, delta=TOL * 10)

    def test_no_ellipsoid(self):
        # I3 > I1 + I2: no rigid body has these moments
        self.assertIsNone(la.ellipsoid_axes({"mass": 1.0, "inertia": [1.3, 2.385, 3.7]}))


class RigidBody(unittest.TestCase):
    def test_arms(self):
        # the three atoms have their centre at the node and span the body axes e1, e2
        q = axis_angle((0.3, -0.5, 0.81), 0.7)
        r = la.body_arms(q)
        for k in range(3):
            self.assertAlmostEqual(r[0][k] + r[1][k] + r[2][k], 0.0, delta=TOL)
        cols = mb.rmatrix_columns(q)
        for k in range(3):
            self.assertAlmostEqual(r[0][k], la.ARM * cols[0][k], delta=TOL)
            self.assertAlmostEqual(r[1][k], la.ARM * cols[1][k], delta=TOL)

    def test_global_inertia(self):
        # R diag(I) R^T has the trace of diag(I) and R e1 as an eigenvector of eigenvalue I1
        q = axis_angle((0.3, -0.5, 0.81), 0.7)
        ixx, iyy, izz, ixy, ixz, iyz = la.global_inertia(q, (1.3, 2.385, 3.1))
        self.assertAlmostEqual(ixx + iyy + izz, 1.3 + 2.385 + 3.1, delta=TOL * 10)
        e1 = mb.rmatrix_columns(q)[0]
        t = [[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]]
        for k in range(3):
            self.assertAlmostEqual(sum(t[k][j] * e1[j] for j in range(3)), 1.3 * e1[k], delta=TOL * 10)


class Serve(unittest.TestCase):
    """mbadapter.serve answers a batch (protocol 2) run by run: a trajectory, a decline
    (K.declined with the reason) or a failure (K.failed with the exception), the batch going
    on after either; a single run (protocol 1) goes to run_one unchanged."""

    def run_batch(self, run_one, n=3):
        import json
        import tempfile
        d = tempfile.mkdtemp()
        os.mkdir(os.path.join(d, "trajectories"))
        runs = [{"protocol": "motionbench-run/2", "id": k,
                 "trajectory": os.path.join(d, "trajectories", "%d.csv" % k)} for k in range(n)]
        with open(os.path.join(d, "runs.json"), "w") as f:
            json.dump({"protocol": "motionbench-batch/2", "runs": runs}, f)
        status = mb.serve(["x", os.path.join(d, "runs.json"), os.path.join(d, "trajectories")],
                          run_one)
        names = sorted(os.listdir(os.path.join(d, "trajectories")))
        texts = {nm: open(os.path.join(d, "trajectories", nm)).read() for nm in names}
        return status, texts

    def test_each_run_answered(self):
        def run_one(run, out):
            if run["id"] == 1:
                mb.decline("cannot express run 1")
            if run["id"] == 2:
                raise RuntimeError("the package crashed")
            with open(out, "w") as f:
                f.write("t\n0.0\n")
        status, texts = self.run_batch(run_one)
        self.assertEqual(status, 0)
        self.assertEqual(sorted(texts), ["0.csv", "1.declined", "2.failed"])
        self.assertEqual(texts["1.declined"], "cannot express run 1\n")
        self.assertEqual(texts["2.failed"], "RuntimeError: the package crashed\n")

    def test_empty_message_named(self):
        def run_one(run, out):
            raise KeyError()
        status, texts = self.run_batch(run_one, 1)
        # the bare type name says little: where it was raised, and that it has no message
        self.assertRegex(texts["0.failed"], r"^KeyError raised at test_peers_adapters\.py:\d+ "
                         r"in run_one \(the exception has no message\)\n$")

    def test_single_run_declines_with_77(self):
        import json
        import tempfile
        d = tempfile.mkdtemp()
        with open(os.path.join(d, "run.json"), "w") as f:
            json.dump({"protocol": "motionbench-run/1"}, f)

        def run_one(run, out):
            mb.decline("no")
        with self.assertRaises(SystemExit) as e:
            mb.serve(["x", os.path.join(d, "run.json"), os.path.join(d, "t.csv")], run_one)
        self.assertEqual(e.exception.code, 77)


class RunPlanned(unittest.TestCase):
    """mbadapter.run_planned: the runs of a batch in one process of a LAMMPS-like program;
    the run whose input stops the process fails alone, the runs after it go on in a fresh
    process (a fake program here: it writes each run's dump up to the run's last step, and
    stops at an input line 'error')."""

    def test_error_fails_its_run_alone(self):
        import tempfile
        d = tempfile.mkdtemp()
        runs = [{"id": k, "time": {"steps": 3}} for k in range(4)]
        planned = [(r, os.path.join(d, "traj-%d.dump" % r["id"]),
                    ["error"] if r["id"] == 1 else ["run %d" % r["id"]]) for r in runs]
        processes = []

        def execute(lines):
            processes.append(list(lines))
            for line in lines:
                if line == "error":
                    return 1
                k = int(line.split()[1])
                with open(os.path.join(d, "traj-%d.dump" % k), "w") as f:
                    for step in range(4):
                        f.write("ITEM: TIMESTEP\n%d\n" % step)
            return 0
        failed = mb.run_planned(planned, execute, lambda: "ERROR: the tail")
        self.assertEqual(failed, {1: "stopped in this run (status 1): ERROR: the tail"})
        self.assertEqual(processes, [["run 0", "error", "run 2", "run 3"], ["run 2", "run 3"]])

    def test_incomplete_dump(self):
        import tempfile
        d = tempfile.mkdtemp()
        path = os.path.join(d, "t.dump")
        with open(path, "w") as f:
            f.write("ITEM: TIMESTEP\n0\nITEM: TIMESTEP\n1\n")
        self.assertTrue(mb.dump_complete(path, 1))
        self.assertFalse(mb.dump_complete(path, 2))
        self.assertFalse(mb.dump_complete(os.path.join(d, "none"), 0))


class GromosFields(unittest.TestCase):
    """GROMACS reads a GROMOS-96 number from a field of 15 characters (a wider one runs into
    the next: 0.012345678901234501 0 was read as 0.0123456789012 and 34501): every number must
    fit and read back to the digits that fit."""

    def test_fit_and_precision(self):
        for x in (0.0123456789012345, 6.718384765530028, -1.0949570401821433, 0.0,
                  -3.3e-17, 1234.5678901234567, -98765.432109876543, 2.385e-300):
            text = ga.field(x)
            self.assertLessEqual(len(text), 15, text)
            # at least 13 significant digits from 0.1 up (fewer digits before the point
            # above 10, but as many after), at most 5e-14 absolute below 0.1
            self.assertLessEqual(abs(float(text) - x), 5e-13 * max(abs(x), 0.1), text)


if __name__ == "__main__":
    unittest.main()
