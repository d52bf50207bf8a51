#!/usr/bin/env python3
"""run_json_check.py DIR -- the run.json files a describing adapter kept (tests/test_run_json.sh),
read by Python's own json module and held against values derived here from each case's
parameters, independently of motionbench's code: masses from densities, effective mass and
radius, Hertz K = (4/3) E* sqrt(R*), the restitution of the clamped and textbook linear laws
from the damped oscillator (derived below), the frictional coefficients of doc/dem.md.
Prints "ok: ..." or "FAIL: ..." per check; exit 1 on any failure."""
import json
import math
import os
import sys

DIR = sys.argv[1]
failures = 0


def load(case):
    with open(os.path.join(DIR, case + ".json")) as fh:
        return json.load(fh)


def expect(what, got, want, rel=1e-14):
    global failures
    if isinstance(want, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
        ok = abs(got - want) <= rel * max(abs(want), 1e-300)
    else:
        ok = got == want
    print("%s: %s = %r (expected %r)" % ("ok" if ok else "FAIL", what, got, want))
    if not ok:
        failures += 1


def model(run, name):
    found = [f for f in run["forces"] if f["model"] == name]
    expect("%s: one model '%s'" % (run["case"], name), len(found), 1)
    return found[0] if found else {}


def restitution_linear(k, m, c, clamped):
    """Normal restitution of m d'' + c d' + k d = 0 from d = 0, d' = v: with beta = c/(2m),
    w0^2 = k/m, w^2 = w0^2 - beta^2, d = (v/w) e^(-beta t) sin(w t).  Textbook: the contact
    ends at d = 0, t = pi/w, e = exp(-beta pi/w).  Clamped: it ends where the force
    k d + c d' first vanishes, (w0^2 - 2 beta^2) sin(w t) + 2 beta w cos(w t) = 0, i.e.
    w t* = pi - atan2(2 beta w, w0^2 - 2 beta^2), and e = -d'(t*)/v."""
    beta, w0 = c / (2 * m), math.sqrt(k / m)
    w = math.sqrt(w0 * w0 - beta * beta)
    if not clamped:
        return math.exp(-beta * math.pi / w)
    ts = (math.pi - math.atan2(2 * beta * w, w0 * w0 - 2 * beta * beta)) / w
    return -math.exp(-beta * ts) * (math.cos(w * ts) - beta / w * math.sin(w * ts))


UNITS = {"length": "m", "mass": "kg", "time": "s", "angle": "rad", "coherent": True}

# bouncing-sphere: the Signorini contact with Newton restitution, not opaque
run = load("bouncing")
expect("bouncing: units", run["units"], UNITS)
u = model(run, "unilateral")
expect("bouncing: laws", (u.get("normal_law"), u.get("impact_law"), u.get("friction_law")),
       ("signorini", "newton", "coulomb"))
laws = u.get("pair_laws", [])
if laws:
    expect("bouncing: restitution of the pair law", laws[0]["restitution"], 0.41)
else:
    expect("bouncing: restitution", u.get("restitution"), 0.41)
expect("bouncing: sphere shape", [(s["node"], s["shape"], s["radius"]) for s in u["shapes"]],
       [(0, "sphere", 0.2)])
expect("bouncing: plane z = 0, normal +z", [(p["point"], p["normal"]) for p in u["planes"]],
       [([0.0, 0.0, 0.0], [0.0, 0.0, 1.0])])

# box-on-plane: Coulomb mu on a box
run = load("box")
u = model(run, "unilateral")
mus = [l["mu"] for l in u.get("pair_laws", [])] or [u.get("mu")]
expect("box: mu", mus, [0.27])
expect("box: box shape", [(s["shape"], s["half_extents"][0]) for s in u["shapes"]], [("box", 0.4)])

# pendulum-link: a bilateral constraint stays opaque
run = load("pendulum")
expect("pendulum: opaque constraints", [f for f in run["forces"] if f["model"] == "opaque"],
       [{"model": "opaque", "name": "constraints"}])

# sphere-wall, clamped linear law
run = load("wall-clamped")
c = model(run, "contact-linear")
m = 3000 * 4.0 / 3.0 * math.pi * 0.02 ** 3
p = c["pairs"][0]
expect("wall: laws", (c["normal_law"], c["clamped"], c["tangential_law"], c["rolling_law"]),
       ("linear", True, "none", "none"))
expect("wall: zeta", c["zeta"], 0.3)
expect("wall: mass_eff = m", p["mass_eff"], m)
expect("wall: radius_eff = r", p["radius_eff"], 0.02)
expect("wall: c = 2 zeta sqrt(m kn)", p["c"], 2 * 0.3 * math.sqrt(m * 2e5))
expect("wall: clamped restitution", p["restitution"], restitution_linear(2e5, m, p["c"], True),
       1e-12)
expect("wall: rotation false (no friction)", run["rotation"], False)

# sphere-collision, textbook linear law, unequal spheres
run = load("pair-textbook")
c = model(run, "contact-linear")
m1 = 2500 * 4.0 / 3.0 * math.pi * 0.01 ** 3
m2 = 2500 * 4.0 / 3.0 * math.pi * 0.015 ** 3
p = c["pairs"][0]
expect("pair: clamped false", c["clamped"], False)
expect("pair: mass_eff", p["mass_eff"], m1 * m2 / (m1 + m2))
expect("pair: radius_eff", p["radius_eff"], 0.01 * 0.015 / 0.025)
expect("pair: textbook restitution", p["restitution"],
       restitution_linear(1e5, m1 * m2 / (m1 + m2), p["c"], False), 1e-12)
# control: the clamped formula is not the textbook one at zeta = 0.2
expect("pair: control, clamped != textbook", abs(restitution_linear(1e5, 1.0, 2 * 0.2 * math.sqrt(1e5), True)
                                               - math.exp(-0.2 * math.pi / math.sqrt(1 - 0.04))) > 1e-3, True)

# sphere-collision, damped Hertz: K from E*, no closed-form restitution
run = load("pair-hertz")
c = model(run, "contact-hertz")
estar = 2e8 / (2 * (1 - 0.25 ** 2))
reff = 0.01 * 0.02 / 0.03
p = c["pairs"][0]
expect("hertz: estar (two spheres: E / (2 (1 - nu^2)))", c["estar"], estar)
expect("hertz: K = 4/3 E* sqrt(R*)", p["k"], 4.0 / 3.0 * estar * math.sqrt(reff))
expect("hertz: restitution null (no closed form)", p["restitution"], None)

# scene, Cundall-Strack with dashpots and rolling resistance: a plane pair per sphere and
# the sphere pair
run = load("friction-linear")
expect("friction: rotation true (the law will apply torques)", run["rotation"], True)
# the scene may split its pairs over several models of the law (sphere pairs, plane pairs)
cs = [f for f in run["forces"] if f["model"] == "contact-cundall-strack"]
expect("friction: every contact model is Cundall-Strack", len(cs) >= 1
       and all(f["model"] in ("gravity", "contact-cundall-strack") for f in run["forces"]), True)
c = dict(cs[0])
c["pairs"] = [p for f in cs for p in f["pairs"]]
expect("friction: laws", (c["normal_law"], c["tangential_law"], c["rolling_law"], c["clamped"]),
       ("linear", "cundall-strack", "constant-torque", True))
expect("friction: mu, kt_ratio, zeta_t, mu_roll",
       (c["mu"], c["kt_ratio"], c["zeta_t"], c["mu_roll"]), (0.4, 0.6, 0.15, 0.02))
planes = [p for p in c["pairs"] if "plane" in p]
spheres = [p for p in c["pairs"] if "plane" not in p]
expect("friction: two sphere-plane pairs and one sphere pair", (len(planes), len(spheres)), (2, 1))
for p in c["pairs"]:
    if "plane" in p:
        m, r = (1.5, 0.1) if p["i"] == 0 else (0.5, 0.05)
    else:
        m, r = 1.5 * 0.5 / 2.0, 0.1 * 0.05 / 0.15
    tag = "friction pair %s" % ("plane %d" % p["i"] if "plane" in p else "%d-%d" % (p["i"], p["j"]))
    expect(tag + ": kt = kt_ratio kn", p["kt"], 0.6 * 1e6)
    expect(tag + ": ct = 2 zeta_t sqrt(m* kt)", p["ct"], 2 * 0.15 * math.sqrt(m * 0.6e6), 1e-13)
    expect(tag + ": roll = mu_roll R*", p["roll"], 0.02 * r, 1e-13)
    expect(tag + ": c = 2 zeta sqrt(m* kn)", p["c"], 2 * 0.2 * math.sqrt(m * 1e6), 1e-13)
    expect(tag + ": restitution (clamped)", p["restitution"], restitution_linear(1e6, m, p["c"], True),
           1e-12)

# scene, Hertz-Mindlin on a plane: E* = E / (1 - nu^2), kt_ratio = 2 (1 - nu)/(2 - nu)
run = load("friction-mindlin")
c = model(run, "contact-hertz-mindlin")
estar = 7e9 / (1 - 0.09)
ratio = 2 * (1 - 0.3) / (2 - 0.3)
p = c["pairs"][0]
expect("mindlin: laws", (c["normal_law"], c["tangential_law"], c["rolling_law"]),
       ("hertz", "mindlin", "none"))
expect("mindlin: kt_ratio", c["kt_ratio"], ratio, 1e-15)
expect("mindlin: K", p["k"], 4.0 / 3.0 * estar * math.sqrt(0.01), 1e-15)
expect("mindlin: kt = kt_ratio 2 E* sqrt(R*)", p["kt"], ratio * 2 * estar * math.sqrt(0.01), 1e-14)
expect("mindlin: undamped restitution 1", p["restitution"], 1.0)

# ---- many-body models on the neighbour list (doc/external.md, section 3, "Pair styles") ----

# granular gas in its periodic cube: granular-cundall-strack; kn and zeta from e and t_c
# (doc/dem.md: zeta = -ln e / sqrt(pi^2 + ln^2 e), kn = m* (pi / (t_c sqrt(1 - zeta^2)))^2,
# m* = m/2), the box side from N pi / (6 V) = phi with diameter 1, no pair listed
run = load("granular-gas")
g = model(run, "granular-cundall-strack")
le = math.log(0.7)
zeta = -le / math.sqrt(math.pi ** 2 + le * le)
kn = 0.65 * (math.pi / (0.004 * math.sqrt(1 - zeta * zeta))) ** 2
side = (20 * math.pi / 6 / 0.1) ** (1 / 3)
expect("gas: kn", g.get("kn"), kn, 1e-13)
expect("gas: zeta", g.get("zeta"), zeta, 1e-14)
expect("gas: dashpot as a ratio (c per pair)", g.get("c"), None)
expect("gas: boundary", g.get("boundary"), "periodic")
expect("gas: cube", len(set(g.get("box", []))) == 1 and len(g.get("box", [])) == 3, True)
expect("gas: box side", g.get("box", [0])[0], side, 1e-14)
expect("gas: friction", (g.get("mu"), g.get("kt_ratio"), g.get("zeta_t"), g.get("mu_roll")),
       (0.4, 2.0 / 7.0, 0.0, 0.0))
expect("gas: no pair listed (every pair of spheres)", g.get("pairs"), [])
nodes = run["nodes"]
expect("gas: 20 spheres of diameter 1 and mass 1.3",
       {(n["mass"], n["radius"]) for n in nodes} == {(1.3, 0.5)} and len(nodes) == 20, True)
p_tot = [sum(n["mass"] * n["velocity"][a] for n in nodes) for a in range(3)]
expect("gas: zero momentum", max(abs(c) for c in p_tot) < 1e-13, True)
temp = sum(n["mass"] * sum(c * c for c in n["velocity"]) for n in nodes) / (3 * 19)
expect("gas: temperature T0 = 1", temp, 1.0, 1e-13)

# the same gas in open space: granular-linear, no box
run = load("granular-open")
g = model(run, "granular-linear")
expect("open gas: boundary", (g.get("boundary"), "box" in g), ("open", False))

# the column: the floor pairs listed, the box W x W x Lz, Lz = 2 H + 4 (2 rmax + skin),
# H = max(N <V> / (phi W^2), 3 rmax), <r^3> = (rmax^4 - rmin^4) / (4 (rmax - rmin))
run = load("granular-column")
g = model(run, "granular-linear")
r3 = (0.5 ** 4 - 0.4 ** 4) / (4 * 0.1)
H = max(12 * 4 / 3 * math.pi * r3 / (0.2 * 9), 1.5)
expect("column: box", g.get("box", [0, 0, 0])[:2], [3.0, 3.0])
expect("column: box height", g.get("box", [0, 0, 0])[2], 2 * H + 4 * (1.0 + 0.2), 1e-14)
expect("column: a floor pair per sphere, no sphere pair",
       sorted((p["i"], p["plane"]["point"][2], tuple(p["plane"]["normal"])) for p in g["pairs"]
              if "plane" in p), [(i, 0.0, (0.0, 0.0, 1.0)) for i in range(12)])
expect("column: only walls listed", all("plane" in p for p in g["pairs"]), True)

# the affine flow's deforming cell: sides size [e_x, 0.13 e_x + e_y, -0.08 e_y + e_z] as
# columns, L = 0 before t_switch and rate e_x e_y^T after
run = load("affine-shear")
c = model(run, "deforming-cell")
expect("cell: sides", c.get("sides"), [2.5, 0.13 * 2.5, 0.0, 0.0, 2.5, -0.08 * 2.5, 0.0, 0.0, 2.5])
expect("cell: gradient before the switch", c.get("velocity_gradient"), [0.0] * 9)
expect("cell: switch", c.get("t_switch"), 0.25)
expect("cell: gradient after", c.get("velocity_gradient_after"),
       [0.0, 0.61, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
expect("cell: not opaque", [f for f in run["forces"] if f["model"] == "opaque"], [])

# the Lennard-Jones fluid: lj-cut in the box of 4 fcc cells of side (4 / rho)^(1/3)
run = load("lj-fluid")
l = model(run, "lj-cut")
expect("lj: parameters", (l.get("epsilon"), l.get("sigma"), l.get("cutoff")), (1.0, 1.0, 2.5))
expect("lj: boundary", l.get("boundary"), "periodic")
expect("lj: box side", l.get("box", [0])[0], 4 * (4 / 0.7) ** (1 / 3), 1e-14)
expect("lj: 256 particles", len(run["nodes"]), 256)

sys.exit(1 if failures else 0)
