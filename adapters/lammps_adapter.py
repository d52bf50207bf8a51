#!/usr/bin/env python3
"""motionbench adapter for LAMMPS (`lmp`): runs one (case, dt) with one time-integration fix.

Usage: lammps_adapter.py run.json trajectory.csv (protocol 1), or runs.json trajectories
(protocol 2: every run of the batch in ONE lmp, `clear` between them; an error ends lmp at the
run that made it, which fails alone, and the runs after it go on in a fresh lmp);
doc/external.md.
Options: fix = nve | nve/sphere | nve/asphere | rigid/nve | rigid (default nve, nve/sphere
under a frictional contact law); pair = history | granular (default history: the style of a
contact law, lammps_granular.py).

Translation (doc/peers.md):
- units lj (no conversion factors: F = m a, torque = I dw/dt);
- a node is one atom (sphere with a point dipole for nve, nve/sphere; ellipsoid with a dipole
  for nve/asphere, its semi-axes chosen so the ellipsoid's principal moments are the node's) or,
  for the rigid fixes, a body of three equal atoms at a e1, a e2, -a (e1 + e2) in the body frame
  (centre of mass at the node, no torque from a uniform force), its mass, inertia, velocity and
  angular momentum given exactly through the fix's infile;
- gravity, drag, springs and central forces: `fix addforce` on the node's atoms with equal-style
  variables of the node's centre of mass xcm() and velocity vcm(), i.e. the force on the point
  the protocol describes, split equally over the node's atoms;
- a constant global torque: a dipole p fixed in space in a uniform field E, p x E = T
  (`fix efield`, the fixes do not update the dipole) for atoms; `fix addtorque` for rigid bodies;
- a body-frame torque: a couple of forces on the rigid body's atoms (rigid fixes only);
- contacts (lammps_granular.py): the linear law as `pair_style gran/hooke` and `fix wall/gran
  hooke`, Cundall-Strack as gran/hooke/history, Hertz-Mindlin as gran/hertz/history or (option
  pair=granular) `pair_style granular` with Mindlin tangential, walls z = const alike;
- a Lennard-Jones fluid in a periodic box (`lj-cut`, `lj-smooth`): lammps_lj.py;
- a granular assembly (`granular-*`: every two spheres in contact, periodic box or open
  space): lammps_assembly.py.
The dump is read back: positions, velocities, orientations (ellipsoid quaternion, or the rigid
body's frame rebuilt from its atoms) and global angular velocities.
"""

import math
import os
import subprocess
import sys

import lammps_assembly
import lammps_granular as granular
import lammps_lj
import mbadapter as mb
from lammps_pair_run import num

FIXES = ("nve", "nve/sphere", "nve/asphere", "rigid/nve", "rigid")
SUPPORTED = ("gravity", "drag", "springs", "central", "torque") + granular.LAWS + lammps_assembly.MODELS
ARM = 0.5        # distance of a rigid body's atoms from its centre (any value: frame only)



class Node:
    """How one protocol node is represented in LAMMPS."""

    def __init__(self, index, spec, fix):
        self.index = index
        self.spec = spec
        self.group = "n%d" % index
        self.rigid = fix.startswith("rigid")
        self.atoms = []          # LAMMPS atom IDs
        self.natoms = 3 if self.rigid else 1


def check_fix(run, fix):
    """Decline what the chosen fix cannot integrate (instead of integrating something else)."""
    by = mb.forces_by_model(run)
    rotating = run.get("rotation", False)
    for i, n in enumerate(run["nodes"]):
        if n.get("mass") is None:
            mb.decline("LAMMPS adapter: node %d is fixed (infinite mass), not expressed" % i)
        if n.get("blocked"):
            mb.decline("LAMMPS adapter: blocked degrees of freedom are not expressed")
        inertia = n.get("inertia") or [0, 0, 0]
        iso = max(inertia) - min(inertia) <= 1e-12 * max(max(inertia), 1e-300)
        if fix == "nve" and rotating:
            mb.decline("fix nve integrates translation only; this problem rotates")
        if fix == "nve/sphere" and rotating:
            r = n.get("radius")
            if not iso or r is None or abs(inertia[0] - 0.4 * n["mass"] * r * r) > 1e-12 * inertia[0]:
                mb.decline("fix nve/sphere needs solid spheres (I = 2/5 m r^2); node %d is not one" % i)
        if fix == "nve/asphere" and rotating and ellipsoid_axes(n) is None:
            mb.decline("fix nve/asphere: node %d's moments %s are no ellipsoid's" % (i, inertia))
    for t in by.get("torque", []):
        if t.get("frame") == "body" and not fix.startswith("rigid"):
            mb.decline("fix %s: LAMMPS has no body-frame torque for single atoms" % fix)
        if not fix.startswith("rigid") and (len(by["torque"]) > 1 or len(mb.torque_nodes(t, len(run["nodes"]))) > 1):
            mb.decline("fix %s: one uniform field gives the torque of one atom only" % fix)


