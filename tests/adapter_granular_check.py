#!/usr/bin/env python3
"""adapter_granular_check.py SRCDIR DUMPDIR -- how the shipped adapters translate the frictional
contact laws of run.json (doc/peers.md, "Frictional contacts"), without LAMMPS or Yade: the
LAMMPS adapter runs with a stand-in `lmp` that keeps the input script it is given, the Yade
adapter's material() is called directly.  Every coefficient is held against a value derived
here from the case's parameters (tests/data/run-json/*.case), with the packages' documented
force laws: LAMMPS gran/hooke/history F = Kn d - m* gamma_n v_n, F_t = -(Kt xi + m* gamma_t u_t);
gran/hertz/history and granular hertz/mindlin multiply by sqrt(R* d) (contact radius a); Yade
Ip2_FrictMat_FrictMat_FrictPhys kn = E R on a wall and for equal spheres, ks = poisson kn;
Ip2_FrictMat_FrictMat_MindlinPhys kno = (4/3) E/(2 (1 - nu^2)) sqrt(R*), a wall as a sphere of
the same radius; LIGGGHTS (stand-in `liggghts` keeping its input) as stated below.
Prints ok/FAIL per check; exit 1 on any failure."""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

SRC, DUMP = sys.argv[1], sys.argv[2]
ADAPTERS = os.path.abspath(os.path.join(SRC, "adapters"))
failures = 0


def expect(what, got, want, rel=1e-14):
    global failures
    if isinstance(want, float):
        ok = isinstance(got, float) and abs(got - want) <= rel * abs(want)
    else:
        ok = got == want
    print("%s: %s = %r (expected %r)" % ("ok" if ok else "FAIL", what, got, want))
    if not ok:
        failures += 1


def lammps(case, options):
    """(exit status, last log line, the pair_style/pair_coeff/wall lines of in.lammps)."""
    work = tempfile.mkdtemp()
    try:
        with open(os.path.join(DUMP, case + ".json")) as fh:
            run = json.load(fh)
        run["options"] = options
        with open(os.path.join(work, "run.json"), "w") as fh:
            json.dump(run, fh)
        os.mkdir(os.path.join(work, "bin"))
        lmp = os.path.join(work, "bin", "lmp")
        with open(lmp, "w") as fh:
            fh.write("#!/bin/sh\ncp in.lammps kept.lammps\necho 'ERROR: stand-in lmp (test)' > lammps.log\nexit 1\n")
        os.chmod(lmp, 0o755)
        env = dict(os.environ, PATH=os.path.join(work, "bin") + os.pathsep + os.environ["PATH"])
        done = subprocess.run([sys.executable, os.path.join(ADAPTERS, "lammps_adapter.py"), "run.json",
                               "t.csv"], cwd=work, env=env, capture_output=True, text=True)
        out = (done.stdout + done.stderr).strip().splitlines()
        kept = os.path.join(work, "kept.lammps")
        lines = []
        if os.path.exists(kept):
            lines = [l for l in open(kept).read().splitlines()
                     if l.startswith(("pair_style", "pair_coeff", "fix wall", "fix integrate"))]
        return done.returncode, out[-1] if out else "", lines
    finally:
        shutil.rmtree(work)


