"""Granular assemblies for the LAMMPS adapter (doc/peers.md, "Granular assemblies").

A run.json whose contact model is a pair style on the neighbour list (`granular-linear`,
`granular-cundall-strack`, `granular-hertz`, `granular-hertz-mindlin`: every two spheres of the
system, doc/external.md section 3) becomes:
- the law's per-pair coefficients (doc/external.md: linear k = kn, c = c or 2 zeta sqrt(m* kn);
  Hertz K = (4/3) E* sqrt(R*), C = 2 zeta sqrt(m* (3/2) K); kt = kt_ratio k or
  kt_ratio (3/2) K, ct = 2 zeta_t sqrt(m* kt), roll = mu_roll R*) for every two kinds of sphere
  (mass, radius) of the run, mapped as lammps_granular.py maps a listed pair; one pair style is
  global, so the kinds must give one set of LAMMPS coefficients (equal masses for a damped
  linear law: gamma_n = c/m*), otherwise the run is declined, as are walls, a deforming cell
  and what lammps_granular.check_law declines (a clamped dashpot, a Hertzian dashpot, rolling);
- `boundary p p p` and the box [0, L0) x [0, L1) x [0, L2) of a periodic model (`s s s`,
  shrink-wrapped, in open space); the atoms (atom_style sphere) from a data file written with
  17 significant digits, each in its box image (x = x_box + image L, as lammps_lj.py), masses
  set afterwards with `set` (a density would give m back only to rounding);
- neighbours: `neighbor SKIN bin` with `neigh_modify every 1 delay 0 check yes`: the list is
  rebuilt on the first step on which some atom has moved more than SKIN/2 since the last build;
  two spheres farther apart than their contact distance + SKIN at a build cannot touch before
  the next one, so no contact is missed whatever SKIN is (SKIN only sets how often the list is
  rebuilt); `comm_modify vel yes`, which the granular styles need (the ghosts' velocities
  enter the dashpots and the tangential history);
- `fix nve/sphere` (velocity Verlet of translation and rotation; `fix nve` only for a
  frictionless law, whose spheres do not turn);
- a dump of every sampled step: unwrapped positions (xu yu zu), velocities and angular
  velocities; LAMMPS keeps no orientation of a sphere, so the rows carry the initial one."""

import math

import lammps_granular as granular
import lammps_pair_run as pair_run
from lammps_pair_run import num
import mbadapter as mb

MODELS = ("granular-linear", "granular-cundall-strack", "granular-hertz", "granular-hertz-mindlin")
FIXES = ("nve/sphere", "nve")


def assembly_model(run):
    """The one granular-* model of run.json, or None when there is none."""
    found = [f for f in run.get("forces", []) if f.get("model") in MODELS]
    if not found:
        return None
    if len(found) > 1 or len(run.get("forces", [])) > 1:
        mb.decline("LAMMPS adapter: a granular assembly with other force models is not translated")
    return found[0]


def pair_record(model, m1, r1, m2, r2):
    """The per-pair coefficients the protocol gives two spheres (m1, r1), (m2, r2) under the
    law's parameters (doc/external.md, section 3, "Pair styles on the neighbour list")."""
    meff, reff = m1 * m2 / (m1 + m2), r1 * r2 / (r1 + r2)
    zeta = float(model.get("zeta") or 0.0)
    hertz = model["model"] in ("granular-hertz", "granular-hertz-mindlin")
    if hertz:
        k = 4.0 / 3.0 * float(model["estar"]) * math.sqrt(reff)
        c = 2.0 * zeta * math.sqrt(meff * 1.5 * k)
        kt = float(model.get("kt_ratio", 0)) * 1.5 * k
    else:
        k = float(model["kn"])
        c = float(model["c"]) if model.get("c") is not None else 2.0 * zeta * math.sqrt(meff * k)
        kt = float(model.get("kt_ratio", 0)) * k
    ct = 2.0 * float(model.get("zeta_t", 0)) * math.sqrt(meff * kt)
    return {"mass_eff": meff, "radius_eff": reff, "k": k, "c": c, "kt": kt, "ct": ct,
            "roll": float(model.get("mu_roll", 0)) * reff}


def law(run, model):
    """The law as lammps_granular.check_law reads it: (contact-... name, fields, one pair
    record per two kinds of sphere, no planes)."""
    kinds = sorted({(float(n["mass"]), float(n["radius"])) for n in run["nodes"]})
    records = [pair_record(model, m1, r1, m2, r2)
               for a, (m1, r1) in enumerate(kinds) for (m2, r2) in kinds[a:]]
    fields = {k: v for k, v in model.items() if k != "pairs"}
    return "contact-" + model["model"][len("granular-"):], fields, records, []


