#!/usr/bin/env python3
"""motionbench adapter for GROMACS (`gmx_d`, the double-precision build of Debian's gromacs):
runs a Lennard-Jones fluid with GROMACS's leap-frog (`integrator = md`) or its velocity Verlet
(`integrator = md-vv`).

Usage: gromacs_adapter.py run.json trajectory.csv (protocol 1), or runs.json trajectories
(protocol 2: every run in this one interpreter, `gmx_d grompp` and `gmx_d mdrun` once per run:
GROMACS runs one simulation per mdrun); doc/external.md.
Option: integrator = md-vv (default) | md.

Translation (doc/peers.md):
- the run's one `lj-cut` model in its periodic box (src/forces/pair_lj.c): one atom type of
  sigma and epsilon (`[ defaults ]` nbfunc 1, comb-rule 2: sigma and epsilon given as they
  are), `vdwtype = Cut-off` with `vdw-modifier = Potential-shift`: V(r) - V(rc) below rc, the
  force jumping to zero at rc, as the bench's lj-cut (`lj-smooth`, the force-shifted form, is
  declined: GROMACS's `Force-switch` switches the force over [rvdw-switch, rvdw], another
  potential); no charges, no dispersion correction, `comm-mode = None` (the centre of mass
  is not reset: grompp's one warning, about that, is allowed with -maxwarn 1),
  `tcoupl = pcoupl = no`;
- units: GROMACS's nm, ps, amu, kJ/mol are coherent (1 kJ/mol = 1 amu nm^2 / ps^2), so the
  reduced numbers pass unchanged and dt is dt;
- pair list: `nstlist = 1`, `verlet-buffer-tolerance = -1`, rlist = rc: rebuilt every step,
  no pair is missed;
- input state: a GROMOS-96 file (.g96), whose fields GROMACS reads with a width of 15
  characters: each number is written with as many significant digits as fit (13 for a
  position below 10), so GROMACS starts from run.json's state to about 1e-13 relative; row 0
  is run.json's state itself;
- output: the .trr trajectory of the double-precision build (x, v, f in doubles, read here
  with the XDR layout of GROMACS's trrio) at the sampled steps;
- `md` (leap-frog) writes, at step k, x(t_k) and v(t_k - h/2), and takes the velocities it is
  given as v(-h/2) (measured: x(h) = x0 + h v0 + h^2 f0/m to 9e-16, where md-vv gives
  x0 + h v0 + h^2 f0/(2m), on a perturbed lattice by hand).  The rows' velocities are made
  on-step with GROMACS's own forces of the frame, v(t_k) = v(t_k - h/2) + (h/2) f(t_k)/m (the
  leap-frog's on-step velocity).  The given velocities are passed as they are: the fluids of
  the bench start on a lattice, where f(0) = 0 and v(-h/2) = v(0) - (h/2) f(0)/m = v(0)
  (checked on frame 0's forces: a half kick above 1e-12 of the speeds declines the run).
Declined: any other force model, several masses, fixed or blocked atoms, rotation.
"""

import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mbadapter as mb  # noqa: E402

GMX = "gmx_d"
INTEGRATORS = ("md-vv", "md")
FIELD = 15          # the width of a number in a GROMOS-96 file as GROMACS reads it
# mdrun's words when its build needs an instruction the processor lacks (Debian's is built
# to use rdtscp, which some virtual processors do not offer): the package cannot run here,
# as if it were missing, so the run is declined (skipped) rather than failed
HARDWARE_REFUSAL = "not supported by the current hardware"


def check(run):
    """The integrator, after declining what this translation cannot express."""
    models = run.get("forces", [])
    if len(models) != 1 or models[0].get("model") != "lj-cut":
        if any(m.get("model") == "lj-smooth" for m in models):
            mb.decline("GROMACS adapter: the force-shifted lj-smooth is not GROMACS's: "
                       "vdw-modifier = Force-switch switches the force over [rvdw-switch, rvdw]")
        mb.decline("GROMACS adapter: only a Lennard-Jones fluid (lj-cut, alone) is translated")
    if "box" not in models[0]:
        mb.decline("GROMACS adapter: a Lennard-Jones fluid without a periodic box is not translated")
    if run.get("rotation"):
        mb.decline("GROMACS adapter: a rotating system is not translated")
    masses = {n.get("mass") for n in run["nodes"]}
    if len(masses) != 1 or None in masses or any(n.get("blocked") for n in run["nodes"]):
        mb.decline("GROMACS adapter: the atoms must share one finite mass and be free")
    opts = run.get("options", {})
    integrator = opts.get("integrator", "md-vv")
    if integrator not in INTEGRATORS:
        raise ValueError("option integrator=%s is not one of %s" % (integrator, ", ".join(INTEGRATORS)))
    return integrator


