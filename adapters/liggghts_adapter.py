#!/usr/bin/env python3
"""motionbench adapter for LIGGGHTS (Debian liggghts, program `liggghts`): runs motionbench's
runs with LIGGGHTS's `fix nve/sphere` and its granular contact models.

Usage: liggghts_adapter.py run.json trajectory.csv (protocol 1), or runs.json trajectories
(protocol 2: every run of the batch in ONE liggghts process, the runs separated by `clear`,
each with its own dump); doc/external.md.

Translation (doc/peers.md).  LIGGGHTS is a fork of LAMMPS whose input differs: granular atoms
(`atom_style granular`, `communicate single vel yes`, `newton off`), contact laws chosen by
`pair_style gran model M tangential T [rolling_friction cdt]` with their material constants
given as `fix property/global NAME peratomtypepair N ...` (not as pair_style arguments), walls
as `fix wall/gran ... primitive type T zplane Z`, gravity as `fix gravity`:
- units si (F = m a: the problem's numbers unconverted); a node is a granular atom of type 1,
  its diameter 2 r (1 for a point, which then has no contact), its mass set exactly by
  `set atom K mass M` (not from a density), its angular velocity by `set atom K omegax W
  omegay W omegaz W` (LIGGGHTS has no `set omega`);
- gravity: `fix gravity G vector gx gy gz`;
- contact laws (run.json's contact fields, doc/external.md), one per run, sphere-sphere pairs
  between atoms of type 1 and sphere-plane pairs against a `fix wall/gran` plane z = const
  (normal +z) of type 2, one constant per kind of pair (LIGGGHTS: one per type pair):
    contact-linear          hooke/stiffness tangential no_history absolute_damping on:
                            kn = k, gamman_abs = c
    contact-cundall-strack  hooke/stiffness tangential history absolute_damping on:
                            kn = k, kt = kt, gamman_abs = c, gammat_abs = ct
                            (tangential_damping on when ct > 0), coefficientFriction = mu
    contact-hertz           hertz/stiffness tangential no_history: kn = K/sqrt(R*)
    contact-hertz-mindlin   hertz/stiffness tangential history: kn = K/sqrt(R*),
                            kt = kt/sqrt(R*), coefficientFriction = mu
  (hertz/stiffness multiplies kn and kt by sqrt(R* delta), R* = r for a wall); `limitForce on`
  when the problem's contact is clamped (non-attractive), off when it is `attractive`; the
  constant rolling torque (model A of Ai et al. 2011) as `rolling_friction cdt` with
  coefficientRollingFriction = mu_roll = roll/R*.  What LIGGGHTS does, read in its public
  source (surface_model_default.h, tangential_model_history.h, rolling_model_cdt.h) and
  confirmed by the measurements of doc/peers.md: arms r - delta/2 (the bench's); the history
  incremented by u_t dt with the half-kicked velocity, then projected on the new tangent
  plane without restoring its length (the bench restores it); held at the Coulomb limit, the
  dashpot idle, while sliding (the bench's rule) -- but the limit applies to the spring's
  force alone and the dashpot is added unlimited when the spring is below it (the bench
  limits the sum); the rolling torque from the spring's part of the normal force kn delta,
  with the arm r - delta/2 on a wall (the bench: the whole clamped normal force, arm R*).
- rows: the state after each step from a dump of every step (velocity Verlet: on-step);
  fix nve/sphere carries no orientation: the orientation column stays at the node's q0.
- granular assemblies on the neighbour list (the granular-* models: every two spheres, a
  periodic box): liggghts_assembly.py, the constants of the law's contact model as above
  (liggghts_granular.py), a dump of the sampled steps only.
Declined: other force models (springs, central forces, torques, drag), a Hertzian dashpot
(hertz/stiffness's scales as delta^(1/2), the bench's Tsuji dashpot as delta^(1/4)), rotating
nodes that are not solid spheres (I = 2/5 m r^2), blocked or fixed nodes, planes other than
z = const with normal +z, several contact laws in one run.
"""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mbadapter as mb  # noqa: E402
import lammps_assembly  # noqa: E402
import liggghts_assembly as assembly  # noqa: E402
from liggghts_granular import NAMES, model_words, one_value, pair_constants, property_lines  # noqa: E402
from lammps_pair_run import num  # noqa: E402

LAWS = ("contact-linear", "contact-cundall-strack", "contact-hertz", "contact-hertz-mindlin")
SUPPORTED = ("gravity",) + LAWS + lammps_assembly.MODELS
LOG = "liggghts.log"


def contact_law(run):
    """The run's contact law as LIGGGHTS input, or None without contacts: {"name", "sphere":
    {property: value}, "plane": {property: value} (with "z")}, limitForce, tangential damping}."""
    models = [f for f in run.get("forces", []) if f.get("model", "").startswith("contact-")]
    if not models:
        return None
    names = {m["model"] for m in models}
    if len(names) > 1:
        mb.decline("LIGGGHTS adapter: one contact law per run is translated (got %s)"
                   % ", ".join(sorted(names)))
    name = models[0]["model"]
    law = {"name": name, "limit": not models[0].get("attractive", False)}
    spheres, planes = [], []
    for m in models:
        s, p = mb.contact_pairs(m)
        spheres += [(m, q) for q in s]
        planes += [(m, q) for q in p]
    for m, p in planes:
        n = [float(c) for c in p["plane"]["normal"]]
        if n[0] != 0 or n[1] != 0 or n[2] <= 0:
            mb.decline("LIGGGHTS adapter: only planes z = const with normal +z are "
                       "translated (zplane)")
    for kind, pairs in (("sphere", spheres), ("plane", planes)):
        if not pairs:
            continue
        each = [pair_constants(name, m, p) for m, p in pairs]
        law[kind] = {key: one_value([e[key] for e in each], key) for key in NAMES}
    if planes:
        law["plane"]["z"] = one_value([p["plane"]["point"][2] for _, p in planes], "plane z")
    law["tdamp"] = any(law[kind]["gammat"] > 0 for kind in ("sphere", "plane") if kind in law)
    law["roll"] = any(law[kind]["coefficientRollingFriction"] > 0
                      for kind in ("sphere", "plane") if kind in law)
    return law


