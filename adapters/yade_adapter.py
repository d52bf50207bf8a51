#!/usr/bin/env python3
"""motionbench adapter for Yade (`yade`): runs one (case, dt) with Yade's NewtonIntegrator.

Usage: yade_adapter.py run.json trajectory.csv  (protocol 1), or runs.json trajectories (protocol
2: every run in one yade, O.reset() between them); doc/external.md.
Options: damping = LAMBDA (NewtonIntegrator's Cundall damping, default 0; a run whose force list
holds a `cundall` model must give the same value), start = half-kick | raw (default half-kick).

Run by python3 it checks what it can express, then re-executes itself inside `yade -n -x`.
Translation (doc/peers.md):
- every node is a Yade sphere (radius from the node, 0.5 for a point) whose mass and inertia are
  set from the node; a node with unequal principal moments is `aspherical` with
  state.inertia = (I1, I2, I3) and state.ori = the node's quaternion;
- gravity is NewtonIntegrator's own; drag, springs, central forces and torques are added each
  step by a PyRunner placed before the NewtonIntegrator (O.forces.addF/addT on the positions and
  orientations of that step);
- contacts, linear and Cundall-Strack (material()): Yade's Law2_ScGeom_FrictPhys_CundallStrack
  (no dashpots, no rolling resistance) between spheres and against a plane normal to an axis
  (utils.wall), with one FrictMat whose Young's modulus gives kn through
  Ip2_FrictMat_FrictMat_FrictPhys, poisson = kt/kn (Yade's FrictMat.poisson is that ratio) and
  frictionAngle = atan(mu); Hertz-Mindlin as Law2_ScGeom_MindlinPhys_Mindlin with E and nu
  chosen to give K and kt (material() says how, measured);
- Yade is a leap-frog: O.bodies[i].state.vel after the step to t holds v(t - dt/2).  Its first
  step takes the stored velocity as v(-dt/2); with start = half-kick (default) the adapter
  stores v0 - (dt/2) a(0) (and L0 - (dt/2) T(0) or w0 - (dt/2) T(0)/I), the leap-frog's own
  start; start = raw stores v0 unchanged, as a Yade script that sets state.vel = v0 does.
- rows: positions and orientations on-step; velocities mid-step (descriptor `velocities =
  mid-step`); the angular velocity of an aspherical body is R I^-1 R^T L from the stored
  (mid-step) angMom and the on-step orientation, because Yade's own state.angVel after a step
  is the value of the previous step's start (measured, doc/peers.md).
"""

import json
import math
import os
import sys

# yade -x runs this file with sys.argv[0] = its path (and no __file__)
SELF = os.path.abspath(sys.argv[0])
sys.path.insert(0, os.path.dirname(SELF))
import mbadapter as mb  # noqa: E402

SUPPORTED = ("gravity", "drag", "springs", "central", "torque", "contact-linear",
             "contact-hertz", "contact-cundall-strack", "contact-hertz-mindlin", "cundall",
             "granular-linear", "granular-cundall-strack")
ASSEMBLY = ("granular-linear", "granular-cundall-strack")
CONTACTS = ("contact-linear", "contact-hertz", "contact-cundall-strack", "contact-hertz-mindlin")
AXES = {(1, 0, 0): (0, 1), (-1, 0, 0): (0, -1), (0, 1, 0): (1, 1), (0, -1, 0): (1, -1),
        (0, 0, 1): (2, 1), (0, 0, -1): (2, -1)}     # plane normal: (Yade wall axis, sense)


def check(run):
    """Decline what Yade's NewtonIntegrator set-up here cannot express."""
    mb.refuse_models(run, SUPPORTED, "Yade adapter")
    opts = run.get("options", {})
    damping = float(opts.get("damping", 0))
    by = mb.forces_by_model(run)
    for c in by.get("cundall", []):
        if abs(float(c["lambda"]) - damping) > 1e-15:
            mb.decline("Yade adapter: the problem's Cundall lambda %g needs option damping=%g"
                       % (c["lambda"], c["lambda"]))
    if assembly_model(run) is not None:
        assembly(run)
    else:
        material(run)
    for i, n in enumerate(run["nodes"]):
        if n.get("mass") is None:
            mb.decline("Yade adapter: node %d is fixed (infinite mass), not expressed" % i)
        if n.get("blocked"):
            mb.decline("Yade adapter: blocked degrees of freedom are not expressed")
    if opts.get("start", "half-kick") not in ("half-kick", "raw"):
        print("yade adapter: option start must be half-kick or raw", file=sys.stderr)
        sys.exit(2)