def package_assembly(case, adapter, exe, kept, edit=None):
    """(exit status, last output line, the input's lines, data file lines, run.json) of a
    granular assembly's input: the adapter run with a stand-in package `exe` whose script
    `kept` saves its input as kept.in and its data file as kept.data, then fails; edit(run)
    may change run.json first."""
    work = tempfile.mkdtemp()
    try:
        with open(os.path.join(DUMP, case + ".json")) as fh:
            run = json.load(fh)
        if edit:
            edit(run)
        with open(os.path.join(work, "run.json"), "w") as fh:
            json.dump(run, fh)
        os.mkdir(os.path.join(work, "bin"))
        stand_in = os.path.join(work, "bin", exe)
        with open(stand_in, "w") as fh:
            fh.write("#!/bin/sh\n" + kept + "exit 1\n")
        os.chmod(stand_in, 0o755)
        env = dict(os.environ, PATH=os.path.join(work, "bin") + os.pathsep + os.environ["PATH"])
        done = subprocess.run([sys.executable, os.path.join(ADAPTERS, adapter), "run.json",
                               "t.csv"], cwd=work, env=env, capture_output=True, text=True)
        out = (done.stdout + done.stderr).strip().splitlines()
        read = lambda name: (open(os.path.join(work, name)).read().splitlines()
                             if os.path.exists(os.path.join(work, name)) else [])
        return done.returncode, out[-1] if out else "", read("kept.in"), read("kept.data"), run
    finally:
        shutil.rmtree(work)


def lammps_assembly(case, edit=None):
    """package_assembly of the LAMMPS adapter (stand-in lmp)"""
    return package_assembly(case, "lammps_adapter.py", "lmp",
                            "cp in.lammps kept.in\ncp assembly.data kept.data\n"
                            "echo 'ERROR: stand-in lmp (test)' > lammps.log\n", edit)


def words(lines, prefix):
    found = [l.split() for l in lines if l.startswith(prefix)]
    return found[0] if found else []


def floats(ws):
    out = []
    for w in ws:
        try:
            out.append(float(w))
        except ValueError:
            out.append(w)
    return out


# Cundall-Strack on a plane z = -0.002: fix wall/gran hooke/history, m* = m = 0.01
st, last, lines = lammps("friction-wall", {})
wall = floats(words(lines, "fix wall0"))
expect("lammps wall: integrator nve/sphere by default", words(lines, "fix integrate")[-1:], ["nve/sphere"])
expect("lammps wall: style", wall[3:5], ["wall/gran", "hooke/history"])
expect("lammps wall: Kn", wall[5], 1e5)
expect("lammps wall: Kt = 0.5 Kn", wall[6], 5e4)
expect("lammps wall: gamma_n, gamma_t", wall[7:9], [0.0, 0.0])
expect("lammps wall: xmu", wall[9], 0.3)
expect("lammps wall: dampflag off", wall[10], 0.0)
expect("lammps wall: zplane -0.002", wall[11:14], ["zplane", -0.002, "NULL"])
expect("lammps wall: no sphere pair", words(lines, "pair_style"), ["pair_style", "zero", "1.0"])

# Cundall-Strack between two spheres with a tangential dashpot: gamma_t = ct / m*
st, last, lines = lammps("friction-pair", {"fix": "nve/sphere"})
ps = floats(words(lines, "pair_style"))
meff = 0.02 * 0.03 / 0.05
kt = 0.4 * 3e5
expect("lammps pair: style", ps[1], "gran/hooke/history")
expect("lammps pair: Kn, Kt", ps[2:4], [3e5, kt])
expect("lammps pair: gamma_n = 0", ps[4], 0.0)
expect("lammps pair: gamma_t = 2 zeta_t sqrt(m* kt)/m*", ps[5], 2 * 0.2 * math.sqrt(meff * kt) / meff, 1e-13)
expect("lammps pair: xmu, dampflag", ps[6:8], [0.25, 1.0])

# Hertz-Mindlin on a plane (R* = r = 0.01, E* = E/(1 - nu^2)): Kn = K/sqrt(R*) = 4/3 E*,
# Kt = kt/sqrt(R*) = kt_ratio 2 E*
estar = 7e9 / (1 - 0.3 ** 2)
ratio = 2 * (1 - 0.3) / (2 - 0.3)
for option, style in (("history", "hertz/history"), ("granular", "granular")):
    st, last, lines = lammps("friction-mindlin", {"pair": option})
    wall = floats(words(lines, "fix wall0"))
    expect("lammps mindlin %s: style" % option, wall[3:5], ["wall/gran", style])
    if option == "history":
        expect("lammps mindlin history: Kn = 4/3 E*", wall[5], 4.0 / 3.0 * estar, 1e-14)
        expect("lammps mindlin history: Kt = kt_ratio 2 E*", wall[6], ratio * 2 * estar, 1e-14)
        expect("lammps mindlin history: gammas, xmu, dampflag", wall[7:11], [0.0, 0.0, 0.3, 0.0])
    else:
        expect("lammps mindlin granular: hertz kn damp", wall[5:8], ["hertz", 4.0 / 3.0 * estar, 0.0])
        expect("lammps mindlin granular: tangential mindlin kt xgamma mu", wall[8:13],
               ["tangential", "mindlin", ratio * 2 * estar, 0.0, 0.3])

