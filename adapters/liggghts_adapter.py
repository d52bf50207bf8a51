#!/usr/bin/env python3
"""motionbench adapter for LIGGGHTS (Debian liggghts, program `liggghts`): runs motionbench's
runs with LIGGGHTS's `fix nve/sphere` and its granular contact models.

Usage: liggghts_adapter.py run.json trajectory.csv (protocol 1), or runs.json trajectories
(protocol 2: every run of the batch in ONE liggghts process, the runs separated by `clear`,
each with its own dump); doc/external.md.

Translation (doc/peers.md).  LIGGGHTS is a fork of LAMMPS whose input differs: granular atoms
(`atom_style granular`, `communicate single vel yes`, `newton off`), contact laws chosen by
`pair_style gran model M tangential T` with their material constants given as
`fix property/global NAME peratomtypepair N ...` (not as pair_style arguments), walls as
`fix wall/gran ... primitive type T zplane Z`, gravity as `fix gravity`:
- units si (F = m a: the problem's numbers unconverted); a node is a granular atom of type 1,
  its diameter 2 r (1 for a point, which then has no contact), its mass set exactly by
  `set atom K mass M` (not from a density);
- gravity: `fix gravity G vector gx gy gz`;
- linear contacts (contact-linear): `model hooke/stiffness tangential no_history
  absolute_damping on`, F = kn delta + gamman_abs delta' (kn = k, gamman_abs = c), with
  `limitForce on` when the problem's contact is clamped (non-attractive) and off when it is
  `attractive`; sphere-sphere pairs between atoms of type 1, sphere-plane pairs against a
  `fix wall/gran` plane z = const (normal +z) of type 2; one (k, c) per kind of pair;
- friction: coefficientFriction 0 and kt 0 (the contacts of motionbench are normal);
- rows: the state after each step from a dump of every step (velocity Verlet: on-step).
Declined: other force models (springs, central forces, torques, Hertz contacts, drag),
blocked or fixed nodes, planes other than z = const with normal +z, rotation.
"""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mbadapter as mb  # noqa: E402

SUPPORTED = ("gravity", "contact-linear")
LOG = "liggghts.log"


def num(v):
    return repr(float(v))


def one_value(values, what):
    """The one value all pairs of a kind share (LIGGGHTS: one constant per type pair)."""
    values = sorted(set(float(v) for v in values))
    if len(values) > 1:
        mb.decline("LIGGGHTS adapter: %s differs between pairs %s (one per type pair)" % (
            what, values))
    return values[0] if values else 0.0


def contact_constants(run):
    """{"sphere": (k, c), "plane": (k, c, z)}, limitForce, for the contact-linear model."""
    out, limit = {}, True
    for f in run.get("forces", []):
        if f["model"] != "contact-linear":
            continue
        limit = not f.get("attractive", False)
        spheres, planes = mb.contact_pairs(f)
        if spheres:
            out["sphere"] = (one_value([p["k"] for p in spheres], "k"),
                             one_value([p["c"] for p in spheres], "c"))
        if planes:
            for p in planes:
                n = [float(c) for c in p["plane"]["normal"]]
                if n[0] != 0 or n[1] != 0 or n[2] <= 0:
                    mb.decline("LIGGGHTS adapter: only planes z = const with normal +z are "
                               "translated (zplane)")
            out["plane"] = (one_value([p["k"] for p in planes], "k"),
                            one_value([p["c"] for p in planes], "c"),
                            one_value([p["plane"]["point"][2] for p in planes], "plane z"))
    return out, limit


def check(run):
    mb.refuse_models(run, SUPPORTED, "LIGGGHTS adapter")
    if run.get("rotation"):
        mb.decline("LIGGGHTS adapter: rotation is not translated (nve/sphere spins spheres, "
                   "the bench's torques are not expressed)")
    for i, n in enumerate(run["nodes"]):
        if n["mass"] is None or n.get("blocked"):
            mb.decline("LIGGGHTS adapter: node %d is fixed or blocked, not expressed" % i)
    return contact_constants(run)


def pair_matrix(sphere, plane):
    """peratomtypepair 2 values: 11 sphere-sphere, 12 = 21 sphere-wall, 22 unused."""
    return "2 %s %s %s %s" % (num(sphere), num(plane), num(plane), num(plane))


def box(nodes):
    """Bounds holding every node with a margin (boundary m m m grows them as atoms move)."""
    pad = 1.0 + max(float(n["radius"] or 0.5) for n in nodes)
    return " ".join("%s %s" % (num(min(n["position"][a] for n in nodes) - pad),
                               num(max(n["position"][a] for n in nodes) + pad))
                    for a in range(3))