def material(run):
    """The one FrictMat and the walls that give the run's contact law in Yade, or None without
    contacts: (law, young, poisson, mu, walls [(node, axis, sense, position)]); law is
    "cundall-strack" (Ip2_FrictMat_FrictMat_FrictPhys + Law2_ScGeom_FrictPhys_CundallStrack,
    for contact-linear and contact-cundall-strack) or "mindlin" (Ip2_FrictMat_FrictMat_MindlinPhys
    + Law2_ScGeom_MindlinPhys_Mindlin, for contact-hertz-mindlin).  Declines what they cannot
    express.  Measured in Yade 2023.02a with one material (E, poisson), R* = R1 R2/(R1 + R2):
    - FrictPhys: kn = 2 E1 R1 E2 R2 / (E1 R1 + E2 R2) = E R for equal spheres and for a sphere
      on a wall (utils.wall); ks = poisson kn (FrictMat.poisson is the ratio ks/kn here);
    - MindlinPhys: kno = (4/3) E/(2 (1 - nu^2)) sqrt(R*) (Fn = kno delta^(3/2)), a wall counted as
      a sphere of the same radius (R* = R/2); kso = 8 G/(2 (2 - nu)) sqrt(R*), G = E/(2 (1 + nu)),
      so kso/kno = 3 (1 - nu)/(2 - nu) = (3/2) kt_ratio with kt_ratio = 2 (1 - nu)/(2 - nu):
      nu = (2 - 2 kt_ratio)/(2 - kt_ratio) gives the bench's kt = kt_ratio (3/2) K;
    the Coulomb limit is tan(frictionAngle) Fn."""
    models = [f for f in run.get("forces", []) if f.get("model", "").startswith("contact-")]
    if not models:
        return None
    names = {m["model"] for m in models}
    if names - set(CONTACTS) or len(names) > 1:
        mb.decline("Yade adapter: one contact law, linear, Cundall-Strack or Hertz-Mindlin, is "
                   "translated (got %s)" % ", ".join(sorted(names)))
    mindlin = models[0]["model"] in ("contact-hertz", "contact-hertz-mindlin")
    nodes = run["nodes"]
    youngs, ratios, walls = set(), set(), []
    friction = float(models[0].get("mu", 0))
    for m in models:
        if float(m.get("mu", 0)) != friction:
            mb.decline("Yade adapter: contact models with different friction coefficients")
        spheres, planes = mb.contact_pairs(m)
        for p in spheres + planes:
            if float(p.get("c", 0)) != 0:
                mb.decline("Yade adapter: the normal dashpot (c = %g) is not translated" % p["c"])
            if float(p.get("ct", 0)) != 0:
                mb.decline("Yade adapter: the tangential dashpot is not translated")
            if float(p.get("roll", 0)) != 0:
                mb.decline("Yade adapter: rolling resistance is not translated")
        # frictionless Hertz (mu = 0): the shear stiffness is idle, any nu in [0, 1/2) will do
        ratio = float(m.get("kt_ratio", 2.0 * 0.7 / 1.7))
        nu = (2.0 - 2.0 * ratio) / (2.0 - ratio) if mindlin else None
        for p in spheres + planes:
            if mindlin:
                reff = p["radius_eff"] if "plane" not in p else 0.5 * nodes[p["i"]]["radius"]
                youngs.add(float(p["k"]) * 2.0 * (1.0 - nu * nu) / (4.0 / 3.0 * math.sqrt(reff)))
                ratios.add(nu)
                continue
            # frictionless (mu = 0): the shear force is capped at mu fn = 0 and ks is idle, but
            # ks = 0 makes Law2_ScGeom_FrictPhys_CundallStrack return NaN at touch-down
            # (measured: peers-sphere-collision diverged at its first contact step), so a
            # frictionless contact keeps the ratio 0.3
            ratios.add(float(p.get("kt", 0)) / float(p["k"]) if friction != 0 else 0.3)
            if "plane" in p:
                youngs.add(float(p["k"]) / nodes[p["i"]]["radius"])
            else:
                r1, r2 = nodes[p["i"]]["radius"], nodes[p["j"]]["radius"]
                youngs.add(float(p["k"]) * (r1 + r2) / (2.0 * r1 * r2))
        for p in planes:
            key = tuple(int(round(c)) if abs(abs(c) - 1) < 1e-15 or c == 0 else 9 for c in p["plane"]["normal"])
            if key not in AXES:
                mb.decline("Yade adapter: only planes normal to a coordinate axis are translated (utils.wall)")
            axis, sense = AXES[key]
            walls.append((p["i"], axis, sense, p["plane"]["point"][axis]))
    if max(youngs) - min(youngs) > 1e-12 * max(youngs) or max(ratios) - min(ratios) > 1e-12 * max(max(ratios), 1e-300):
        mb.decline("Yade adapter: the contacts need different materials (Young's modulus or ratio differ)")
    if len({(a, sn, pos) for _, a, sn, pos in walls}) > 1:
        mb.decline("Yade adapter: one plane is translated")
    return ("mindlin" if mindlin else "cundall-strack", min(youngs), min(ratios), friction, walls)