def ellipsoid_axes(n):
    """Semi-axes (a, b, c) of the uniform ellipsoid of mass m with principal moments I:
    I1 = m (b^2 + c^2)/5 and cyclic, so a^2 = 5 (I2 + I3 - I1)/(2 m) and cyclic; None when the
    moments violate the triangle inequality (no ellipsoid has them)."""
    m = n["mass"]
    i1, i2, i3 = n.get("inertia") or (0, 0, 0)
    if max(i1, i2, i3) <= 0:
        r = n.get("radius") or 0.5
        return (r, r, r)
    sq = (2.5 * (i2 + i3 - i1) / m, 2.5 * (i1 + i3 - i2) / m, 2.5 * (i1 + i2 - i3) / m)
    if min(sq) <= 0:
        return None
    return tuple(math.sqrt(s) for s in sq)


def force_terms(run, nodes):
    """Per node, the three components of the force as LAMMPS equal-style expressions."""
    pos = ["xcm(%s,%s)" % (nd.group, c) for nd in nodes for c in "xyz"]
    vel = ["vcm(%s,%s)" % (nd.group, c) for nd in nodes for c in "xyz"]
    P = lambda i, k: pos[3 * i + k]
    V = lambda i, k: vel[3 * i + k]
    terms = [[[], [], []] for _ in nodes]
    for f in run.get("forces", []):
        model = f["model"]
        if model == "gravity":
            for i, nd in enumerate(nodes):
                for k in range(3):
                    if f["g"][k] != 0:
                        terms[i][k].append("(%s*%s)" % (num(nd.spec["mass"]), num(f["g"][k])))
        elif model == "drag":
            for i in range(len(nodes)):
                for k in range(3):
                    terms[i][k].append("(-%s*%s)" % (num(f["D"]), V(i, k)))
        elif model == "central":
            c = f.get("centre", [0, 0, 0])
            for i, nd in enumerate(nodes):
                d = ["(%s-%s)" % (P(i, k), num(c[k])) for k in range(3)]
                r3 = "((%s^2+%s^2+%s^2)^1.5)" % tuple(d)
                for k in range(3):
                    terms[i][k].append("(-%s*%s*%s/%s)" % (num(f["mu"]), num(nd.spec["mass"]), d[k], r3))
        elif model == "springs":
            for s in f["springs"]:
                spring_terms(s, P, V, terms)
    return terms


def spring_terms(s, P, V, terms):
    """Hookean spring with dashpot between nodes i and j (or i and a fixed anchor): the force on
    i is (k (l - rest) + c l') d/l with d = x_j - x_i, l = |d|, l' = (v_j - v_i).d/l."""
    i = s["i"]
    if "j" in s and s["j"] is not None:
        xj = [P(s["j"], k) for k in range(3)]
        vj = [V(s["j"], k) for k in range(3)]
    else:
        xj = [num(a) for a in s["anchor"]]
        vj = ["0", "0", "0"]
    d = ["(%s-%s)" % (xj[k], P(i, k)) for k in range(3)]
    dv = ["(%s-%s)" % (vj[k], V(i, k)) for k in range(3)]
    k_, rest, c = float(s["k"]), float(s.get("rest", 0)), float(s.get("c", 0))
    l = "sqrt(%s^2+%s^2+%s^2)" % tuple(d)
    if rest == 0 and c == 0:
        comps = ["(%s*%s)" % (num(k_), d[k]) for k in range(3)]
    else:
        rate = "((%s*%s+%s*%s+%s*%s)/%s)" % (dv[0], d[0], dv[1], d[1], dv[2], d[2], l)
        mag = "(%s*(%s-%s)+%s*%s)" % (num(k_), l, num(rest), num(c), rate)
        comps = ["(%s*%s/%s)" % (mag, d[k], l) for k in range(3)]
    for k in range(3):
        terms[i][k].append(comps[k])
        if "j" in s and s["j"] is not None:
            terms[s["j"]][k].append("(-%s)" % comps[k])


