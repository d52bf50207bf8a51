#!/usr/bin/python3
"""motionbench adapter for ASE, the Atomic Simulation Environment (Debian python3-ase): runs
motionbench's runs with ASE's molecular-dynamics integrators.

Usage: ase_adapter.py run.json trajectory.csv (protocol 1), or runs.json trajectories
(protocol 2: every run in this one interpreter); doc/external.md.
Option md = verlet (ase.md.verlet.VelocityVerlet, default) | langevin (ase.md.langevin.Langevin
with friction 0 and temperature 0: its deterministic part alone).

Translation (doc/peers.md):
- every node is one atom of an ase.Atoms without periodic cell, its mass the node's mass and its
  momentum m v0;
- units: ASE's own (eV, Angstrom, amu, and the time unit Angstrom sqrt(amu/eV)) in which F = m a
  holds without factors, so the problem's numbers are passed unconverted and the time step is
  dt itself (no ase.units.fs); checked on free fall, exact to round-off (doc/peers.md);
- forces come from a Calculator written here (MotionbenchForces): gravity, springs without
  dashpot, central forces and undamped sphere-sphere linear contacts, all functions of the
  positions alone, as an ASE calculator must be; drag, dashpots, torques and rotation are
  declined (ASE's MD integrators move point atoms by forces of their positions);
- a Lennard-Jones fluid (`lj-cut` in a periodic box, src/forces/pair_lj.c) is ASE's own
  calculator ase.calculators.lj.LennardJones(epsilon, sigma, rc = cutoff, smooth = False):
  V(r) - V(rc) for r <= rc, the force jumping to zero at rc, as the bench's lj-cut; the atoms in
  a periodic cell of the model's box (positions as given, not wrapped: the bench takes the
  minimum image itself).  ASE's neighbour list (ase.neighborlist.NeighborList, skin 0.3) is
  rebuilt when an atom has moved half its skin, so no pair is missed.  `lj-smooth` (the
  force-shifted V(r) - V(rc) - (r - rc) V'(rc)) is declined: ASE's `smooth = True` multiplies
  V by a cutoff function between ro and rc (after JAX-MD and HOOMD-blue), another potential;
- rows: the state after each step, velocities on-step (VelocityVerlet's p is at the step).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mbadapter as mb  # noqa: E402

try:
    import numpy as np
    from ase import Atoms
    from ase.calculators.calculator import Calculator, all_changes
    from ase.calculators.lj import LennardJones
    from ase.md.langevin import Langevin
    from ase.md.verlet import VelocityVerlet
    MISSING = None
except ImportError as e:      # the run is declined (status skipped), not failed
    MISSING = "ASE is not importable by %s: %s (Debian package python3-ase)" % (sys.executable, e)

SUPPORTED = ("gravity", "springs", "central", "contact-linear", "lj-cut")
INTEGRATORS = ("verlet", "langevin")


def check(run):
    """Decline what a position-dependent ASE calculator on point atoms cannot express."""
    if MISSING:
        mb.decline(MISSING)
    if any(f["model"] == "lj-smooth" for f in run.get("forces", [])):
        mb.decline("ASE adapter: the force-shifted lj-smooth is not ASE's: LennardJones(smooth="
                   "True) multiplies V by a cutoff function between ro and rc, another potential")
    mb.refuse_models(run, SUPPORTED, "ASE adapter")
    if run.get("rotation"):
        mb.decline("ASE adapter: ASE's MD integrators move point atoms; this problem rotates")
    for i, n in enumerate(run["nodes"]):
        if n["mass"] is None or n.get("blocked"):
            mb.decline("ASE adapter: node %d is fixed or blocked, not expressed" % i)
    for f in run.get("forces", []):
        if f["model"] == "lj-cut" and ("box" not in f or len(run["forces"]) > 1):
            mb.decline("ASE adapter: a Lennard-Jones fluid is translated in a periodic box and "
                       "alone (ASE's LennardJones is the whole calculator)")
        if f["model"] == "springs" and any(float(s.get("c", 0)) != 0 for s in f["springs"]):
            mb.decline("ASE adapter: a spring dashpot depends on velocities, which an ASE "
                       "calculator is not given")
        if f["model"] == "contact-linear":
            spheres, planes = mb.contact_pairs(f)
            if planes or any(float(p.get("c", 0)) != 0 for p in spheres):
                mb.decline("ASE adapter: only undamped sphere-sphere contacts are translated")
    md = run.get("options", {}).get("md", "verlet")
    if md not in INTEGRATORS:
        raise ValueError("option md=%s is not one of %s" % (md, ", ".join(INTEGRATORS)))
    return md


def spring_forces(model, x, f):
    """f_i = [k (l - rest)] n with n = (x_j - x_i)/l; rest = 0: f_i = k (x_j - x_i)."""
    for s in model["springs"]:
        i, k, rest = int(s["i"]), float(s["k"]), float(s["rest"])
        xj = np.array(s["anchor"], dtype=float) if "anchor" in s else x[int(s["j"])]
        d = xj - x[i]
        fi = k * d if rest == 0 else k * (np.linalg.norm(d) - rest) * d / np.linalg.norm(d)
        f[i] += fi
        if "anchor" not in s:
            f[int(s["j"])] -= fi


def central_forces(model, x, masses, f):
    """f_i = -mu m_i (x_i - c)/|x_i - c|^3."""
    c = np.array(model["centre"], dtype=float)
    for i in range(len(x)):
        r = x[i] - c
        f[i] += -float(model["mu"]) * masses[i] * r / np.linalg.norm(r) ** 3


def contact_forces(model, x, radii, f):
    """Linear contact k delta along the centre line while delta = r_i + r_j - |x_j - x_i| > 0."""
    for p in mb.contact_pairs(model)[0]:
        i, j = int(p["i"]), int(p["j"])
        d = x[j] - x[i]
        dist = np.linalg.norm(d)
        delta = radii[i] + radii[j] - dist
        if delta > 0 or model.get("attractive"):
            f[i] -= float(p["k"]) * delta * d / dist
            f[j] += float(p["k"]) * delta * d / dist


class MotionbenchForces(Calculator):
    """An ASE calculator of run.json's force models (functions of the positions)."""

    implemented_properties = ["energy", "forces"]

    def __init__(self, run):
        Calculator.__init__(self)
        self.models = run.get("forces", [])
        self.radii = [float(n["radius"] or 0.0) for n in run["nodes"]]

    def calculate(self, atoms=None, properties=("forces",), system_changes=all_changes):
        Calculator.calculate(self, atoms, properties, system_changes)
        x, masses = self.atoms.get_positions(), self.atoms.get_masses()
        f = np.zeros_like(x)
        for m in self.models:
            if m["model"] == "gravity":
                f += masses[:, None] * np.array(m["g"], dtype=float)
            elif m["model"] == "springs":
                spring_forces(m, x, f)
            elif m["model"] == "central":
                central_forces(m, x, masses, f)
            elif m["model"] == "contact-linear":
                contact_forces(m, x, self.radii, f)
        # the integrators use forces only; the potential is not needed by motionbench
        self.results = {"forces": f, "energy": 0.0}