def assembly_model(run):
    """The granular-* model of run.json (every two spheres in contact), or None."""
    found = [f for f in run.get("forces", []) if f.get("model") in ASSEMBLY]
    if not found:
        return None
    if len(found) > 1 or any(f.get("model", "").startswith("contact-") for f in run.get("forces", [])):
        mb.decline("Yade adapter: one contact model per assembly is translated")
    return found[0]


def assembly(run):
    """The FrictMat of a granular assembly (a granular-linear or granular-cundall-strack
    model: contacts between every two spheres, found by Yade's collider), as material()
    returns it, and the periodic box or None (open space): (law, young, poisson, mu, walls,
    box).  With kn = E R for two spheres of radius R (Ip2_FrictMat_FrictMat_FrictPhys, see
    material()) every pair gets the law's kn when the spheres share one radius; otherwise,
    and for a normal or tangential dashpot (CundallStrack has none), rolling resistance,
    walls or another boundary, the run is declined."""
    model = assembly_model(run)
    c = model.get("c")
    if (c is not None and float(c) != 0) or (c is None and float(model.get("zeta") or 0) != 0):
        mb.decline("Yade adapter: the normal dashpot of the assembly is not translated "
                   "(Law2_ScGeom_FrictPhys_CundallStrack has none)")
    if float(model.get("zeta_t", 0)) != 0:
        mb.decline("Yade adapter: the tangential dashpot is not translated")
    if float(model.get("mu_roll", 0)) != 0:
        mb.decline("Yade adapter: rolling resistance is not translated")
    if model.get("pairs"):
        mb.decline("Yade adapter: walls of a granular assembly are not translated")
    if model.get("boundary") not in ("periodic", "open"):
        mb.decline("Yade adapter: a granular assembly in a %s boundary is not translated"
                   % model.get("boundary"))
    radii = {float(n.get("radius") or 0) for n in run["nodes"]}
    if len(radii) != 1 or min(radii) <= 0:
        mb.decline("Yade adapter: the spheres of an assembly must share one radius "
                   "(kn = E R gives the law's kn to every pair)")
    radius = radii.pop()
    friction = float(model.get("mu", 0))
    # frictionless: ks is idle but must not be 0 (material(): NaN at touch-down)
    ratio = float(model.get("kt_ratio", 0)) if friction != 0 else 0.3
    box = [float(b) for b in model["box"]] if model["boundary"] == "periodic" else None
    return ("cundall-strack", float(model["kn"]) / radius, ratio, friction, [], box)


