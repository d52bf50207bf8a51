"""Lennard-Jones fluids for the LAMMPS adapter (doc/peers.md, doc/statistics.md).

A run.json whose force model is `lj-cut` or `lj-smooth` (src/forces/pair_lj.c) in a periodic
box becomes:
- `boundary p p p`, the box [0, L0) x [0, L1) x [0, L2) of the model's "box", one atom type,
  atoms and velocities from a data file written with 17 significant digits (read back exactly);
- `lj-cut`:    pair_style lj/cut rc, pair_modify shift yes   (V(r) - V(rc), force jumps at rc)
  `lj-smooth`: pair_style lj/smooth/linear rc                (V(r) - V(rc) - (r - rc) V'(rc));
- `neighbor SKIN bin`, `neigh_modify every 1 delay 0 check yes` (a rebuild whenever an atom
  moved half the skin: no pair is missed), `fix nve` (velocity Verlet, on-step velocities);
- a dump of the unwrapped positions (xu yu zu: continuous across the faces, the bench takes
  the minimum image itself) and velocities at the sampled steps only (run.json's sample_every),
  the last step appended by write_dump when it is off the period.
Only fix=nve is offered here; every atom must have the same mass."""

import mbadapter as mb
from lammps_pair_run import num
import lammps_pair_run as pair_run

MODELS = ("lj-cut", "lj-smooth")


def lj_model(run):
    """The one Lennard-Jones model of run.json, or None when there is none."""
    found = [f for f in run.get("forces", []) if f.get("model") in MODELS]
    if not found:
        return None
    if len(found) > 1 or len(run.get("forces", [])) > 1:
        mb.decline("LAMMPS adapter: a Lennard-Jones fluid with other force models is not translated")
    return found[0]


def check(run, model, fix):
    """Decline what this translation cannot express."""
    if fix != "nve":
        mb.decline("LAMMPS adapter: a Lennard-Jones fluid runs under fix nve only (asked: %s)" % fix)
    if run.get("rotation"):
        mb.decline("LAMMPS adapter: a rotating Lennard-Jones fluid is not translated")
    if "box" not in model:
        mb.decline("LAMMPS adapter: a Lennard-Jones fluid without a periodic box is not translated")
    masses = {n.get("mass") for n in run["nodes"]}
    if len(masses) != 1 or None in masses:
        mb.decline("LAMMPS adapter: the atoms of a Lennard-Jones fluid must share one finite mass")
    if any(n.get("blocked") for n in run["nodes"]):
        mb.decline("LAMMPS adapter: blocked degrees of freedom are not expressed")


def write_data(run, model, path):
    """The LAMMPS data file: box, one type with its mass, atoms in their box image, velocities."""
    box = [float(b) for b in model["box"]]
    nodes = run["nodes"]
    lines = ["motionbench Lennard-Jones fluid", "", "%d atoms" % len(nodes), "1 atom types", ""]
    for k, axis in enumerate("xyz"):
        lines.append("0 %s %slo %shi" % (num(box[k]), axis, axis))
    lines += ["", "Masses", "", "1 %s" % num(nodes[0]["mass"]), "", "Atoms # atomic", ""]
    for i, n in enumerate(nodes, 1):
        # x = x_box + image L with x_box in [0, L): LAMMPS keeps x_box and the image flags, and
        # xu = x_box + image L gives x back (exactly when x is already in the box)
        img = [int((float(n["position"][k]) // box[k])) for k in range(3)]
        xb = [float(n["position"][k]) - img[k] * box[k] for k in range(3)]
        lines.append("%d 1 %s %s %s %d %d %d" % ((i,) + tuple(num(c) for c in xb) + tuple(img)))
    lines += ["", "Velocities", ""]
    for i, n in enumerate(nodes, 1):
        lines.append("%d %s %s %s" % ((i,) + tuple(num(c) for c in n["velocity"])))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def pair_lines(model):
    rc, eps, sigma = num(model["cutoff"]), num(model["epsilon"]), num(model["sigma"])
    if model["model"] == "lj-cut":
        return ["pair_style lj/cut %s" % rc, "pair_coeff 1 1 %s %s %s" % (eps, sigma, rc),
                "pair_modify shift yes"]
    return ["pair_style lj/smooth/linear %s" % rc, "pair_coeff 1 1 %s %s %s" % (eps, sigma, rc)]


def input_lines(run, model, tag=""):
    """The LAMMPS input of one run (its data file fluid{tag}.data written now), the sampled
    states dumped to traj{tag}.dump, ending with `clear` (the runs of a batch follow each
    other in one lmp)."""
    data, dump = "fluid%s.data" % tag, "traj%s.dump" % tag
    write_data(run, model, data)
    lines = ["units lj", "dimension 3", "boundary p p p", "atom_style atomic",
             "atom_modify map array", "read_data %s" % data]
    lines += pair_lines(model)
    lines += ["neighbor %s bin" % num(model.get("skin", 0.3)), "neigh_modify every 1 delay 0 check yes"]
    return lines + pair_run.run_lines("nve", run["time"], dump, "id xu yu zu vx vy vz")


def rows(run, frames):
    """The trajectory rows at the requested steps (no spins: zero angular velocity)."""
    return pair_run.rows(run, frames, spins=False)