# declined: a clamped normal dashpot, rolling resistance
st, last, lines = lammps("friction-linear", {})
expect("lammps declines the clamped dashpot (77)", (st, "not clamped" in last), (77, True))
st, last, lines = lammps("friction-rolling", {})
expect("lammps declines rolling resistance (77)", (st, "rolling resistance" in last), (77, True))
st, last, lines = lammps("friction-wall", {"pair": "granular"})
expect("lammps: pair=granular with Cundall-Strack declined", (st, "contact-hertz-mindlin only" in last),
       (77, True))

st, last, lines = lammps("pair-hertz", {})
expect("lammps declines the dashpot of a damped Hertz law (77)", (st, "dashpot" in last),
       (77, True))


# Granular assemblies (lammps_assembly.py): tests/data/run-json/granular-gas.case, 20 spheres
# of mass 1.3 at fraction 0.1, restitution 0.7 of the unclamped linear law of contact time
# 0.004, Cundall-Strack mu = 0.4, kt = 2/7 kn.  From doc/dem.md: zeta = -ln e/sqrt(pi^2 +
# ln^2 e), kn = m* (pi/(t_c sqrt(1 - zeta^2)))^2, c = 2 zeta sqrt(m* kn), m* = m/2; LAMMPS's
# gamma_n = c/m*; the cube's side L = (N pi / (6 phi))^(1/3).
st, last, lines, data, run = lammps_assembly("granular-gas")
le = math.log(0.7)
zeta = -le / math.sqrt(math.pi ** 2 + le ** 2)
gas_meff = 1.3 / 2
gas_kn = gas_meff * (math.pi / (0.004 * math.sqrt(1 - zeta ** 2))) ** 2
side = (20 * math.pi / 6 / 0.1) ** (1.0 / 3.0)
ps = floats(words(lines, "pair_style"))
expect("lammps gas: style", ps[1], "gran/hooke/history")
expect("lammps gas: Kn", ps[2], gas_kn, 1e-13)
expect("lammps gas: Kt = 2/7 Kn", ps[3], 2.0 / 7.0 * gas_kn, 1e-13)
expect("lammps gas: gamma_n = 2 zeta sqrt(kn/m*)", ps[4], 2 * zeta * math.sqrt(gas_kn / gas_meff), 1e-13)
expect("lammps gas: gamma_t, xmu, dampflag", ps[5:8], [0.0, 0.4, 0.0])
expect("lammps gas: periodic", words(lines, "boundary"), ["boundary", "p", "p", "p"])
expect("lammps gas: fix nve/sphere", words(lines, "fix integrate"), ["fix", "integrate", "all", "nve/sphere"])
expect("lammps gas: ghost velocities", words(lines, "comm_modify"), ["comm_modify", "vel", "yes"])
# a rebuild whenever an atom has moved half the skin, checked every step: no contact missed
expect("lammps gas: neighbour list", (words(lines, "neighbor"), words(lines, "neigh_modify")),
       (["neighbor", "0.2", "bin"], ["neigh_modify", "every", "1", "delay", "0", "check", "yes"]))