def global_inertia(q, inertia):
    """R diag(I) R^T as (ixx, iyy, izz, ixy, ixz, iyz)."""
    cols = mb.rmatrix_columns(q)
    t = [[sum(inertia[a] * cols[a][r] * cols[a][c] for a in range(3)) for c in range(3)]
         for r in range(3)]
    return (t[0][0], t[1][1], t[2][2], t[0][1], t[0][2], t[1][2])


def body_arms(q):
    """Global offsets of a rigid body's three atoms: R (a e1), R (a e2), -R a (e1 + e2)."""
    c = mb.rmatrix_columns(q)
    r1 = tuple(ARM * v for v in c[0])
    r2 = tuple(ARM * v for v in c[1])
    return [r1, r2, tuple(-a - b for a, b in zip(r1, r2))]


def cutoff(nodes):
    """Communication cut-off: at least the largest contact distance."""
    return max([2.0] + [4.0 * (nd.spec.get("radius") or 0.0) for nd in nodes])


def initial_box(nodes):
    """A box around every node's initial position (shrink-wrapped by LAMMPS afterwards)."""
    lo_hi = []
    for k in range(3):
        xs = [nd.spec["position"][k] for nd in nodes]
        lo_hi += [num(min(xs) - 2.0), num(max(xs) + 2.0)]
    return tuple(lo_hi)


def atom_lines(nd, fix, first_id):
    """Create node nd's atoms (one, or three for a rigid body) and set their properties."""
    n, g = nd.spec, nd.group
    rigid = fix.startswith("rigid")
    lines = []
    offsets = body_arms(n["orientation"]) if rigid else [(0.0, 0.0, 0.0)]
    for a, off in enumerate(offsets):
        lines.append("create_atoms 1 single %s %s %s units box"
                     % tuple(num(n["position"][k] + off[k]) for k in range(3)))
        nd.atoms.append(first_id + a)
    lines.append("group %s id %s" % (g, " ".join(str(a) for a in nd.atoms)))
    vec = lambda what, v: "set group %s %s %s %s %s" % ((g, what) + tuple(num(c) for c in v))
    if fix == "nve/asphere":
        lines.append(vec("shape", [2 * s for s in ellipsoid_axes(n)]))
        q = n["orientation"]
        sin_half = math.sqrt(q[1] ** 2 + q[2] ** 2 + q[3] ** 2)
        angle = 2.0 * math.degrees(math.atan2(sin_half, q[0]))
        # `set quat` does not normalise its axis: give the unit axis
        axis = tuple(c / sin_half for c in q[1:]) if sin_half > 0 else (0.0, 0.0, 1.0)
        lines.append(vec("quat", axis) + " " + num(angle))
    else:
        lines.append("set group %s diameter %s" % (g, num(2.0 * n["radius"] if n.get("radius") else 1.0)))
    lines.append("set group %s mass %s" % (g, num(n["mass"] / nd.natoms)))
    if not rigid:      # a rigid body's velocities come from the fix's infile
        lines.append("velocity %s set %s %s %s units box" % ((g,) + tuple(num(v) for v in n["velocity"])))
        if fix == "nve/asphere":
            lines.append(vec("angmom", n["angular_momentum"]))
        else:
            lines.append(vec("omega", n["angular_velocity"]))
        lines.append("set group %s dipole 0 0 0" % g)
    return lines


