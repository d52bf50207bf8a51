#!/usr/bin/python3
"""motionbench adapter for Siconos (Debian python3-siconos): runs motionbench's runs with
Siconos's Moreau-Jean time stepping (MoreauJeanOSI, a theta-method with impacts resolved at
the velocity level by a linear complementarity problem, LCP).

Usage: siconos_adapter.py run.json trajectory.csv (protocol 1), or runs.json trajectories
(protocol 2: every run in this one interpreter); doc/external.md.
Option theta = THETA (MoreauJeanOSI's theta, default 0.5; 1 is implicit Euler).

Translation (doc/peers.md):
- all nodes are one siconos.kernel.LagrangianLinearTIDS, M q'' + C q' + K q = F_ext + p, with
  q the 3 n positions, M = diag(m_i), and K, C, F_ext assembled from the force models that
  are linear in q and v: gravity (F_ext = m g), drag (C = D), springs of rest length 0 between two nodes or
  to an anchor (f_i = k (x_j - x_i) + c (v_j - v_i): K and C blocks; an anchor's k a goes to
  F_ext);
- central forces and springs of non-zero rest length (with their dashpots along the spring)
  are not linear in q: a run holding one gets a siconos.kernel.LagrangianDS subclassed in
  Python (NonlinearForces: Siconos's SWIG directors call the Python methods from C++) whose
  computeFInt returns F_int(q, v) = K q + C v - F_ext + the nonlinear forces' negatives, and
  computeJacobianFIntq / computeJacobianFIntqDot their exact Jacobians, which Moreau-Jean's
  Newton loop uses (W = M + h theta C_v + h^2 theta^2 K_q); the Newton tolerance is set to
  1e-13 and a step whose loop did not converge fails the run; every other model is declined;
- unilateral contacts (run.json's `unilateral` model: bouncing-sphere and scenes of the
  solfec scheme): each sphere against each plane (point p, normal n) becomes a
  LagrangianLinearTIR y = n.x - n.p - r with a NewtonImpactNSL(e), e the pair's restitution
  (an LCP per step); friction (mu > 0), boxes and sphere-sphere contacts are declined;
- rotation without contacts: every node a siconos.kernel.NewtonEulerDS (position and unit
  quaternion, twist = velocity and BODY-frame angular velocity, mass, principal inertia) under
  gravity (fExt = m g) and constant torques (mExt: a global-frame torque with
  setIsMextExpressedInInertialFrame, a body-frame one as it is); the angular velocity written
  is R(q) times the body twist;
- rotation with unilateral contacts: the linear Lagrangian system has no orientation.  A
  problem that rotates only nominally (every node without initial spin and without torque:
  the frictionless sphere of bouncing-sphere) gets its orientation and zero angular velocity
  written as they stay; a spinning or torqued node is declined;
- rows: the state after each step (Moreau-Jean's q and v are both at the step).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mbadapter as mb  # noqa: E402

try:
    import numpy as np
    import siconos.kernel as sk
    MISSING = None
except ImportError as e:      # the run is declined (status skipped), not failed
    MISSING = "Siconos is not importable by %s: %s (Debian package python3-siconos)" % (
        sys.executable, e)

SUPPORTED = ("gravity", "springs", "drag", "unilateral", "torque", "central")
NEWTON_TOLERANCE = 1e-13        # Siconos's default, 1e-6, would leave its error in the orbit
NEWTON_ITERATIONS = 50
RIGID_SUPPORTED = ("gravity", "torque")


def rigid(run):
    """Whether the run is one of free rigid bodies (NewtonEulerDS): it rotates, no contacts."""
    return bool(run.get("rotation")) and not any(f["model"] == "unilateral"
                                                 for f in run.get("forces", []))


def check(run):
    """Decline what a linear Lagrangian system with plane impacts cannot express."""
    if MISSING:
        mb.decline(MISSING)
    mb.refuse_models(run, SUPPORTED, "Siconos adapter")
    if rigid(run):
        mb.refuse_models(run, RIGID_SUPPORTED, "Siconos adapter (rigid bodies)")
    for f in run.get("forces", []):
        if f["model"] == "unilateral":
            sphere_plane_impacts(run, f)          # declines what it cannot express
    for i, n in enumerate(run["nodes"]):
        if n["mass"] is None or n.get("blocked"):
            mb.decline("Siconos adapter: node %d is fixed or blocked, not expressed" % i)
        if not rigid(run) and run.get("rotation") and any(float(w) != 0
                                                          for w in n["angular_velocity"]):
            mb.decline("Siconos adapter: node %d spins; a LagrangianLinearTIDS has no "
                       "orientation" % i)
    theta = float(run.get("options", {}).get("theta", 0.5))
    if not 0.0 <= theta <= 1.0:
        raise ValueError("option theta=%g is outside [0, 1]" % theta)
    return theta


def linear_system(run):
    """(M, C, K, F_ext) of the 3n positions from gravity, drag and rest-0 springs."""
    nodes = run["nodes"]
    n = 3 * len(nodes)
    M, C, K, F = np.zeros((n, n)), np.zeros((n, n)), np.zeros((n, n)), np.zeros(n)
    for i, node in enumerate(nodes):
        M[3 * i:3 * i + 3, 3 * i:3 * i + 3] = float(node["mass"]) * np.eye(3)
    for f in run.get("forces", []):
        if f["model"] == "gravity":
            for i, node in enumerate(nodes):
                F[3 * i:3 * i + 3] += float(node["mass"]) * np.array(f["g"], dtype=float)
        elif f["model"] == "drag":                # f_i = -D v_i
            C += float(f["D"]) * np.eye(n)
        elif f["model"] == "springs":
            for s in f["springs"]:
                if float(s["rest"]) != 0:         # not linear: NonlinearForces
                    continue
                i, k, c = int(s["i"]), float(s["k"]), float(s.get("c", 0))
                a = slice(3 * i, 3 * i + 3)
                K[a, a] += k * np.eye(3)          # f_i = -k x_i + ...
                C[a, a] += c * np.eye(3)
                if "anchor" in s:
                    F[a] += k * np.array(s["anchor"], dtype=float)
                else:
                    j = int(s["j"])
                    b = slice(3 * j, 3 * j + 3)
                    K[b, b] += k * np.eye(3)
                    K[a, b] -= k * np.eye(3)
                    K[b, a] -= k * np.eye(3)
                    C[b, b] += c * np.eye(3)
                    C[a, b] -= c * np.eye(3)
                    C[b, a] -= c * np.eye(3)
    return M, C, K, F


def nonlinear(run):
    """Whether the run holds a force that is not linear in q and v."""
    return any(f["model"] == "central" or (f["model"] == "springs" and
                                           any(float(s["rest"]) != 0 for s in f["springs"]))
               for f in run.get("forces", []))


def add_central(model, masses, q, F, Jq):
    """F_int_i = mu m_i d/r^3 (d = x_i - c, the negative of the force), and its Jacobian
    mu m_i (I/r^3 - 3 d d^T/r^5)."""
    c, mu = np.array(model["centre"], dtype=float), float(model["mu"])
    for i, m in enumerate(masses):
        a = slice(3 * i, 3 * i + 3)
        d = q[a] - c
        r = np.linalg.norm(d)
        F[a] += mu * m * d / r ** 3
        Jq[a, a] += mu * m * (np.eye(3) / r ** 3 - 3 * np.outer(d, d) / r ** 5)


def add_spring(s, q, v, F, Jq, Jv):
    """A spring of rest length L0 > 0 from node i to node j (or an anchor): with d = x_j - x_i,
    l = |d|, n = d/l, u = v_j - v_i, the force on i is f = [k (l - L0) + c u.n] n, so
    df/dd = k [(1 - L0/l) I + L0 d d^T/l^3] + c [(d u^T + (u.d) I)/l^2 - 2 (u.d) d d^T/l^4]
    and df/du = c n n^T; F_int_i = -f, F_int_j = +f."""
    i, k, rest, c = int(s["i"]), float(s["k"]), float(s["rest"]), float(s.get("c", 0))
    a = slice(3 * i, 3 * i + 3)
    anchored = "anchor" in s
    b = None if anchored else slice(3 * int(s["j"]), 3 * int(s["j"]) + 3)
    d = (np.array(s["anchor"], dtype=float) if anchored else q[b]) - q[a]
    u = -v[a] if anchored else v[b] - v[a]
    l = np.linalg.norm(d)
    n, ud = d / l, float(np.dot(u, d))
    f = (k * (l - rest) + c * ud / l) * n
    A = (k * ((1 - rest / l) * np.eye(3) + rest * np.outer(d, d) / l ** 3)
         + c * ((np.outer(d, u) + ud * np.eye(3)) / l ** 2 - 2 * ud * np.outer(d, d) / l ** 4))
    B = c * np.outer(n, n)
    F[a] -= f                           # d depends on x_i as -1: dF_int_i/dx_i = +A
    Jq[a, a] += A
    Jv[a, a] += B
    if not anchored:
        F[b] += f
        Jq[a, b] -= A
        Jq[b, a] -= A
        Jq[b, b] += A
        Jv[a, b] -= B
        Jv[b, a] -= B
        Jv[b, b] += B


if MISSING is None:
    class NonlinearForces(sk.LagrangianDS):
        """M q'' + F_int(q, v) = p: every force of the run in F_int (linear ones as K q + C v -
        F_ext), with its exact Jacobians; Siconos calls these methods through its directors."""

        def __init__(self, run, q0, v0):
            M, self.C, self.K, self.F = linear_system(run)
            sk.LagrangianDS.__init__(self, q0, v0, M)
            self.run = run
            self.masses = [float(n["mass"]) for n in run["nodes"]]
            self.allocateFInt()
            self.allocateJacobianFIntq()
            self.allocateJacobianFIntqDot()
            self.last = None

        def internal(self, q, v):
            """(F_int, dF_int/dq, dF_int/dv) at (q, v), kept for the three calls of one
            Newton iteration (same q and v: the same values, computed once)."""
            q, v = np.asarray(q, dtype=float), np.asarray(v, dtype=float)
            key = (q.tobytes(), v.tobytes())
            if self.last is None or self.last[0] != key:
                self.last = (key, self.evaluate(q, v))
            return self.last[1]

        def evaluate(self, q, v):
            F = self.K @ q + self.C @ v - self.F
            Jq, Jv = self.K.copy(), self.C.copy()
            for f in self.run.get("forces", []):
                if f["model"] == "central":
                    add_central(f, self.masses, q, F, Jq)
                elif f["model"] == "springs":
                    for s in f["springs"]:
                        if float(s["rest"]) != 0:
                            add_spring(s, q, v, F, Jq, Jv)
            return F, Jq, Jv

        def computeFInt(self, time, q, v):
            self.fInt()[:] = self.internal(q, v)[0]

        def computeJacobianFIntq(self, time, q, v):
            self.jacobianFIntq()[:, :] = self.internal(q, v)[1]

        def computeJacobianFIntqDot(self, time, q, v):
            self.jacobianFIntqDot()[:, :] = self.internal(q, v)[2]


def sphere_plane_impacts(run, model):
    """[(node, radius, point, normal, e)] of a `unilateral` model (doc/external.md, section 3):
    every sphere against every plane, frictionless; declines boxes, several spheres (their
    contacts with each other) and friction."""
    shapes = model.get("shapes", [])
    if any(sh["shape"] != "sphere" for sh in shapes):
        mb.decline("Siconos adapter: only spheres are translated among unilateral shapes")
    if len(shapes) > 1:
        mb.decline("Siconos adapter: contacts between spheres are not translated")
    laws = {tuple(l["materials"]): (float(l["mu"]), float(l["restitution"]))
            for l in model.get("pair_laws", [])}
    impacts = []
    for sh in shapes:
        for pl in model.get("planes", []):
            key = tuple(sorted((int(sh["material"]), int(pl["material"]))))
            mu, e = laws.get(key, (float(model.get("mu", 0)), float(model.get("restitution", 0))))
            if mu != 0:
                mb.decline("Siconos adapter: Coulomb friction (mu = %g) is not translated" % mu)
            impacts.append((int(sh["node"]), float(sh["radius"]), pl["point"], pl["normal"], e))
    return impacts


def torqued(run):
    return any(f["model"] == "torque" for f in run.get("forces", []))


def rigid_bodies(run, nsds):
    """One NewtonEulerDS per node with its gravity and constant torques."""
    bodies = []
    for i, n in enumerate(run["nodes"]):
        q = np.array(list(n["position"]) + list(n["orientation"]), dtype=float)
        w_body = mb.qrotate(mb.qconj(n["orientation"]), n["angular_velocity"])
        twist = np.array(list(n["velocity"]) + list(w_body), dtype=float)
        ds = sk.NewtonEulerDS(q, twist, float(n["mass"]), np.diag([float(c) for c in n["inertia"]]))
        force, torque, frame = np.zeros(3), np.zeros(3), None
        for f in run.get("forces", []):
            if f["model"] == "gravity":
                force += float(n["mass"]) * np.array(f["g"], dtype=float)
            elif f["model"] == "torque" and i in mb.torque_nodes(f, len(run["nodes"])):
                this = f.get("frame", "global")
                if frame not in (None, this):
                    mb.decline("Siconos adapter: global and body-frame torques on one body")
                frame = this
                torque += np.array(f["torque"], dtype=float)
        ds.setFExtPtr(force)
        if frame is not None:
            ds.setMExtPtr(torque)
            ds.setIsMextExpressedInInertialFrame(frame == "global")
        nsds.insertDynamicalSystem(ds)
        bodies.append(ds)
    return bodies


def rigid_row(t, bodies):
    """The state of the NewtonEulerDS bodies: q = (x, quaternion), twist = (v, body w)."""
    states = []
    for ds in bodies:
        q, twist = ds.q(), ds.twist()
        quat = mb.qnormalize(tuple(float(c) for c in q[3:7]))
        states.append({"position": q[0:3], "velocity": twist[0:3], "orientation": quat,
                       "angular_velocity": mb.qrotate(quat, tuple(float(c) for c in twist[3:6]))})
    return mb.state_row(t, states)


def run_rigid(run, theta, out):
    """Rigid bodies: NewtonEulerDS under MoreauJeanOSI(theta)."""
    nsds = sk.NonSmoothDynamicalSystem(0.0, float(run["time"]["t_end"]))
    bodies = rigid_bodies(run, nsds)
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, float(run["time"]["dt"])),
                          sk.MoreauJeanOSI(theta), sk.LCP())
    samples = mb.sample_steps(run["time"])
    wanted = dict(samples[1:])
    rows = [mb.state_row(0.0, [{k: n[k] for k in mb.STATE_KEYS} for n in run["nodes"]])]
    for step in range(1, samples[-1][0] + 1):
        sim.computeOneStep()
        if step in wanted:
            rows.append(rigid_row(wanted[step], bodies))
        sim.nextStep()
    mb.write_trajectory(out, run, rows)


def run_one(run, out):
    """Integrate one run with MoreauJeanOSI(theta) and write its trajectory to out."""
    theta = check(run)
    if rigid(run):
        return run_rigid(run, theta, out)
    if run.get("rotation") and torqued(run):
        mb.decline("Siconos adapter: a torque acts; a LagrangianLinearTIDS has no orientation")
    nodes = run["nodes"]
    q0 = np.array([c for n in nodes for c in n["position"]], dtype=float)
    v0 = np.array([c for n in nodes for c in n["velocity"]], dtype=float)
    if nonlinear(run):
        ds = NonlinearForces(run, q0, v0)
    else:
        M, C, K, F = linear_system(run)
        ds = sk.LagrangianLinearTIDS(q0, v0, M, K, C)
        ds.setFExtPtr(F)
    t_end = float(run["time"]["t_end"])
    nsds = sk.NonSmoothDynamicalSystem(0.0, t_end)
    nsds.insertDynamicalSystem(ds)
    for f in run.get("forces", []):
        if f["model"] != "unilateral":
            continue
        for node, radius, point, normal, e in sphere_plane_impacts(run, f):
            # gap of the sphere's lowest point above the plane: y = n.x - n.p - r
            row = np.zeros((1, 3 * len(nodes)))
            row[0, 3 * node:3 * node + 3] = normal
            offset = -float(np.dot(normal, point)) - radius
            relation = sk.LagrangianLinearTIR(row, np.array([offset]))
            nsds.link(sk.Interaction(sk.NewtonImpactNSL(e), relation), ds)
    dt = float(run["time"]["dt"])
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, dt), sk.MoreauJeanOSI(theta),
                          sk.LCP())
    newton = nonlinear(run)            # a linear system's step is one linear solve
    if newton:
        sim.setNewtonTolerance(NEWTON_TOLERANCE)
        sim.setNewtonMaxIteration(NEWTON_ITERATIONS)

    def row(t, q, v):
        states = []
        for i, n in enumerate(nodes):
            s = {"position": q[3 * i:3 * i + 3], "velocity": v[3 * i:3 * i + 3]}
            if run.get("rotation"):
                s["orientation"], s["angular_velocity"] = n["orientation"], (0.0, 0.0, 0.0)
            states.append(s)
        return mb.state_row(t, states)

    samples = mb.sample_steps(run["time"])
    wanted = dict(samples[1:])
    rows = [row(0.0, q0, v0)]
    for step in range(1, samples[-1][0] + 1):
        sim.computeOneStep()
        if newton and not sim.isNewtonConverge():
            raise RuntimeError("Siconos's Newton loop did not reach %g in %d iterations at step "
                               "%d" % (NEWTON_TOLERANCE, NEWTON_ITERATIONS, step))
        if step in wanted:
            rows.append(row(wanted[step], ds.q(), ds.velocity()))
        sim.nextStep()
    mb.write_trajectory(out, run, rows)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: siconos_adapter.py run.json trajectory.csv | runs.json trajectories",
              file=sys.stderr)
        sys.exit(2)
    sys.exit(mb.serve(sys.argv, run_one))