def check_spheres(run, model, package):
    """Decline, naming the package, an assembly that LAMMPS and its fork LIGGGHTS cannot
    run as one: a boundary other than periodic or open, walls, or a node that is not a
    free solid sphere of finite mass (fix nve/sphere turns spheres of I = 2/5 m r^2)."""
    if model.get("boundary") not in ("periodic", "open"):
        mb.decline("%s adapter: a granular assembly in a %s boundary is not translated"
                   % (package, model.get("boundary")))
    if model.get("pairs"):
        mb.decline("%s adapter: walls of a granular assembly are not translated" % package)
    for i, n in enumerate(run["nodes"]):
        if n.get("mass") is None or n.get("radius") is None:
            mb.decline("%s adapter: node %d is not a sphere of finite mass" % (package, i))
        if n.get("blocked"):
            mb.decline("%s adapter: blocked degrees of freedom are not expressed" % package)
        inertia, m, r = n.get("inertia") or [0, 0, 0], float(n["mass"]), float(n["radius"])
        if run.get("rotation") and any(abs(c - 0.4 * m * r * r) > 1e-12 * c for c in inertia):
            mb.decline("%s adapter: fix nve/sphere turns solid spheres (I = 2/5 m r^2); node %d "
                       "is not one" % (package, i))


def check(run, model, fix, option):
    """Decline what this translation cannot express; return the law (law())."""
    if fix not in FIXES:
        mb.decline("LAMMPS adapter: a granular assembly runs under fix nve/sphere (or nve "
                   "without friction); asked: %s" % fix)
    check_spheres(run, model, "LAMMPS")
    if run.get("rotation") and fix != "nve/sphere":
        mb.decline("fix %s: the spheres of this assembly turn; use fix=nve/sphere" % fix)
    # the fix was checked above (fix nve is allowed here for spheres that do not turn)
    return granular.check_law(law(run, model), "nve/sphere", option)


def box_lines(model, nodes):
    """The boundary and box of the data file and the input (open space: a box around the
    initial positions, shrink-wrapped)."""
    if model["boundary"] == "periodic":
        box = [float(b) for b in model["box"]]
        return "p p p", [(0.0, b) for b in box], box
    lo_hi = []
    for k in range(3):
        xs = [float(n["position"][k]) for n in nodes]
        lo_hi.append((min(xs) - 1.0, max(xs) + 1.0))
    return "s s s", lo_hi, None


def write_data(run, model, path):
    """The LAMMPS data file (atom_style sphere): box, atoms in their box image with their
    diameters, velocities and angular velocities."""
    nodes = run["nodes"]
    _, lo_hi, box = box_lines(model, nodes)
    lines = ["motionbench granular assembly", "", "%d atoms" % len(nodes), "1 atom types", ""]
    for k, axis in enumerate("xyz"):
        lines.append("%s %s %slo %shi" % (num(lo_hi[k][0]), num(lo_hi[k][1]), axis, axis))
    lines += ["", "Atoms # sphere", ""]
    for i, n in enumerate(nodes, 1):
        x = [float(c) for c in n["position"]]
        img = [int(x[k] // box[k]) for k in range(3)] if box else [0, 0, 0]
        xb = [x[k] - img[k] * box[k] for k in range(3)] if box else x
        # density 1: the mass is set exactly afterwards (set_lines)
        lines.append("%d 1 %s 1 %s %s %s %d %d %d"
                     % ((i, num(2.0 * float(n["radius"]))) + tuple(num(c) for c in xb) + tuple(img)))
    lines += ["", "Velocities", ""]
    for i, n in enumerate(nodes, 1):
        lines.append("%d %s %s %s %s %s %s" % ((i,) + tuple(num(c) for c in n["velocity"])
                                                + tuple(num(c) for c in n["angular_velocity"])))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def set_lines(nodes):
    """Every atom's mass, exactly: one `set` for a single mass, one per atom otherwise."""
    masses = [float(n["mass"]) for n in nodes]
    if len(set(masses)) == 1:
        return ["set atom * mass %s" % num(masses[0])]
    return ["set atom %d mass %s" % (i, num(m)) for i, m in enumerate(masses, 1)]


def skin(model, nodes):
    """The neighbour skin: the bench's own (a length), or a fifth of the largest diameter
    (any positive value is correct with `check yes`, module comment)."""
    value = float(model.get("skin") or 0.0)
    return value if value > 0 else 0.4 * max(float(n["radius"]) for n in nodes)


def input_lines(run, model, fix, option, tag=""):
    """The LAMMPS input of one run (its data file assembly{tag}.data written now), the sampled
    states dumped to traj{tag}.dump, ending with `clear`."""
    data, dump = "assembly%s.data" % tag, "traj%s.dump" % tag
    write_data(run, model, data)
    boundary = box_lines(model, run["nodes"])[0]
    name, fields, records, _ = law(run, model)
    lines = ["units lj", "dimension 3", "boundary %s" % boundary, "atom_style sphere",
             "atom_modify map array", "newton off", "read_data %s" % data]
    lines += set_lines(run["nodes"])
    lines += granular.pair_lines((name, fields, records, []), option)
    lines += ["comm_modify vel yes",
              "neighbor %s bin" % num(skin(model, run["nodes"])),
              "neigh_modify every 1 delay 0 check yes"]
    return lines + pair_run.run_lines(fix, run["time"], dump,
                                      "id xu yu zu vx vy vz omegax omegay omegaz")


def rows(run, frames):
    """The trajectory rows at the requested steps (the dump's omegax..z the spins)."""
    return pair_run.rows(run, frames, spins=True)