def force_lines(run, nodes, rigid):
    """fix addforce of the forces on the nodes' centres (split over their atoms), torques and
    walls."""
    lines = []
    for nd, comps in zip(nodes, force_terms(run, nodes)):
        if all(not c for c in comps):
            continue
        for k, c in enumerate(comps):
            lines.append("variable f%s%d equal (%s)/%d" % ("xyz"[k], nd.index, "+".join(c) if c else "0", nd.natoms))
        lines.append("fix force%d %s addforce v_fx%d v_fy%d v_fz%d" % ((nd.index, nd.group) + (nd.index,) * 3))
    by = mb.forces_by_model(run)
    for t in by.get("torque", []):
        for i in mb.torque_nodes(t, len(nodes)):
            torque_lines(t, nodes[i], rigid, lines)
    return lines


def integrate_lines(fix, nodes, tag):
    """The integrating fix; for the rigid fixes, with the infile of exact body properties."""
    if not fix.startswith("rigid"):
        return ["fix integrate all %s" % fix]
    with open("rigid%s.txt" % tag, "w") as f:
        f.write("# body mass xcm ycm zcm ixx iyy izz ixy ixz iyz vx vy vz lx ly lz ix iy iz\n%d\n" % len(nodes))
        for b, nd in enumerate(nodes, 1):
            n = nd.spec
            vals = ([n["mass"]] + list(n["position"]) + list(global_inertia(n["orientation"], n["inertia"]))
                    + list(n["velocity"]) + list(n["angular_momentum"]))
            f.write("%d %s 0 0 0\n" % (b, " ".join(num(v) for v in vals)))
    groups = " ".join(nd.group for nd in nodes)
    return ["fix integrate all %s group %d %s infile rigid%s.txt" % (fix, len(nodes), groups, tag)]


def output_lines(fix, time, tag):
    """A dump of every step with what node_state reads back, and the run."""
    lines = []
    cols = "id x y z vx vy vz"
    if fix == "nve/asphere":
        lines.append("compute q all property/atom quatw quati quatj quatk angmomx angmomy angmomz")
        cols += " c_q[1] c_q[2] c_q[3] c_q[4] c_q[5] c_q[6] c_q[7]"
    elif not fix.startswith("rigid"):
        cols += " omegax omegay omegaz"
    return lines + ["timestep %s" % num(time["dt"]),
                    "dump traj all custom 1 traj%s.dump %s" % (tag, cols),
                    "dump_modify traj format float %.17g sort id",
                    "thermo 0", "thermo_style custom step", "compute_modify thermo_temp extra/dof 0",
                    "run %d" % int(time["steps"])]


def input_lines(run, fix, nodes, law, pair, tag=""):
    """The LAMMPS input of this run (and its rigid infile), its files named with tag, ending
    with `clear` (the runs of a batch follow each other in one lmp)."""
    shape = "ellipsoid" if fix == "nve/asphere" else "sphere"
    rigid = fix.startswith("rigid")
    lines = ["units lj", "dimension 3", "boundary s s s", "atom_modify map array", "newton off",
             "atom_style %s" % shape if rigid else "atom_style hybrid %s dipole" % shape,
             "region box block %s %s %s %s %s %s" % initial_box(nodes), "create_box 1 box"]
    for nd in nodes:
        lines += atom_lines(nd, fix, 1 + sum(len(o.atoms) for o in nodes))
    lines += ["comm_modify cutoff %s vel yes" % num(cutoff(nodes)), "neighbor 0.5 nsq"]
    lines += granular.pair_lines(law, pair) + force_lines(run, nodes, rigid)
    lines += granular.wall_lines(law, pair, nodes)
    lines += integrate_lines(fix, nodes, tag) + output_lines(fix, run["time"], tag)
    return lines + ["clear"]


def torque_lines(t, nd, rigid, lines):
    """A constant torque on node nd: on an atom, a dipole p fixed in space in a uniform field E,
    p x E = T (global frame only); on a rigid body, forces on its atoms (couple_forces)."""
    tq = [float(v) for v in t["torque"]]
    if rigid:
        couple_forces(tq, t.get("frame", "global") == "body", nd, lines)
        return
    # p x E = T with E a unit vector normal to T and p = E x T:  (E x T) x E = T (E.E) - E (E.T)
    mag = math.sqrt(sum(v * v for v in tq))
    if mag == 0:
        return
    helper = (1.0, 0.0, 0.0) if abs(tq[0]) < 0.9 * mag else (0.0, 1.0, 0.0)
    e = mb.cross(tq, helper)
    ne = math.sqrt(mb.dot(e, e))
    e = tuple(v / ne for v in e)
    p = mb.cross(e, tq)
    lines.append("set group %s dipole %s %s %s" % ((nd.group,) + tuple(num(v) for v in p)))
    lines.append("fix field all efield %s %s %s" % tuple(num(v) for v in e))


