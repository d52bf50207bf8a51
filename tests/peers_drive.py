#!/usr/bin/env python3
"""Drive a motionbench adapter by hand: write run.json for a problem, run the adapter at several
time steps, and print its errors at t_end against `motionbench reference` and the observed orders.

  tests/peers_drive.py [--motionbench src/motionbench] [--set k=v ...] [--keep DIR] [--mid-step]
                       ADAPTER_SCRIPT PROBLEM T_END DT [DT ...] [-- OPTION=VALUE ...]

It tests an adapter without the runner: the initial state comes from `motionbench reference
--t-end 0`, masses, inertias and forces from the problem's parameters as listed by `motionbench
list problems --verbose` (written here for the problems the peer cases use).  Errors: position
and velocity (largest |x - x_ref| over the nodes), orientation (angle of q_ref^-1 q, rad) and
angular velocity (|w - w_ref|), at t_end.  Orders: log2 of the error ratio of successive dt
(halving steps).  --mid-step: the adapter's velocity columns hold v(t - dt/2) (descriptor
`velocities = mid-step`); they are compared with the reference at t_end - dt/2.  The runner computes the same metrics from the trajectory; this is the
cross-check of doc/peers.md.
"""

import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "adapters"))
import mbadapter as mb  # noqa: E402

DEFAULTS = {
    "free-fall": {"mass": 1.7, "g": 9.81},
    "spring-pair": {"m0": 1.3, "m1": 0.77, "k": 43.1, "rest": 0.0},
    "kepler": {"mu": 1.0, "mass": 1.0},
    "spin-up": {"mass": 1.3, "radius": 0.25, "tx": 0.03, "ty": -0.02, "tz": 0.07},
    "free-rigid-body": {"I1": 1.3, "I2": 2.385, "I3": 3.7},
    "symmetric-top": {"I1": 1.7, "I3": 3.1},
    "axial-torque-top": {"I1": 1.7, "I3": 3.1, "tau": 0.45},
    "cundall-oscillator": {"mass": 2.385, "k": 7.31, "lambda": 0.2},
    "sphere-wall": {"radius": 0.01, "density": 2500.0, "kn": 1e5, "zeta": 0.1},
    "sphere-collision": {"radius1": 0.01, "radius2": 0.01, "density": 2500.0, "kn": 1e5, "zeta": 0.1},
}


def reference(mbin, problem, t, sets):
    """[{x, v, q, omega, angmom}] of every node at t, from `motionbench reference`."""
    cmd = [mbin, "reference", "-p", problem, "--t-end", repr(t)]
    for s in sets:
        cmd += ["--set", s]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    nodes = []
    for line in out.splitlines():
        w = line.split()
        if w and w[0] == "node":
            nodes.append({})
        elif nodes and w and w[0] in ("x", "v", "q", "omega", "angmom"):
            nodes[-1][w[0]] = [float(v) for v in w[1:]]
    return nodes


def describe(problem, p, init):
    """(nodes, forces) of run.json for the problem with parameters p and initial state init."""
    def node(mass, inertia, k, radius=None):
        s = init[k]
        return {"mass": mass, "inertia": inertia, "radius": radius, "position": s["x"],
                "velocity": s["v"], "orientation": s.get("q", [1, 0, 0, 0]),
                "angular_velocity": s.get("omega", [0, 0, 0]),
                "angular_momentum": s.get("angmom", [0, 0, 0]), "blocked": ""}
    if problem == "free-fall":
        return [node(p["mass"], [0, 0, 0], 0)], [{"model": "gravity", "g": [0, 0, -p["g"]]}]
    if problem == "spring-pair":
        return ([node(p["m0"], [0, 0, 0], 0), node(p["m1"], [0, 0, 0], 1)],
                [{"model": "springs", "springs": [{"i": 0, "j": 1, "k": p["k"], "rest": p["rest"], "c": 0}]}])
    if problem == "kepler":
        return [node(p["mass"], [0, 0, 0], 0)], [{"model": "central", "mu": p["mu"], "centre": [0, 0, 0]}]
    if problem == "spin-up":
        i = 0.4 * p["mass"] * p["radius"] ** 2
        return ([node(p["mass"], [i, i, i], 0, p["radius"])],
                [{"model": "torque", "nodes": [0], "frame": "global", "torque": [p["tx"], p["ty"], p["tz"]]}])
    if problem == "free-rigid-body":
        return [node(1.0, [p["I1"], p["I2"], p["I3"]], 0)], []
    if problem == "symmetric-top":
        return [node(1.0, [p["I1"], p["I1"], p["I3"]], 0)], []
    if problem == "axial-torque-top":
        return ([node(1.0, [p["I1"], p["I1"], p["I3"]], 0)],
                [{"model": "torque", "nodes": [0], "frame": "body", "torque": [0, 0, p["tau"]]}])
    if problem == "cundall-oscillator":
        return ([node(p["mass"], [0, 0, 0], 0)],
                [{"model": "springs", "springs": [{"i": 0, "anchor": [0, 0, 0], "k": p["k"], "rest": 0, "c": 0}]},
                 {"model": "cundall", "lambda": p["lambda"]}])
    if problem == "sphere-collision":
        m = [p["density"] * 4.0 / 3.0 * math.pi * r ** 3 for r in (p["radius1"], p["radius2"])]
        mstar = m[0] * m[1] / (m[0] + m[1])
        nodes = [node(m[k], [0.4 * m[k] * r * r] * 3, k, r) for k, r in enumerate((p["radius1"], p["radius2"]))]
        return nodes, [{"model": "contact-linear", "attractive": p.get("clamp") == "false", "pairs": [
            {"i": 0, "j": 1, "k": p["kn"], "c": 2 * p["zeta"] * math.sqrt(mstar * p["kn"])}]}]
    if problem == "sphere-wall":
        m = p["density"] * 4.0 / 3.0 * math.pi * p["radius"] ** 3
        return ([node(m, [0.4 * m * p["radius"] ** 2] * 3, 0, p["radius"])],
                [{"model": "contact-linear", "attractive": p.get("clamp") == "false", "pairs": [
                    {"i": 0, "plane": {"point": [0, 0, 0], "normal": [0, 0, 1]}, "k": p["kn"],
                     "c": 2 * p["zeta"] * math.sqrt(m * p["kn"])}]}])
    sys.exit("peers_drive: no run.json translation for problem %s here" % problem)