def input_lines(run, dump):
    """The LIGGGHTS input of one run, its dump written to `dump`."""
    contacts, limit = check(run)
    nodes = run["nodes"]
    sk, sc = contacts.get("sphere", (0.0, 0.0))
    pk, pc, pz = contacts.get("plane", (0.0, 0.0, 0.0))
    flags = "absolute_damping on limitForce %s" % ("on" if limit else "off")
    lines = ["atom_style granular", "atom_modify map array", "boundary m m m", "newton off",
             "communicate single vel yes", "units si",
             "region box block %s units box" % box(nodes), "create_box 2 box",
             "neighbor %s bin" % num(0.1 * max([n["radius"] or 0.0 for n in nodes] + [1e-6])),
             "neigh_modify delay 0",
             "fix m1 all property/global kn peratomtypepair " + pair_matrix(sk, pk),
             "fix m2 all property/global kt peratomtypepair " + pair_matrix(0, 0),
             "fix m3 all property/global gamman_abs peratomtypepair " + pair_matrix(sc, pc),
             "fix m4 all property/global gammat_abs peratomtypepair " + pair_matrix(0, 0),
             "fix m5 all property/global coefficientFriction peratomtypepair " + pair_matrix(0, 0),
             "pair_style gran model hooke/stiffness tangential no_history " + flags,
             "pair_coeff * *"]
    for i, n in enumerate(nodes):
        x = n["position"]
        lines += ["create_atoms 1 single %s %s %s units box" % tuple(num(c) for c in x),
                  "set atom %d diameter %s" % (i + 1, num(2 * (n["radius"] or 0.5))),
                  "set atom %d mass %s" % (i + 1, num(n["mass"])),
                  "set atom %d vx %s vy %s vz %s" % ((i + 1,) + tuple(num(c) for c in n["velocity"]))]
    for k, f in enumerate(run.get("forces", [])):
        if f["model"] == "gravity":
            g = [float(c) for c in f["g"]]
            mag = sum(c * c for c in g) ** 0.5
            if mag > 0:
                lines.append("fix g%d all gravity %s vector %s %s %s" % (
                    k, num(mag), num(g[0] / mag), num(g[1] / mag), num(g[2] / mag)))
    if "plane" in contacts:
        # the model's keywords follow the wall's geometry here (before it: 'Unknown argument
        # or wrong keyword order: primitive'), unlike pair_style gran's
        lines.append("fix wall all wall/gran model hooke/stiffness tangential no_history "
                     "primitive type 2 zplane %s %s" % (num(pz), flags))
    time = run["time"]
    lines += ["fix integrate all nve/sphere", "timestep %s" % num(time["dt"]),
              "dump d all custom 1 %s id x y z vx vy vz" % dump,
              'dump_modify d format "%d' + " %.17g" * 6 + '" sort id',
              "thermo_style custom step", "thermo 0",
              "run %d" % int(time["steps"]), "clear"]
    return lines


def read_dump(path):
    """{step: {atom id: [x y z vx vy vz]}} of the dump."""
    frames, step, in_atoms = {}, None, False
    with open(path) as f:
        lines = iter(f)
        for line in lines:
            if line.startswith("ITEM: TIMESTEP"):
                step, in_atoms = int(next(lines)), False
                frames[step] = {}
            elif line.startswith("ITEM: ATOMS"):
                in_atoms = True
            elif line.startswith("ITEM:"):
                in_atoms = False
            elif in_atoms and line.strip():
                v = line.split()
                frames[step][int(v[0])] = [float(c) for c in v[1:7]]
    return frames


def log_tail():
    """The last two lines of liggghts's log, printable ASCII only (its error messages can end
    in bytes of uninitialised memory)."""
    if not os.path.exists(LOG):
        return "(no log)"
    text = open(LOG, "rb").read().decode("ascii", "replace")
    lines = ["".join(c for c in ln if " " <= c <= "~").strip() for ln in text.splitlines()]
    return " | ".join([ln for ln in lines if ln][-2:])


def write_rows(run, dump, out, why=None):
    """The trajectory of one run from its dump (why: the reason it has none)."""
    if why:
        raise RuntimeError(why)
    if not os.path.exists(dump):
        raise RuntimeError("liggghts wrote no dump for this run: %s" % log_tail())
    frames = read_dump(dump)
    nodes = run["nodes"]
    rows = [mb.state_row(0.0, [{"position": n["position"], "velocity": n["velocity"]}
                               for n in nodes])]
    for step, t in mb.sample_steps(run["time"])[1:]:
        if step not in frames or len(frames[step]) != len(nodes):
            raise RuntimeError("liggghts wrote no state for step %d: %s" % (step, log_tail()))
        rows.append(mb.state_row(t, [{"position": frames[step][i + 1][0:3],
                                      "velocity": frames[step][i + 1][3:6]}
                                     for i in range(len(nodes))]))
    mb.write_trajectory(out, run, rows)


def liggghts(script):
    with open("in.liggghts", "w") as f:
        f.write("\n".join(script) + "\n")
    done = subprocess.run(["liggghts", "-in", "in.liggghts", "-log", LOG, "-screen", "none"],
                          capture_output=True)
    if done.returncode != 0:
        print("liggghts ended with status %d: %s" % (done.returncode, log_tail()),
              file=sys.stderr)
    return done.returncode


def main(argv):
    if len(argv) != 3:
        print("usage: liggghts_adapter.py run.json trajectory.csv | runs.json trajectories",
              file=sys.stderr)
        return 2
    runs = mb.load_batch(argv[1])
    if runs is None:                    # protocol 1: one run, one liggghts
        run = mb.load_run(argv[1])
        liggghts(input_lines(run, "traj-0.dump"))
        try:
            write_rows(run, "traj-0.dump", argv[2])
        except RuntimeError as e:
            print(e, file=sys.stderr)
            return 1
        return 0
    planned = []

    def plan(run, out):                 # pass 1: each run's input, or its decline
        dump = "traj-%d.dump" % run["id"]
        planned.append((run, dump, input_lines(run, dump)))

    mb.answer_runs(runs, argv[2], plan)
    failed = mb.run_planned(planned, liggghts, log_tail)   # pass 2: in one liggghts
    dumps = {run["id"]: dump for run, dump, _ in planned}

    def answer(run, out):               # pass 3: each run's trajectory from its dump
        why = failed.get(run["id"])
        write_rows(run, dumps[run["id"]], out, "liggghts " + why if why else None)

    mb.answer_runs(runs, argv[2], answer, skip_answered=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