def couple_forces(tq, body_frame, nd, lines):
    """Torque T on a rigid body of atoms at r_i = a u1, a u2, -a (u1 + u2) (u_k = R e_k, read
    from the atoms' current positions): forces F_i = w x r_i have sum F_i = w x sum r_i = 0 and
    sum r_i x F_i = J w, J = sum (|r_i|^2 1 - r_i r_i^T) = a^2 R [[2,-1,0],[-1,2,0],[0,0,4]] R^T,
    so w = R J_b^-1 R^T T with J_b^-1 = [[2,1,0],[1,2,0],[0,0,3/4]] / (3 a^2).  T is global, or
    fixed in the body (T_b given, R^T T = T_b)."""
    a1, a2 = nd.atoms[0], nd.atoms[1]
    g, i = nd.group, nd.index
    for k, ax in enumerate("xyz"):
        lines.append("variable u1%s%d equal (%s[%d]-xcm(%s,%s))/%s" % (ax, i, ax, a1, g, ax, num(ARM)))
        lines.append("variable u2%s%d equal (%s[%d]-xcm(%s,%s))/%s" % (ax, i, ax, a2, g, ax, num(ARM)))
    u = lambda n, ax: "v_u%d%s%d" % (n, ax, i)
    for k, (b, c) in enumerate((("y", "z"), ("z", "x"), ("x", "y"))):
        lines.append("variable u3%s%d equal %s*%s-%s*%s" % ("xyz"[k], i, u(1, b), u(2, c), u(1, c), u(2, b)))
    if body_frame:
        tb = [num(v) for v in tq]
    else:
        tb = ["(%s)" % "+".join("%s*%s" % (u(n, ax), num(tq[k])) for k, ax in enumerate("xyz"))
              for n in (1, 2, 3)]
    a2_ = num(ARM * ARM)
    wb = ["((2*%s+%s)/(3*%s))" % (tb[0], tb[1], a2_), "((%s+2*%s)/(3*%s))" % (tb[0], tb[1], a2_),
          "(%s/(4*%s))" % (tb[2], a2_)]
    for ax in "xyz":
        lines.append("variable w%s%d equal %s*%s+%s*%s+%s*%s"
                     % (ax, i, wb[0], u(1, ax), wb[1], u(2, ax), wb[2], u(3, ax)))
    r = lambda ax: "(%s-xcm(%s,%s))" % (ax, g, ax)
    for ax, (b, c) in zip("xyz", (("y", "z"), ("z", "x"), ("x", "y"))):
        lines.append("variable c%s%d atom v_w%s%d*%s-v_w%s%d*%s" % (ax, i, b, i, r(c), c, i, r(b)))
    lines.append("fix torque%d %s addforce v_cx%d v_cy%d v_cz%d" % ((i, g) + (i,) * 3))


def read_dump(path):
    """{step: {atom id: [values]}} of a LAMMPS custom dump."""
    frames, step, cols = {}, None, None
    with open(path) as f:
        lines = iter(f)
        for line in lines:
            if line.startswith("ITEM: TIMESTEP"):
                step = int(next(lines))
                frames[step] = {}
            elif line.startswith("ITEM: ATOMS"):
                cols = line.split()[2:]
            elif line.startswith("ITEM:"):
                continue
            elif cols is not None and step is not None and line.strip() and len(line.split()) == len(cols):
                vals = line.split()
                frames[step][int(vals[0])] = [float(v) for v in vals[1:]]
    return frames