expect("lammps gas: masses exact", words(lines, "set atom"), ["set", "atom", "*", "mass", "1.3"])
box = floats(words(data, "0.0 "))
expect("lammps gas: box from 0", box[0], 0.0)
expect("lammps gas: box side L", box[1], side, 1e-15)
atoms = [floats(l.split()) for l in data[data.index("Atoms # sphere") + 2:][:20]]
back = [max(abs(a[4 + k] + a[7 + k] * box[1] - n["position"][k]) for k in range(3))
        for a, n in zip(atoms, run["nodes"])]
inside = all(0 <= a[4 + k] < box[1] for a in atoms for k in range(3))
expect("lammps gas: 20 atoms, diameter 1, x_box + image L = x, x_box in [0, L)",
       (len(atoms), {a[2] for a in atoms}, max(back) <= 4 * 2 ** -52 * side, inside),
       (20, {1.0}, True, True))
velocities = [floats(l.split()) for l in data[data.index("Velocities") + 2:][:20]]
expect("lammps gas: velocities as sent", [v[1:4] for v in velocities],
       [n["velocity"] for n in run["nodes"]])

st, last, lines, data, run = lammps_assembly("granular-open")
ps = floats(words(lines, "pair_style"))
expect("lammps open gas: shrink-wrapped", words(lines, "boundary"), ["boundary", "s", "s", "s"])
le = math.log(0.8)
zeta = -le / math.sqrt(math.pi ** 2 + le ** 2)
open_kn = 0.5 * (math.pi / (0.005 * math.sqrt(1 - zeta ** 2))) ** 2
expect("lammps open gas: gran/hooke Kn 0 gamma_n 0 0 0", ps[1:],
       ["gran/hooke", open_kn, 0.0, 2 * zeta * math.sqrt(open_kn / 0.5), 0.0, 0.0, 0.0])


def unequal_masses(run):
    run["nodes"][3]["mass"] *= 2.0
    run["nodes"][3]["inertia"] = [2.0 * c for c in run["nodes"][3]["inertia"]]


st, last, lines, data, run = lammps_assembly("granular-gas", unequal_masses)
expect("lammps declines a damped assembly of unequal masses (gamma_n = c/m* per pair) (77)",
       (st, "different LAMMPS coefficients" in last), (77, True))
st, last, lines, data, run = lammps_assembly("granular-column")
expect("lammps declines an assembly with gravity (77)", (st, "other force models" in last), (77, True))


def contacts_only(run):
    run["forces"] = [f for f in run["forces"] if f["model"].startswith("granular-")]


st, last, lines, data, run = lammps_assembly("granular-column", contacts_only)
expect("lammps declines an assembly's walls (77)", (st, "walls" in last), (77, True))


def deforming(run):
    run["forces"][0]["boundary"] = "deforming-cell"


st, last, lines, data, run = lammps_assembly("granular-gas", deforming)
expect("lammps declines a deforming cell (77)", (st, "deforming-cell boundary" in last), (77, True))


def liggghts(case):
    """(exit status, last output line, {property: (v11, v12)}, the gran model lines) of the input
    liggghts_adapter.py writes for a case (stand-in `liggghts` keeps in.liggghts)."""
    work = tempfile.mkdtemp()
    try:
        shutil.copy(os.path.join(DUMP, case + ".json"), os.path.join(work, "run.json"))
        os.mkdir(os.path.join(work, "bin"))
        exe = os.path.join(work, "bin", "liggghts")
        with open(exe, "w") as fh:
            fh.write("#!/bin/sh\ncp in.liggghts kept.liggghts\nexit 1\n")
        os.chmod(exe, 0o755)
        env = dict(os.environ, PATH=os.path.join(work, "bin") + os.pathsep + os.environ["PATH"])
        done = subprocess.run([sys.executable, os.path.join(ADAPTERS, "liggghts_adapter.py"),
                               "run.json", "t.csv"], cwd=work, env=env, capture_output=True,
                              text=True)
        out = (done.stdout + done.stderr).strip().splitlines()
        props, models = {}, []
        kept = os.path.join(work, "kept.liggghts")
        if os.path.exists(kept):
            for line in open(kept).read().splitlines():
                w = line.split()
                if line.startswith("fix m") and w[3] == "property/global":
                    props[w[4]] = (float(w[7]), float(w[8]))
                elif line.startswith(("pair_style gran", "fix wall ")) or (
                        line.startswith("set atom") and " omegax " in line):
                    models.append(line)
        return done.returncode, out[-1] if out else "", props, models
    finally:
        shutil.rmtree(work)


