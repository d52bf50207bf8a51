#!/usr/bin/python3
"""The Siconos adapter's nonlinear forces (adapters/siconos_adapter.py: add_central,
add_spring), which Moreau-Jean's Newton loop is given as F_int(q, v) and its Jacobians, without
Siconos itself.

Expected values: the forces from their closed forms at chosen points (a 3-4-5 triangle, so
every value is a short rational); the Jacobians against central differences of F_int with a
step e = 1e-6: truncation e^2 |F'''| / 6 and round-off u |F| / e are both below 1e-9 for these
O(1) to O(100) values, hence a tolerance of 1e-7 times the largest entry.
Run by the interpreter the adapter names (/usr/bin/python3: Debian's numpy and siconos live
there); skipped (77) when it cannot import numpy.
"""

import os
import sys
import unittest

sys.dont_write_bytecode = True        # no __pycache__ in the source tree
try:
    import numpy as np
except ImportError:
    print("SKIP: %s cannot import numpy" % sys.executable)
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "adapters"))
import siconos_adapter as sa  # noqa: E402

STEP = 1e-6
TOL = 1e-7

CENTRAL = {"model": "central", "mu": 2.385, "centre": [0.5, -0.25, 0.0]}
SPRING = {"i": 0, "j": 1, "k": 43.1, "rest": 0.385, "c": 0.013}
ANCHORED = {"i": 1, "anchor": [0.2, 0.1, -0.3], "k": 7.7, "rest": 0.5, "c": 0.21}
MASSES = [1.3, 0.77]


def internal(q, v):
    """F_int, dF_int/dq, dF_int/dv of the three models on two nodes."""
    n = len(q)
    F, Jq, Jv = np.zeros(n), np.zeros((n, n)), np.zeros((n, n))
    sa.add_central(CENTRAL, MASSES, q, F, Jq)
    sa.add_spring(SPRING, q, v, F, Jq, Jv)
    sa.add_spring(ANCHORED, q, v, F, Jq, Jv)
    return F, Jq, Jv


def differences(q, v, of_v):
    """Central differences of F_int in q (or in v)."""
    J = np.zeros((len(q), len(q)))
    for k in range(len(q)):
        e = np.zeros(len(q))
        e[k] = STEP
        if of_v:
            J[:, k] = (internal(q, v + e)[0] - internal(q, v - e)[0]) / (2 * STEP)
        else:
            J[:, k] = (internal(q + e, v)[0] - internal(q - e, v)[0]) / (2 * STEP)
    return J


class Forces(unittest.TestCase):
    def test_central_closed_form(self):
        # d = x - c = (3, 4, 0)/10 -> r = 1/2: F_int = mu m d / r^3 = 8 mu m d
        q = np.array([0.8, 0.15, 0.0])
        F, Jq = np.zeros(3), np.zeros((3, 3))
        sa.add_central(CENTRAL, [1.3], q, F, Jq)
        want = 8 * 2.385 * 1.3 * np.array([0.3, 0.4, 0.0])
        self.assertLess(np.max(np.abs(F - want)), 1e-14 * np.max(np.abs(want)))

    def test_spring_closed_form(self):
        # d = x1 - x0 = (0.6, 0.8, 0), l = 1, n = d; u = v1 - v0 = (1, 0, 0), u.n = 0.6:
        # f on node 0 = [k (1 - L0) + c 0.6] n, F_int_0 = -f, F_int_1 = +f
        q = np.array([0.0, 0.0, 0.0, 0.6, 0.8, 0.0])
        v = np.array([0.0, 0.0, 0.0, 1.0, 0.0, 0.0])
        F, Jq, Jv = np.zeros(6), np.zeros((6, 6)), np.zeros((6, 6))
        sa.add_spring(SPRING, q, v, F, Jq, Jv)
        f = (43.1 * (1 - 0.385) + 0.013 * 0.6) * np.array([0.6, 0.8, 0.0])
        self.assertLess(np.max(np.abs(F - np.concatenate((-f, f)))), 1e-13)

    def test_jacobians(self):
        rng = np.random.default_rng(2385)
        for _ in range(5):
            q = np.array([0.9, 0.3, 0.1, 1.4, -0.6, 0.35]) + rng.uniform(-0.2, 0.2, 6)
            v = rng.uniform(-1, 1, 6)
            F, Jq, Jv = internal(q, v)
            for name, J, of_v in (("dF/dq", Jq, False), ("dF/dv", Jv, True)):
                fd = differences(q, v, of_v)
                scale = np.max(np.abs(fd))
                self.assertLess(np.max(np.abs(J - fd)), TOL * scale,
                                "%s differs from its central differences" % name)


if __name__ == "__main__":
    unittest.main()