def node_state(frame, nd, fix, previous_q):
    """Position, velocity, orientation and global angular velocity of node nd in one frame."""
    n = nd.spec
    if not nd.rigid:
        v = frame[nd.atoms[0]]
        state = {"position": v[0:3], "velocity": v[3:6]}
        if fix == "nve/asphere":
            q = mb.same_hemisphere(mb.qnormalize(tuple(v[6:10])), previous_q)
            state["orientation"] = q
            state["angular_velocity"] = mb.omega_from_angmom(q, n["inertia"], v[10:13])
        else:
            state["orientation"] = n["orientation"]       # LAMMPS carries no sphere orientation
            state["angular_velocity"] = v[6:9]
        return state
    atoms = [frame[a] for a in nd.atoms]
    xcm = [sum(a[k] for a in atoms) / 3.0 for k in range(3)]
    vcm = [sum(a[3 + k] for a in atoms) / 3.0 for k in range(3)]
    r = [[a[k] - xcm[k] for k in range(3)] for a in atoms]
    u1 = [c / ARM for c in r[0]]
    u2 = [c / ARM for c in r[1]]
    q = mb.same_hemisphere(mb.quat_from_columns(u1, u2, mb.cross(u1, u2)), previous_q)
    # sum r_i x (v_i - vcm) = (sum |r_i|^2 1 - r_i r_i^T) w  (rigid motion v_i = vcm + w x r_i)
    rhs = [0.0, 0.0, 0.0]
    m = [[0.0] * 3 for _ in range(3)]
    for ri, a in zip(r, atoms):
        rel = [a[3 + k] - vcm[k] for k in range(3)]
        rc = mb.cross(ri, rel)
        rr = mb.dot(ri, ri)
        for p in range(3):
            rhs[p] += rc[p]
            for s in range(3):
                m[p][s] += (rr if p == s else 0.0) - ri[p] * ri[s]
    return {"position": xcm, "velocity": vcm, "orientation": q,
            "angular_velocity": mb.solve3(m, rhs)}