# LIGGGHTS (tangential_model_history.h, normal_model_hooke_stiffness.h, hertz_stiffness.h,
# rolling_model_cdt.h): hooke/stiffness F = kn d + gamman_abs d' (absolute_damping on),
# F_t = -kt xi - gammat_abs u_t; hertz/stiffness multiplies kn, kt by sqrt(R* d), R* = r on a
# wall; cdt's torque coefficientRollingFriction (r - d/2) kn d.  Constants per type pair:
# (sphere-sphere 11, sphere-wall 12).
st, last, props, models = liggghts("friction-wall")
expect("liggghts wall: kn, kt on the wall pair", (props["kn"][1], props["kt"][1]), (1e5, 5e4))
expect("liggghts wall: coefficientFriction", props["coefficientFriction"][1], 0.3)
expect("liggghts wall: no dashpots", (props["gamman_abs"][1], props["gammat_abs"][1]), (0.0, 0.0))
expect("liggghts wall: the wall's model", models[-1],
       "fix wall all wall/gran model hooke/stiffness tangential history primitive type 2 "
       "zplane -0.002 absolute_damping on tangential_damping off limitForce on")
st, last, props, models = liggghts("friction-pair")
expect("liggghts pair: kn, kt on the sphere pair", (props["kn"][0], props["kt"][0]), (3e5, kt))
expect("liggghts pair: gammat_abs = 2 zeta_t sqrt(m* kt)", props["gammat_abs"][0],
       2 * 0.2 * math.sqrt(meff * kt), 1e-13)
expect("liggghts pair: coefficientFriction", props["coefficientFriction"][0], 0.25)
expect("liggghts pair: tangential damping on", "tangential_damping on" in models[0], True)
st, last, props, models = liggghts("friction-mindlin")
expect("liggghts mindlin: kn = K/sqrt(R) = 4/3 E*", props["kn"][1], 4.0 / 3.0 * estar, 1e-14)
expect("liggghts mindlin: kt = kt/sqrt(R) = kt_ratio 2 E*", props["kt"][1], ratio * 2 * estar, 1e-14)
expect("liggghts mindlin: hertz/stiffness with history", models[0].split()[1:6],
       ["gran", "model", "hertz/stiffness", "tangential", "history"])
expect("liggghts mindlin: the spheres spin (omega set)", any(" omegax " in m for m in models), True)
st, last, props, models = liggghts("friction-rolling")
expect("liggghts rolling: cdt with mu_r = roll/R*", (props["coefficientRollingFriction"][1],
                                                    "rolling_friction cdt" in models[0]), (0.05, True))
st, last, props, models = liggghts("friction-linear")
expect("liggghts declines two plane pairs of different dashpots (77)",
       (st, "differs between pairs" in last), (77, True))
st, last, props, models = liggghts("pair-hertz")
expect("liggghts declines a Hertzian dashpot (77)", (st, "dashpot" in last), (77, True))

# LIGGGHTS granular assemblies (liggghts_assembly.py), the gas above: one atom type, so one
# constant a property (peratomtypepair 1); hooke/stiffness with absolute damping: kn = k,
# kt = 2/7 kn, gamman_abs = c = 2 zeta sqrt(m* kn) (LIGGGHTS's dashpot is absolute, not a rate),
# no tangential dashpot, coefficientFriction = mu; limitForce off (the gas's law is unclamped).
def liggghts_assembly(case, edit=None):
    """(exit status, last output line, in.liggghts lines, data file lines) of a granular
    assembly's input (package_assembly, stand-in liggghts)."""
    return package_assembly(case, "liggghts_adapter.py", "liggghts",
                            "cp in.liggghts kept.in\ncp traj-0.data kept.data\n", edit)[:4]