def lennard_jones(run):
    """ASE's LennardJones for the run's lj-cut model and the periodic cell of its box."""
    f = run["forces"][0]
    calc = LennardJones(epsilon=float(f["epsilon"]), sigma=float(f["sigma"]),
                        rc=float(f["cutoff"]), smooth=False)
    return calc, [float(b) for b in f["box"]]


def run_one(run, out):
    """Integrate one run with the chosen ASE integrator and write its trajectory to out."""
    md = check(run)
    nodes = run["nodes"]
    fluid = any(f["model"] == "lj-cut" for f in run.get("forces", []))
    calc, cell = lennard_jones(run) if fluid else (MotionbenchForces(run), None)
    atoms = Atoms(symbols=["X"] * len(nodes), positions=[n["position"] for n in nodes],
                  masses=[n["mass"] for n in nodes], cell=cell, pbc=fluid)
    atoms.set_velocities([n["velocity"] for n in nodes])
    atoms.calc = calc
    dt = float(run["time"]["dt"])
    if md == "verlet":
        dyn = VelocityVerlet(atoms, timestep=dt)
    else:
        dyn = Langevin(atoms, timestep=dt, temperature_K=0.0, friction=0.0, fixcm=False)
    rows = [mb.state_row(0.0, [{"position": n["position"], "velocity": n["velocity"]}
                              for n in nodes])]
    samples = mb.sample_steps(run["time"])
    wanted = dict(samples[1:])
    forces = None
    for step in range(1, samples[-1][0] + 1):
        forces = dyn.step(forces)
        if step in wanted:
            x, v = atoms.get_positions(), atoms.get_velocities()
            rows.append(mb.state_row(wanted[step], [{"position": x[i], "velocity": v[i]}
                                                    for i in range(len(nodes))]))
    mb.write_trajectory(out, run, rows)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: ase_adapter.py run.json trajectory.csv | runs.json trajectories",
              file=sys.stderr)
        sys.exit(2)
    sys.exit(mb.serve(sys.argv, run_one))