def run_lmp(lines):
    """Run LAMMPS on the input lines (written to in.lammps).  A run that fails before LAMMPS has written its log (the
    start-up of its MPI layer failed: seen once on a loaded machine, status 1 and no log)
    is started once more; a run that fails after writing its log is not repeated."""
    with open("in.lammps", "w") as f:
        f.write("\n".join(lines) + "\n")
    if os.path.exists("lammps.log"):
        os.remove("lammps.log")
    cmd = ["lmp", "-in", "in.lammps", "-log", "lammps.log", "-screen", "none", "-nocite"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0 and not os.path.exists("lammps.log"):
        print("lmp did not start (%s); starting it once more" % failure_tail(done),
              file=sys.stderr)
        done = subprocess.run(cmd, capture_output=True, text=True)
    return done


def failure_tail(done=None):
    """Why LAMMPS failed (mb.explain_failure): its last ERROR line, or that it printed none,
    from its log and its own output (done: the finished process; None in a batch, whose
    status run_planned reports)."""
    text = open("lammps.log").read() if os.path.exists("lammps.log") else ""
    if done is not None:
        text += "\n" + done.stdout + "\n" + done.stderr
    return mb.explain_failure("lmp", done.returncode if done is not None else None, text)


class LmpFailed(Exception):
    """lmp ended without the trajectory (the message is the reason motionbench quotes)."""


def plan(run):
    """(fix, nodes, contact law, pair option): the run checked (declined when the fix or the
    granular styles cannot integrate it; lammps_granular.py)."""
    mb.refuse_models(run, SUPPORTED, "LAMMPS adapter")
    options = run.get("options", {})
    fix = options.get("fix", "nve/sphere" if granular.frictional(run) else "nve")
    if fix not in FIXES:
        raise LmpFailed("option fix=%s is not one of %s" % (fix, ", ".join(FIXES)))
    check_fix(run, fix)
    pair = options.get("pair", "history")
    law = granular.check(run, fix, pair)
    return fix, [Node(i, n, fix) for i, n in enumerate(run["nodes"])], law, pair


def write_rows(run, fix, nodes, dump, out):
    """The trajectory of one run from its dump."""
    frames = read_dump(dump) if os.path.exists(dump) else {}
    rows = []
    previous = [nd.spec["orientation"] for nd in nodes]
    for step, t in mb.sample_steps(run["time"]):
        if step not in frames:
            raise LmpFailed("lmp wrote no state for step %d: %s" % (step, failure_tail()))
        states = []
        for i, nd in enumerate(nodes):
            s = node_state(frames[step], nd, fix, previous[i])
            if step == 0:
                # row 0 is the state sent (doc/external.md, section 4): a rigid body rebuilt
                # from its atoms differs from it by round-off (v = -7e-17 for v0 = 0)
                s = {key: nd.spec[key] for key in mb.STATE_KEYS}
            previous[i] = s["orientation"]
            states.append(s)
        rows.append(mb.state_row(t, states))
    mb.write_trajectory(out, run, rows)


def pair_style_plan(run):
    """(module, its input lines' function) of a run whose force is a pair style on the
    neighbour list (a Lennard-Jones fluid, lammps_lj.py; a granular assembly,
    lammps_assembly.py), checked (declined when not expressed); None for another run."""
    model = lammps_lj.lj_model(run)
    if model is not None:
        lammps_lj.check(run, model, run.get("options", {}).get("fix", "nve"))
        return lammps_lj, lambda tag: lammps_lj.input_lines(run, model, tag)
    model = lammps_assembly.assembly_model(run)
    if model is not None:
        options = run.get("options", {})
        fix = options.get("fix", "nve/sphere")
        pair = options.get("pair", "history")
        lammps_assembly.check(run, model, fix, pair)
        return lammps_assembly, lambda tag: lammps_assembly.input_lines(run, model, fix, pair, tag)
    return None


def write_pair_style_rows(run, module, dump, out):
    """The trajectory of a pair-style run (pair_style_plan) from its dump."""
    frames = read_dump(dump) if os.path.exists(dump) else {}
    try:
        rows = module.rows(run, frames)
    except KeyError as step:
        raise LmpFailed("lmp wrote no state for step %s: %s" % (step, failure_tail()))
    mb.write_trajectory(out, run, rows)


def run_one(run, out):
    """One run (protocol 1): input, lmp, dump read back, trajectory written to out."""
    styled = pair_style_plan(run)
    if styled is not None:
        module, lines = styled
        done = run_lmp(lines(""))
        if done.returncode != 0:
            raise LmpFailed(failure_tail(done))
        write_pair_style_rows(run, module, "traj.dump", out)
        return
    fix, nodes, law, pair = plan(run)
    done = run_lmp(input_lines(run, fix, nodes, law, pair))
    if done.returncode != 0:
        raise LmpFailed(failure_tail(done))
    write_rows(run, fix, nodes, "traj.dump", out)


def run_batch(runs, outdir):
    """Every run of a batch (protocol 2) in one lmp, `clear` between them (mb.run_planned)."""
    planned, kept = [], {}

    def plan_one(run, out):             # pass 1: each run's input, or its decline
        tag = "-%d" % run["id"]
        styled = pair_style_plan(run)
        if styled is not None:
            module, lines = styled
            planned.append((run, "traj%s.dump" % tag, lines(tag)))
            kept[run["id"]] = (None, module, "traj%s.dump" % tag)
            return
        fix, nodes, law, pair = plan(run)
        planned.append((run, "traj%s.dump" % tag, input_lines(run, fix, nodes, law, pair, tag)))
        kept[run["id"]] = (fix, nodes, "traj%s.dump" % tag)

    mb.answer_runs(runs, outdir, plan_one)
    failed = mb.run_planned(planned, lambda lines: run_lmp(lines).returncode, failure_tail)

    def answer(run, out):               # pass 3: each run's trajectory from its dump
        if run["id"] in failed:
            raise LmpFailed("lmp " + failed[run["id"]])
        fix, nodes, dump = kept[run["id"]]
        if fix is None:                 # a pair-style run: kept (None, module, dump)
            write_pair_style_rows(run, nodes, dump, out)
        else:
            write_rows(run, fix, nodes, dump, out)

    mb.answer_runs(runs, outdir, answer, skip_answered=True)
    return 0


def main(argv):
    if len(argv) != 3:
        print("usage: lammps_adapter.py run.json trajectory.csv | runs.json trajectories",
              file=sys.stderr)
        return 2
    try:
        runs = mb.load_batch(argv[1])
        return mb.serve(argv, run_one) if runs is None else run_batch(runs, argv[2])
    except LmpFailed as e:          # a single run (protocol 1): its reason, exit status 1
        print(e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    mb.guard(main, "LAMMPS adapter")