st, last, lines, data = liggghts_assembly("granular-gas")
le = math.log(0.7)
zeta = -le / math.sqrt(math.pi ** 2 + le ** 2)
props = {w[4]: (w[5], w[6], float(w[7])) for w in (l.split() for l in lines)
         if w[:1] == ["fix"] and w[1].startswith("m") and w[3] == "property/global"}
expect("liggghts gas: one type a constant", {v[:2] for v in props.values()}, {("peratomtypepair", "1")})
expect("liggghts gas: kn", props["kn"][2], gas_kn, 1e-13)
expect("liggghts gas: kt = 2/7 kn", props["kt"][2], 2.0 / 7.0 * gas_kn, 1e-13)
expect("liggghts gas: gamman_abs = 2 zeta sqrt(m* kn)", props["gamman_abs"][2],
       2 * zeta * math.sqrt(gas_meff * gas_kn), 1e-13)
expect("liggghts gas: gammat_abs, coefficientFriction",
       (props["gammat_abs"][2], props["coefficientFriction"][2]), (0.0, 0.4))
expect("liggghts gas: the model", words(lines, "pair_style"),
       "pair_style gran model hooke/stiffness tangential history absolute_damping on "
       "tangential_damping off limitForce off".split())
expect("liggghts gas: periodic, ghost velocities", (words(lines, "boundary"), words(lines, "communicate")),
       (["boundary", "p", "p", "p"], ["communicate", "single", "vel", "yes"]))
expect("liggghts gas: neighbour list checked every step",
       (words(lines, "neighbor"), words(lines, "neigh_modify")),
       (["neighbor", "0.2", "bin"], ["neigh_modify", "every", "1", "delay", "0", "check", "yes"]))
expect("liggghts gas: masses exact, data file read",
       (words(lines, "set atom"), words(lines, "read_data"), len(data) > 20),
       (["set", "atom", "*", "mass", "1.3"], ["read_data", "traj-0.data"], True))
expect("liggghts gas: unwrapped positions and spins dumped every sampled step, one run",
       (words(lines, "dump d")[4:], [l for l in lines if l.startswith("run")]),
       (["1", "traj-0.dump", "id", "xu", "yu", "zu", "vx", "vy", "vz", "omegax", "omegay", "omegaz"],
        ["run 2"]))


def strided(run):
    run["time"].update(steps=10, t_end=10 * run["time"]["dt"], sample_every=3)


# rows every 3 of 10 steps: 9 steps dumped every 3, then the last one, continued without a
# set-up (pre no: a set-up would recompute the dashpots with the on-step velocities)
st, last, lines, data = liggghts_assembly("granular-gas", strided)
expect("liggghts gas, strided: dump every 3, then the last step continued",
       (words(lines, "dump d")[4], [l for l in lines if l.startswith(("run", "dump e", "dump_modify e append"))]),
       ("3", ["run 9 post no", "dump e all custom 1 traj-0.dump id xu yu zu vx vy vz omegax omegay omegaz",
              "dump_modify e append yes", "run 1 pre no"]))


def unequal_radii(run):
    run["nodes"][3]["radius"] *= 1.5
    run["nodes"][3]["inertia"] = [2.25 * c for c in run["nodes"][3]["inertia"]]


# the linear law's constants do not depend on the radii: unequal radii of equal masses are
# one set of constants (the stand-in liggghts then fails: 1), each atom with its diameter
st, last, lines, data = liggghts_assembly("granular-gas", unequal_radii)
atoms = [l.split() for l in data[data.index("Atoms # sphere") + 2:][:20]]
expect("liggghts gas, unequal radii of one mass: run, atom 4 of diameter 1.5",
       (st, atoms[3][2], {a[2] for a in atoms[:3] + atoms[4:]}), (1, "1.5", {"1.0"}))