def node_forces(run, pos, vel, ori):
    """Forces and torques (global) on every node from the non-gravity models of run.json."""
    n = len(run["nodes"])
    F = [[0.0, 0.0, 0.0] for _ in range(n)]
    T = [[0.0, 0.0, 0.0] for _ in range(n)]
    for f in run.get("forces", []):
        model = f["model"]
        if model == "drag":
            for i in range(n):
                for k in range(3):
                    F[i][k] -= f["D"] * vel[i][k]
        elif model == "central":
            c = f.get("centre", [0, 0, 0])
            for i in range(n):
                d = [pos[i][k] - c[k] for k in range(3)]
                r3 = math.sqrt(mb.dot(d, d)) ** 3
                for k in range(3):
                    F[i][k] -= f["mu"] * run["nodes"][i]["mass"] * d[k] / r3
        elif model == "springs":
            for s in f["springs"]:
                i = s["i"]
                pair = s.get("j") is not None
                xj = pos[s["j"]] if pair else s["anchor"]
                vj = vel[s["j"]] if pair else [0.0, 0.0, 0.0]
                d = [xj[k] - pos[i][k] for k in range(3)]
                dv = [vj[k] - vel[i][k] for k in range(3)]
                rest, c = float(s.get("rest", 0)), float(s.get("c", 0))
                if rest == 0 and c == 0:
                    fi = [s["k"] * d[k] for k in range(3)]
                else:
                    length = math.sqrt(mb.dot(d, d))
                    mag = s["k"] * (length - rest) + c * mb.dot(dv, d) / length
                    fi = [mag * d[k] / length for k in range(3)]
                for k in range(3):
                    F[i][k] += fi[k]
                    if pair:
                        F[s["j"]][k] -= fi[k]
        elif model == "torque":
            for i in mb.torque_nodes(f, n):
                t = mb.qrotate(ori[i], f["torque"]) if f.get("frame") == "body" else f["torque"]
                for k in range(3):
                    T[i][k] += t[k]
    return F, T


def assembly_overlapping(run, model):
    """True when two spheres of an assembly overlap at t = 0 (every pair, minimum image in a
    periodic box)."""
    nodes = run["nodes"]
    box = model.get("box") if model.get("boundary") == "periodic" else None
    for i in range(len(nodes)):
        xi, ri = nodes[i]["position"], nodes[i]["radius"]
        for j in range(i + 1, len(nodes)):
            d = [nodes[j]["position"][k] - xi[k] for k in range(3)]
            if box:
                d = [d[k] - box[k] * round(d[k] / box[k]) for k in range(3)]
            if ri + nodes[j]["radius"] - math.sqrt(mb.dot(d, d)) > 0:
                return True
    return False


def overlapping(run):
    """True when some contact pair of run.json overlaps at t = 0."""
    nodes = run["nodes"]
    if assembly_model(run) is not None:
        return assembly_overlapping(run, assembly_model(run))
    for m in run.get("forces", []):
        if not m.get("model", "").startswith("contact-"):
            continue
        spheres, planes = mb.contact_pairs(m)
        for p in spheres:
            d = [nodes[p["j"]]["position"][k] - nodes[p["i"]]["position"][k] for k in range(3)]
            if nodes[p["i"]]["radius"] + nodes[p["j"]]["radius"] - math.sqrt(mb.dot(d, d)) > 0:
                return True
        for p in planes:
            x, pt, nrm = nodes[p["i"]]["position"], p["plane"]["point"], p["plane"]["normal"]
            if nodes[p["i"]]["radius"] - sum((x[k] - pt[k]) * nrm[k] for k in range(3)) > 0:
                return True
    return False