def field(x):
    """x with as many significant digits as fit in the 15 characters GROMACS reads."""
    for digits in range(17, 0, -1):
        text = "%.*g" % (digits, x)
        if len(text) <= FIELD:
            return text
    raise ValueError("%r does not fit in %d characters" % (x, FIELD))


def write_g96(path, positions, velocities, box):
    """A GROMOS-96 coordinate file: the numbers start at column 25 of each line."""
    lines = ["TITLE", "motionbench Lennard-Jones fluid", "END", "POSITION"]
    for i, x in enumerate(positions, 1):
        lines.append("%5d LJ    LJ   %6d %s" % (i % 100000, i % 1000000, " ".join(map(field, x))))
    lines += ["END", "VELOCITY"]
    for i, v in enumerate(velocities, 1):
        lines.append("%5d LJ    LJ   %6d %s" % (i % 100000, i % 1000000, " ".join(map(field, v))))
    lines += ["END", "BOX", " " + " ".join(map(field, box)), "END"]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def write_topology(path, model, mass, count):
    """One atom type of sigma, epsilon and mass; comb-rule 2 takes sigma and epsilon as given."""
    sigma, eps, m = repr(float(model["sigma"])), repr(float(model["epsilon"])), repr(float(mass))
    with open(path, "w") as f:
        f.write("[ defaults ]\n1 2 no 1.0 1.0\n[ atomtypes ]\nLJ %s 0.0 A %s %s\n"
                "[ moleculetype ]\nLJ 1\n[ atoms ]\n1 LJ 1 LJ LJ 1 0.0 %s\n"
                "[ system ]\nmotionbench\n[ molecules ]\nLJ %d\n" % (m, sigma, eps, m, count))


def write_mdp(path, integrator, dt, steps, every, rc):
    keys = [("integrator", integrator), ("dt", repr(float(dt))), ("nsteps", steps),
            ("cutoff-scheme", "Verlet"), ("nstlist", 1), ("verlet-buffer-tolerance", -1),
            ("rlist", rc), ("rvdw", rc), ("rcoulomb", rc), ("vdwtype", "Cut-off"),
            ("vdw-modifier", "Potential-shift"), ("coulombtype", "Cut-off"),
            ("DispCorr", "no"), ("pbc", "xyz"), ("tcoupl", "no"), ("pcoupl", "no"),
            ("comm-mode", "None"), ("constraints", "none"), ("gen-vel", "no"),
            ("nstxout", every), ("nstvout", every), ("nstfout", every),
            ("nstcalcenergy", every), ("nstenergy", every), ("nstlog", 0)]
    with open(path, "w") as f:
        f.write("".join("%s = %s\n" % kv for kv in keys))


def gromacs_reason(program, done):
    """GROMACS's own error text (the lines after 'Fatal error:' or 'Error in user input:'),
    else mbadapter's account of a silent failure."""
    lines = [l.strip() for l in (done.stdout + done.stderr).splitlines()]
    for k, line in enumerate(lines):
        if line.startswith("Fatal error:") or line.startswith("Error in user input:"):
            text = []
            for l in lines[k + 1:k + 8]:
                if l.startswith("For more") or l.startswith("-----"):
                    break
                text.append(l)
            said = " ".join(l for l in text if l)
            return "%s exited with status %d: %s" % (program, done.returncode, said)
    return mb.explain_failure(program, done.returncode, done.stdout + done.stderr)


def gmx(args, where):
    """gmx_d ARGS in directory where; an exception with GROMACS's reason when it fails."""
    env = dict(os.environ, GMX_MAXBACKUP="-1", OMP_NUM_THREADS="1")
    done = subprocess.run([GMX] + args, cwd=where, capture_output=True, text=True, env=env)
    with open(os.path.join(where, "gmx.log"), "a") as log:
        log.write(done.stdout + done.stderr)
    if done.returncode != 0:
        reason = gromacs_reason("%s %s" % (GMX, args[0]), done)
        if HARDWARE_REFUSAL in done.stdout + done.stderr:
            mb.decline("GROMACS adapter: the installed GROMACS refuses this processor: " + reason)
        raise RuntimeError(reason)