st, last, lines, data = liggghts_assembly("granular-gas", unequal_masses)
expect("liggghts declines a damped assembly of unequal masses (gamman_abs per pair) (77)",
       (st, "differs between pairs" in last), (77, True))
st, last, lines, data = liggghts_assembly("granular-column", contacts_only)
expect("liggghts declines an assembly's walls (77)", (st, "walls" in last), (77, True))

# Yade: material() -- young = kn / R on a wall, kn (r1 + r2)/(2 r1 r2) for a pair; poisson = kt/kn
sys.path.insert(0, ADAPTERS)
sys.argv[0] = os.path.join(ADAPTERS, "yade_adapter.py")
import yade_adapter  # noqa: E402


def yade(case):
    with open(os.path.join(DUMP, case + ".json")) as fh:
        run = json.load(fh)
    try:
        return 0, yade_adapter.material(run)
    except SystemExit as e:
        return e.code, None


st, mat = yade("friction-wall")
expect("yade wall: CundallStrack", mat[0], "cundall-strack")
expect("yade wall: young = kn / r", mat[1], 1e5 / 0.01)
expect("yade wall: poisson = kt/kn", mat[2], 0.5)
expect("yade wall: mu for tan(frictionAngle)", mat[3], 0.3)
expect("yade wall: wall z = -0.002 on axis 2, positive side", mat[4], [(0, 2, 1, -0.002)])
st, mat = yade("friction-pair")
expect("yade pair: the tangential dashpot is declined", st, 77)
st, mat = yade("friction-rolling")
expect("yade: rolling resistance declined", st, 77)
# Hertz-Mindlin on a wall: Yade's kno = (4/3) E/(2 (1 - nu^2)) sqrt(R/2) must be the bench's
# K = (4/3) E_b/(1 - nu_b^2) sqrt(R), its kso/kno = 3 (1 - nu)/(2 - nu) the bench's (3/2) kt_ratio:
# with the case's own nu_b = 0.3, nu = nu_b and E = 2 sqrt(2) E_b
st, mat = yade("friction-mindlin")
expect("yade mindlin: law", mat[0], "mindlin")
expect("yade mindlin: nu = the case's Poisson ratio", mat[2], 0.3, 1e-15)
expect("yade mindlin: E = 2 sqrt(2) E_b", mat[1], 2 * math.sqrt(2) * 7e9, 1e-14)


# Yade assembly(): young = kn / r (kn = E R for two spheres of radius r), poisson = kt/kn,
# the periodic cube; a dashpot is declined (CundallStrack has none)
def yade_assembly(case, edit=None):
    with open(os.path.join(DUMP, case + ".json")) as fh:
        run = json.load(fh)
    if edit:
        edit(run)
    try:
        return 0, yade_adapter.assembly(run)
    except SystemExit as e:
        return e.code, None


st, mat = yade_assembly("granular-gas")
expect("yade gas: the normal dashpot is declined (77)", st, 77)


def elastic(run):
    run["forces"][0]["zeta"] = 0.0


st, mat = yade_assembly("granular-gas", elastic)
yade_kn = json.load(open(os.path.join(DUMP, "granular-gas.json")))["forces"][0]["kn"]
le = math.log(0.7)
zeta = -le / math.sqrt(math.pi ** 2 + le ** 2)
expect("yade gas: kn as derived", yade_kn, 0.65 * (math.pi / (0.004 * math.sqrt(1 - zeta ** 2))) ** 2, 1e-13)
expect("yade gas: CundallStrack, young = kn / r, poisson = 2/7, mu, no wall",
       mat[:5], ("cundall-strack", yade_kn / 0.5, 2.0 / 7.0, 0.4, []))
expect("yade gas: the periodic cube", (len(mat[5]), max(abs(b / side - 1) for b in mat[5]) <= 1e-15), (3, True))
st, mat = yade_assembly("granular-column")
expect("yade declines a polydisperse (or walled) column (77)", st, 77)
sys.exit(1 if failures else 0)