def yade_run(run, out):
    """Inside yade: build the scene of one run, run, write its trajectory to out."""
    from yade import O, utils, Vector3, Quaternion
    from yade.wrapper import (ForceResetter, NewtonIntegrator, PyRunner, InsertionSortCollider,
                              Bo1_Sphere_Aabb, Bo1_Wall_Aabb, InteractionLoop,
                              Ig2_Sphere_Sphere_ScGeom, Ig2_Wall_Sphere_ScGeom,
                              Ip2_FrictMat_FrictMat_FrictPhys, Law2_ScGeom_FrictPhys_CundallStrack,
                              Ip2_FrictMat_FrictMat_MindlinPhys, Law2_ScGeom_MindlinPhys_Mindlin,
                              FrictMat)
    check(run)
    O.reset()          # a batch runs its runs one after the other in one yade
    opts = run.get("options", {})
    time = run["time"]
    dt = float(time["dt"])
    by = mb.forces_by_model(run)
    g = [0.0, 0.0, 0.0]
    for f in by.get("gravity", []):
        g = [g[k] + f["g"][k] for k in range(3)]
    nodes = run["nodes"]
    box = None
    if assembly_model(run) is not None:
        *contact, box = assembly(run)
    else:
        contact = material(run)
    law, young, ratio, friction, walls = contact if contact else ("none", 1e9, 0.3, 0.0, [])
    if box is not None:
        # the periodic cell [0, L0) x [0, L1) x [0, L2); the bodies' positions stay
        # unwrapped (the collider and the interactions take the images)
        O.periodic = True
        O.cell.setBox(Vector3(*box))
    mat = O.materials.append(FrictMat(young=young, poisson=ratio, frictionAngle=math.atan(friction),
                                      density=1.0))
    aspherical = []
    for n in nodes:
        b = utils.sphere(tuple(n["position"]), n.get("radius") or 0.5, material=mat)
        inertia = n.get("inertia") or [0.0, 0.0, 0.0]
        b.state.mass = n["mass"]
        iso = max(inertia) - min(inertia) <= 1e-12 * max(max(inertia), 1e-300)
        b.aspherical = not iso
        b.state.inertia = Vector3(*inertia) if max(inertia) > 0 else Vector3(1, 1, 1)
        b.state.ori = Quaternion(*n["orientation"])
        O.bodies.append(b)
        aspherical.append(not iso)
    n = len(nodes)
    for _, axis, sense, position in walls[:1]:      # after the nodes: body i is node i
        O.bodies.append(utils.wall(position, axis=axis, sense=sense, material=mat))

    def state():
        bodies = [O.bodies[i] for i in range(n)]
        pos = [list(b.state.pos) for b in bodies]
        vel = [list(b.state.vel) for b in bodies]
        ori = [tuple(b.state.ori[k] for k in (3, 0, 1, 2)) for b in bodies]   # Eigen x,y,z,w
        return pos, vel, ori

    # start: Yade's first kick takes the stored velocity as v(-dt/2)
    pos0 = [list(nd["position"]) for nd in nodes]
    vel0 = [list(nd["velocity"]) for nd in nodes]
    ori0 = [tuple(nd["orientation"]) for nd in nodes]
    F0, T0 = node_forces(run, pos0, vel0, ori0)
    half = 0.5 * dt if opts.get("start", "half-kick") == "half-kick" else 0.0
    if contact is not None and half and overlapping(run):
        # the half kick would need the contact force at t = 0
        mb.decline("Yade adapter: contacts overlapping at t = 0 are not translated")
    for i in range(n):
        b = O.bodies[i]
        m = nodes[i]["mass"]
        b.state.vel = Vector3(*[vel0[i][k] - half * (F0[i][k] / m + g[k]) for k in range(3)])
        if aspherical[i]:
            L = [nodes[i]["angular_momentum"][k] - half * T0[i][k] for k in range(3)]
            b.state.angMom = Vector3(*L)
            b.state.angVel = Vector3(*mb.omega_from_angmom(ori0[i], nodes[i]["inertia"], L))
        else:
            inertia = nodes[i]["inertia"][0] or 1.0
            b.state.angVel = Vector3(*[nodes[i]["angular_velocity"][k] - half * T0[i][k] / inertia
                                       for k in range(3)])

    def add_forces():
        pos, vel, ori = state()
        # the velocity the leap-frog holds during the force evaluation is v(t - dt/2); the
        # protocol's dashpots and drag act on v(t), estimated as Yade's damping does from it
        F, T = node_forces(run, pos, vel, ori)
        for i in range(n):
            if any(F[i]):
                O.forces.addF(i, Vector3(*F[i]))
            if any(T[i]):
                O.forces.addT(i, Vector3(*T[i]))

    samples = mb.sample_steps(time)
    wanted = {step: t for step, t in samples}
    rows = []
    previous = list(ori0)

    def record(step):
        """Append the row of `step` (after the NewtonIntegrator of iteration step - 1)."""
        pos, vel, ori = state()
        nodes_out = []
        for i in range(n):
            b = O.bodies[i]
            if step == 0:
                nodes_out.append({"position": pos0[i], "velocity": vel0[i], "orientation": ori0[i],
                                  "angular_velocity": nodes[i]["angular_velocity"]})
                continue
            q = mb.same_hemisphere(mb.qnormalize(ori[i]), previous[i])
            previous[i] = q
            if aspherical[i]:
                w = mb.omega_from_angmom(q, nodes[i]["inertia"], list(b.state.angMom))
            else:
                w = list(b.state.angVel)
            nodes_out.append({"position": pos[i], "velocity": vel[i], "orientation": q,
                              "angular_velocity": w})
        rows.append(mb.state_row(wanted[step], nodes_out))

    def after_step():
        if O.iter + 1 in wanted:
            record(O.iter + 1)

    import builtins
    builtins.mb_add_forces = add_forces
    builtins.mb_after_step = after_step
    engines = [ForceResetter()]
    if contact is not None:
        mindlin = law == "mindlin"
        engines += [InsertionSortCollider([Bo1_Sphere_Aabb(), Bo1_Wall_Aabb()]),
                    InteractionLoop([Ig2_Sphere_Sphere_ScGeom(), Ig2_Wall_Sphere_ScGeom()],
                                    [Ip2_FrictMat_FrictMat_MindlinPhys() if mindlin
                                     else Ip2_FrictMat_FrictMat_FrictPhys()],
                                    [Law2_ScGeom_MindlinPhys_Mindlin() if mindlin
                                     else Law2_ScGeom_FrictPhys_CundallStrack()])]
    if any(f["model"] in ("drag", "springs", "central", "torque") for f in run.get("forces", [])):
        # node_forces has something to add (a Python call per step: none when it has not)
        engines.append(PyRunner(command="mb_add_forces()", iterPeriod=1, initRun=True))
    engines += [NewtonIntegrator(gravity=Vector3(*g), damping=float(opts.get("damping", 0))),
                PyRunner(command="mb_after_step()", iterPeriod=1, initRun=True)]
    O.engines = engines
    O.dt = dt
    record(0)
    # one O.run for all steps: O.step() per sample costs a thread hand-over each time
    O.run(int(time["steps"]), True)
    if len(rows) != len(samples):
        print("yade ran %d of %d samples" % (len(rows), len(samples)), file=sys.stderr)
        sys.exit(1)
    mb.write_trajectory(out, run, rows)


def main(argv):
    if len(argv) != 3:
        print("usage: yade_adapter.py run.json trajectory.csv | runs.json trajectories",
              file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        batch = json.load(f).get("protocol") == mb.BATCH_PROTOCOL
    if not batch:
        check(mb.load_run(argv[1]))     # decline before yade starts
    sys.stdout.flush()
    os.execvp("yade", ["yade", "-n", "-j", "1", "-x", SELF, argv[1], argv[2]])


if __name__ == "__main__":
    try:
        import yade  # noqa: F401  (present only inside the yade interpreter)
        INSIDE = True
    except ImportError:
        INSIDE = False
    if INSIDE:
        try:
            status = mb.serve(sys.argv, yade_run)
            if status:
                sys.stdout.flush()
                os._exit(status)
        except SystemExit:
            raise
        except BaseException as e:        # yade -x would keep going: report and fail
            import traceback
            traceback.print_exc()
            print(mb.explain_exception(e, "Yade adapter (inside yade)"), file=sys.stderr,
                  flush=True)
            os._exit(1)
        sys.stdout.flush()
        os._exit(0)
    mb.guard(main, "Yade adapter")