def simulate(where, name, integrator, dt, steps, every, model, positions, velocities, mass):
    """grompp and mdrun of one simulation; its frames (step, x, v, f) from name.trr."""
    write_g96(os.path.join(where, name + ".g96"), positions, velocities, model["box"])
    write_mdp(os.path.join(where, name + ".mdp"), integrator, dt, steps, every,
              repr(float(model["cutoff"])))
    gmx(["grompp", "-f", name + ".mdp", "-c", name + ".g96", "-p", "topol.top",
         "-o", name + ".tpr", "-po", name + "-out.mdp", "-maxwarn", "1"], where)
    gmx(["mdrun", "-s", name + ".tpr", "-deffnm", name, "-nt", "1", "-pin", "off"], where)
    return {step: frame for step, frame in trr_frames(os.path.join(where, name + ".trr"))}


def trr_frames(path):
    """(step, {"x", "v", "f": [[3] per atom]}) of each frame of a .trr file, the XDR layout
    of GROMACS's trrio.cpp: magic 1993, the version string, thirteen sizes and counts
    (ir, e, box, vir, pres, top, sym, x, v, f sizes in bytes, natoms, step, nre), t and
    lambda as reals, then the blocks whose size is not zero; a real is 8 bytes in a double
    build (box size / 9)."""
    with open(path, "rb") as f:
        data = f.read()
    at = 0

    def ints(n):
        nonlocal at
        values = struct.unpack_from(">%di" % n, data, at)
        at += 4 * n
        return values

    while at < len(data):
        magic, _, length = ints(3)
        if magic != 1993:
            raise RuntimeError("%s: not a GROMACS trajectory (magic %d)" % (path, magic))
        at += (length + 3) // 4 * 4
        sizes = ints(13)
        natoms, step = sizes[10], sizes[11]
        real = sizes[2] // 9
        if real != 8:
            raise RuntimeError("%s: reals of %d bytes: not the double-precision build" % (path, real))
        at += 2 * real
        frame = {}
        for name, size in zip(("ir", "e", "box", "vir", "pres", "top", "sym", "x", "v", "f"), sizes):
            if size:
                flat = struct.unpack_from(">%dd" % (size // real), data, at)
                at += size
                if name in ("x", "v", "f"):
                    frame[name] = [flat[3 * i:3 * i + 3] for i in range(natoms)]
        yield step, frame


def run_one(run, out):
    """One run: topology, the simulation, the rows."""
    integrator = check(run)
    model, nodes = run["forces"][0], run["nodes"]
    mass = float(nodes[0]["mass"])
    dt, steps = float(run["time"]["dt"]), int(run["time"]["steps"])
    samples = mb.sample_steps(run["time"])
    every = int(run["time"].get("sample_every", 1))
    every = every if steps % every == 0 else 1        # the last row must be a frame
    # a directory of the run's own beside (never inside) the batch's trajectories/
    where = os.path.join(os.getcwd(), "gromacs-" + os.path.basename(out).split(".")[0])
    os.makedirs(where, exist_ok=True)
    write_topology(os.path.join(where, "topol.top"), model, mass, len(nodes))
    x0 = [[float(c) for c in n["position"]] for n in nodes]
    v0 = [[float(c) for c in n["velocity"]] for n in nodes]
    frames = simulate(where, "run", integrator, dt, steps, every, model, x0, v0, mass)
    if integrator == "md":
        kick = max(abs(c) for f in frames[0]["f"] for c in f) * 0.5 * dt / mass
        if kick > 1e-12 * max(1.0, max(abs(c) for v in v0 for c in v)):
            mb.decline("GROMACS adapter: md takes the given velocities as v(-h/2), and here "
                       "f(0) != 0 (a half kick of %.3g): its orbit would not start at run.json's "
                       "state" % kick)
    rows = [mb.state_row(0.0, [{"position": n["position"], "velocity": n["velocity"]}
                              for n in nodes])]
    for step, t in samples[1:]:
        if step not in frames:
            raise RuntimeError("GROMACS wrote no frame for step %d" % step)
        fr = frames[step]
        v = fr["v"]
        if integrator == "md":       # v(t - h/2) + (h/2) f(t)/m
            v = [[vi[a] + 0.5 * dt * fi[a] / mass for a in range(3)] for vi, fi in zip(v, fr["f"])]
        rows.append(mb.state_row(t, [{"position": fr["x"][i], "velocity": v[i]}
                                     for i in range(len(nodes))]))
    mb.write_trajectory(out, run, rows)


def main(argv):
    if len(argv) != 3:
        print("usage: gromacs_adapter.py run.json trajectory.csv | runs.json trajectories",
              file=sys.stderr)
        return 2
    return mb.serve(argv, run_one)


if __name__ == "__main__":
    mb.guard(main, "GROMACS adapter")