def errors(traj, ref, ref_mid):
    """(position, velocity, orientation, angular velocity) errors of the last row; velocities
    against ref_mid (the reference half a step earlier for a mid-step adapter, else ref)."""
    ep = ev = eq = ew = 0.0
    for i, (r, rm) in enumerate(zip(ref, ref_mid)):
        g = lambda n: [traj["n%d_%s" % (i, n + c)] for c in ("x", "y", "z")]
        ep = max(ep, math.dist(g(""), r["x"]))
        ev = max(ev, math.dist(g("v"), rm["v"]))
        if "n%d_qw" % i in traj and "q" in r:
            q = [traj["n%d_q%s" % (i, c)] for c in "wxyz"]
            d = mb.qmul(mb.qconj(r["q"]), q)
            eq = max(eq, 2.0 * math.atan2(math.sqrt(d[1] ** 2 + d[2] ** 2 + d[3] ** 2), abs(d[0])))
            ew = max(ew, math.dist([traj["n%d_w%s" % (i, c)] for c in "xyz"], rm["omega"]))
    return ep, ev, eq, ew


def main(argv):
    mbin = os.path.join(HERE, "..", "src", "motionbench")
    sets, keep, opts, mid = [], None, {}, False
    if "--" in argv:
        k = argv.index("--")
        opts = dict(o.split("=", 1) for o in argv[k + 1:])
        argv = argv[:k]
    args = []
    it = iter(argv[1:])
    for a in it:
        if a == "--set":
            sets.append(next(it))
        elif a == "--motionbench":
            mbin = next(it)
        elif a == "--mid-step":
            mid = True
        elif a == "--keep":
            keep = next(it)
        else:
            args.append(a)
    script, problem, t_end, dts = args[0], args[1], float(args[2]), [float(d) for d in args[3:]]
    p = dict(DEFAULTS.get(problem, {}))
    for s in sets:
        k, v = s.split("=", 1)
        try:
            p[k] = float(v)
        except ValueError:
            p[k] = v
    init = reference(mbin, problem, 0.0, sets)
    ref = reference(mbin, problem, t_end, sets)
    nodes, forces = describe(problem, p, init)
    rotation = problem in ("spin-up", "free-rigid-body", "symmetric-top", "axial-torque-top")
    previous = None
    print("%-10s %-12s %-12s %-12s %-12s" % ("dt", "position", "velocity", "orientation", "ang.vel."))
    for dt in dts:
        steps = int(round(t_end / dt))
        run = {"protocol": "motionbench-run/1", "case": "drive", "adapter": os.path.basename(script),
               "integrator": "external", "options": opts,
               "problem": {"name": problem, "parameters": p},
               "time": {"t0": 0.0, "dt": dt, "steps": steps, "t_end": t_end, "sample_every": steps},
               "rotation": rotation, "nodes": nodes, "forces": forces}
        work = keep or tempfile.mkdtemp(prefix="peers-drive-")
        os.makedirs(work, exist_ok=True)
        with open(os.path.join(work, "run.json"), "w") as f:
            json.dump(run, f, indent=1)
        done = subprocess.run([sys.executable, os.path.abspath(script), "run.json", "trajectory.csv"],
                              cwd=work, capture_output=True, text=True)
        if done.returncode != 0:
            print("dt %g: adapter exit %d: %s" % (dt, done.returncode,
                                                 (done.stdout + done.stderr).strip().splitlines()[-1:]))
            return 1
        with open(os.path.join(work, "trajectory.csv")) as f:
            rows = f.read().split()
        traj = dict(zip(rows[0].split(","), (float(v) for v in rows[-1].split(","))))
        e = errors(traj, ref, reference(mbin, problem, t_end - dt / 2, sets) if mid else ref)
        line = "%-10g %-12.4e %-12.4e %-12.4e %-12.4e" % ((dt,) + e)
        if previous:
            line += "  orders " + " ".join("%.2f" % (math.log(a / b) / math.log(previous[0] / dt))
                                           if a > 0 and b > 0 else "-" for a, b in zip(previous[1], e))
        print(line, flush=True)
        previous = (dt, e)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