def check(run):
    mb.refuse_models(run, SUPPORTED, "LIGGGHTS adapter")
    for i, n in enumerate(run["nodes"]):
        if n["mass"] is None or n.get("blocked"):
            mb.decline("LIGGGHTS adapter: node %d is fixed or blocked, not expressed" % i)
        if run.get("rotation"):
            inertia, r = n.get("inertia") or [0, 0, 0], n.get("radius")
            solid = r is not None and all(abs(c - 0.4 * n["mass"] * r * r) <= 1e-12 * c
                                          for c in inertia)
            if not solid:
                mb.decline("LIGGGHTS adapter: fix nve/sphere turns solid spheres "
                           "(I = 2/5 m r^2); node %d is not one" % i)
    return contact_law(run)


def box(nodes):
    """Bounds holding every node with a margin (boundary m m m grows them as atoms move)."""
    pad = 1.0 + max(float(n["radius"] or 0.5) for n in nodes)
    return " ".join("%s %s" % (num(min(n["position"][a] for n in nodes) - pad),
                               num(max(n["position"][a] for n in nodes) + pad))
                    for a in range(3))


def input_lines(run, dump):
    """The LIGGGHTS input of one run, its dump written to `dump` (a granular assembly on the
    neighbour list: liggghts_assembly.py)."""
    model = assembly.assembly_model(run)
    if model is not None:
        return assembly.input_lines(run, model, dump)
    law = check(run)
    nodes = run["nodes"]
    lines = ["atom_style granular", "atom_modify map array", "boundary m m m", "newton off",
             "communicate single vel yes", "units si",
             "region box block %s units box" % box(nodes), "create_box 2 box",
             "neighbor %s bin" % num(0.1 * max([n["radius"] or 0.0 for n in nodes] + [1e-6])),
             "neigh_modify delay 0"]
    if law is None:         # no contact: a linear law of zero stiffness between the atoms
        law = {"name": "contact-linear", "limit": True, "tdamp": False, "roll": False}
    model, flags = model_words(law)
    lines += property_lines(law)
    lines += ["pair_style gran %s %s" % (model, flags), "pair_coeff * *"]
    for i, n in enumerate(nodes):
        x = n["position"]
        lines += ["create_atoms 1 single %s %s %s units box" % tuple(num(c) for c in x),
                  "set atom %d diameter %s" % (i + 1, num(2 * (n["radius"] or 0.5))),
                  "set atom %d mass %s" % (i + 1, num(n["mass"])),
                  "set atom %d vx %s vy %s vz %s" % ((i + 1,) + tuple(num(c) for c in n["velocity"]))]
        if run.get("rotation"):
            lines.append("set atom %d omegax %s omegay %s omegaz %s" % (
                (i + 1,) + tuple(num(c) for c in n["angular_velocity"])))
    for k, f in enumerate(run.get("forces", [])):
        if f["model"] == "gravity":
            g = [float(c) for c in f["g"]]
            mag = sum(c * c for c in g) ** 0.5
            if mag > 0:
                lines.append("fix g%d all gravity %s vector %s %s %s" % (
                    k, num(mag), num(g[0] / mag), num(g[1] / mag), num(g[2] / mag)))
    if "plane" in law:
        # the model's settings follow the wall's geometry here (before it: 'Unknown argument
        # or wrong keyword order: primitive'), unlike pair_style gran's
        lines.append("fix wall all wall/gran %s primitive type 2 zplane %s %s"
                     % (model, num(law["plane"]["z"]), flags))
    time = run["time"]
    cols = "id x y z vx vy vz" + (" omegax omegay omegaz" if run.get("rotation") else "")
    width = len(cols.split()) - 1
    lines += ["fix integrate all nve/sphere", "timestep %s" % num(time["dt"]),
              "dump d all custom 1 %s %s" % (dump, cols),
              'dump_modify d format "%d' + " %.17g" * width + '" sort id',
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
                frames[step][int(v[0])] = [float(c) for c in v[1:]]
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
    rotating = run.get("rotation", False)

    def node_state(n, v):
        state = {"position": v[0:3], "velocity": v[3:6]}
        if rotating:        # nve/sphere has no orientation: q0 is returned
            state.update(orientation=n["orientation"], angular_velocity=v[6:9])
        return state

    rows = [mb.state_row(0.0, [node_state(n, list(n["position"]) + list(n["velocity"])
                                          + list(n.get("angular_velocity") or [0, 0, 0]))
                               for n in nodes])]
    for step, t in mb.sample_steps(run["time"])[1:]:
        if step not in frames or len(frames[step]) != len(nodes):
            raise RuntimeError("liggghts wrote no state for step %d: %s" % (step, log_tail()))
        rows.append(mb.state_row(t, [node_state(n, frames[step][i + 1])
                                     for i, n in enumerate(nodes)]))
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
