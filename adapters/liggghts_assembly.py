"""Granular assemblies for the LIGGGHTS adapter (doc/peers.md, "Granular assemblies").

A run.json whose contact model is a pair style on the neighbour list (`granular-linear`,
`granular-cundall-strack`, `granular-hertz`, `granular-hertz-mindlin`: every two spheres of the
system, doc/external.md section 3) becomes, as in lammps_assembly.py (whose per-pair
coefficients, data file, masses and skin it takes: LIGGGHTS reads LAMMPS's data file, its
`atom_style granular` is LAMMPS's `sphere`):
- the law's constants for every two kinds of sphere (mass, radius) of the run as
  liggghts_granular.py maps a listed pair (hooke/stiffness with absolute damping for the
  linear laws: kn = k, gamman_abs = c, kt, gammat_abs = ct, coefficientFriction = mu;
  hertz/stiffness kn = K/sqrt(R*), undamped), one atom type, so the kinds must give one set
  of constants (one_value), otherwise the run is declined, as are walls and a deforming cell;
  `limitForce off` for the unclamped (attractive) law of the assembly, on when clamped;
- `boundary p p p` and the box [0, L0) x [0, L1) x [0, L2) of a periodic model (`m m m`, a
  box that grows as the atoms move, in open space); atoms in their box image with their image
  flags (x = x_box + image L), masses set exactly with `set` afterwards;
- neighbours: `neighbor SKIN bin` with `neigh_modify every 1 delay 0 check yes` (a rebuild on
  the first step some atom has moved half the skin: no contact missed, lammps_assembly.py);
  `communicate single vel yes` (the ghosts' velocities enter the dashpots);
- `fix nve/sphere`; a dump of every sampled step (run.json's sample_every): unwrapped
  positions (xu yu zu), velocities, and angular velocities when the run rotates; the last
  step, when off the dump's period, by a second run of the remaining steps dumped every step
  into the same file (LIGGGHTS has no write_dump)."""

import os

import lammps_assembly
import lammps_pair_run as pair_run
from lammps_pair_run import num
from liggghts_granular import NAMES, model_words, one_value, pair_constants, property_lines
import mbadapter as mb


def check(run, model):
    """Decline what this translation cannot express; return the law as liggghts_granular
    reads it ({"name", "sphere": {constant: value}, "limit", "tdamp", "roll"})."""
    lammps_assembly.check_spheres(run, model, "LIGGGHTS")
    name, fields, records, _ = lammps_assembly.law(run, model)
    each = [pair_constants(name, fields, rec) for rec in records]
    sphere = {key: one_value([e[key] for e in each], key) for key in NAMES}
    clamped = fields.get("clamped", not fields.get("attractive", False))
    return {"name": name, "sphere": sphere, "limit": bool(clamped),
            "tdamp": sphere["gammat"] > 0, "roll": sphere["coefficientRollingFriction"] > 0}


def dump_lines(run, dump, cols):
    """The integration and the dump of the sampled steps, ending with `clear`."""
    every, steps = pair_run.sampling(run["time"])
    fmt = 'dump_modify %s format "%%d' + " %%.17g" * (len(cols.split()) - 1) + '" sort id'
    lines = ["fix integrate all nve/sphere", "timestep %s" % num(run["time"]["dt"]),
             "dump d all custom %d %s %s" % (every, dump, cols), fmt % "d",
             "thermo_style custom step", "thermo 0"]
    if steps % every == 0:
        return lines + ["run %d" % steps, "clear"]
    # the remaining steps continue the run without its set-up (pre no): a set-up would
    # recompute the forces with the on-step velocities, not those of the last force call
    # (the dashpots' half-kicked ones), and change the orbit
    return lines + ["run %d post no" % (steps - steps % every), "undump d",
                    "dump e all custom 1 %s %s" % (dump, cols), fmt % "e",
                    "dump_modify e append yes", "run %d pre no" % (steps % every), "clear"]


def assembly_model(run):
    """The one granular-* model of run.json, or None when there is none."""
    found = [f for f in run.get("forces", []) if f.get("model") in lammps_assembly.MODELS]
    if not found:
        return None
    if len(run.get("forces", [])) > 1:
        mb.decline("LIGGGHTS adapter: a granular assembly with other force models is not "
                   "translated")
    return found[0]


def input_lines(run, model, dump):
    """The LIGGGHTS input of one run (its data file, beside the dump, written now), the
    sampled states dumped to `dump`."""
    law = check(run, model)
    data = os.path.splitext(dump)[0] + ".data"
    lammps_assembly.write_data(run, model, data)
    boundary = "p p p" if model["boundary"] == "periodic" else "m m m"
    pair, flags = model_words(law)
    lines = ["atom_style granular", "atom_modify map array", "boundary %s" % boundary,
             "newton off", "communicate single vel yes", "units si", "read_data %s" % data]
    lines += lammps_assembly.set_lines(run["nodes"])
    lines += property_lines(law, types=1)
    lines += ["pair_style gran %s %s" % (pair, flags), "pair_coeff * *",
              "neighbor %s bin" % num(lammps_assembly.skin(model, run["nodes"])),
              "neigh_modify every 1 delay 0 check yes"]
    cols = "id xu yu zu vx vy vz" + (" omegax omegay omegaz" if run.get("rotation") else "")
    return lines + dump_lines(run, dump, cols)
