"""Contact laws of run.json as LAMMPS granular styles, for lammps_adapter.py (doc/peers.md,
"Frictional contacts").

One contact law of the run becomes one pair style (sphere-sphere pairs) and one `fix wall/gran`
per sphere-plane pair, with the parameters mapped so that LAMMPS's force equals the bench's
(doc/external.md, section 3, "Contact fields"; LAMMPS documentation of pair_style gran/*,
pair_style granular and fix wall/gran):

  law (run.json)            option pair=   LAMMPS                       mapping
  contact-linear            (any)          gran/hooke                   Kn = k, gamma_n = c/m*
  contact-hertz             history        gran/hertz/history           Kn = K/sqrt(R*), Kt = xmu = 0
  contact-cundall-strack    history        gran/hooke/history           Kn = k, Kt = kt,
                                                                        gamma_n = c/m*, gamma_t = ct/m*,
                                                                        xmu = mu, dampflag = (ct > 0)
  contact-hertz-mindlin     history        gran/hertz/history           Kn = K/sqrt(R*), Kt = kt/sqrt(R*),
                                                                        xmu = mu (force x sqrt(R* delta))
  contact-hertz-mindlin     granular       granular hertz + mindlin     kn = K/sqrt(R*), kt = kt/sqrt(R*)
                                                                        (force x contact radius a = sqrt(R* delta))

LAMMPS's gamma is a rate (force = m* gamma v), its Hertzian styles scale every coefficient by
sqrt(R* delta), so the per-pair values of run.json must give one LAMMPS coefficient for all pairs
of the style (a pair style is global): otherwise the run is declined.  Declined as well, because
LAMMPS would integrate another system: a damped normal law that the bench clamps (LAMMPS's
dashpot is not clamped), a Hertzian dashpot (LAMMPS's scales as delta^(1/2), Tsuji's as
delta^(1/4)), rolling resistance (gran/* have none; granular's `rolling sds` is a spring-dashpot,
not the constant torque), several contact laws, planes not z = const with normal +z.
"""

import math

import mbadapter as mb
from lammps_pair_run import num

LAWS = ("contact-linear", "contact-hertz", "contact-cundall-strack", "contact-hertz-mindlin")
PAIR_OPTIONS = ("history", "granular")



def law_of(run):
    """(model name, law fields, sphere pairs, plane pairs) of the run's contact models, or None.
    Several models of one law with the same law fields (a scene splits its pairs) are one."""
    models = [f for f in run.get("forces", []) if f.get("model", "").startswith("contact-")]
    if not models:
        return None
    names = {m["model"] for m in models}
    if len(names) > 1:
        mb.decline("LAMMPS adapter: one contact law per run is translated (got %s)"
                   % ", ".join(sorted(names)))
    fields = {k: v for k, v in models[0].items() if k != "pairs"}
    for m in models[1:]:
        if {k: v for k, v in m.items() if k != "pairs"} != fields:
            mb.decline("LAMMPS adapter: contact models of one law with different parameters")
    spheres, planes = [], []
    for m in models:
        s, p = mb.contact_pairs(m)
        spheres += s
        planes += p
    return models[0]["model"], fields, spheres, planes


def frictional(run):
    """True when the run's contact law has a tangential part (it needs fix nve/sphere)."""
    law = law_of(run)
    return law is not None and law[0] in ("contact-cundall-strack", "contact-hertz-mindlin")


def coefficients(name, fields, pair, option):
    """The LAMMPS coefficients of one pair under the chosen style, a tuple of floats."""
    meff, reff = float(pair["mass_eff"]), float(pair["radius_eff"])
    k, c = float(pair["k"]), float(pair.get("c", 0))
    if name == "contact-linear":
        return (k, c / meff)
    mu = float(fields.get("mu", 0))
    kt, ct = float(pair.get("kt", 0)), float(pair.get("ct", 0))
    if name == "contact-cundall-strack":
        return (k, kt, c / meff, ct / meff, mu, 1 if ct > 0 else 0)
    scale = math.sqrt(reff)
    return (k / scale, kt / scale, mu)


def check(run, fix, option):
    """Decline what the styles cannot express; return the law (law_of) or None."""
    law = law_of(run)
    if law is None:
        return None
    if len(run["nodes"]) > 2:
        mb.decline("LAMMPS adapter: contacts among more than two spheres on listed pairs are "
                   "not translated (an assembly's contacts are a granular-* model)")
    return check_law(law, fix, option)


def check_law(law, fix, option):
    """Decline what the styles cannot express for law (name, fields, sphere pairs, plane
    pairs); return the law."""
    name, fields, spheres, planes = law
    if name not in LAWS:
        mb.decline("LAMMPS adapter: the contact law '%s' is not translated" % name)
    if option not in PAIR_OPTIONS:
        mb.decline("LAMMPS adapter: option pair=%s is not one of %s" % (option, ", ".join(PAIR_OPTIONS)))
    if option == "granular" and name != "contact-hertz-mindlin":
        mb.decline("LAMMPS adapter: pair=granular is translated for contact-hertz-mindlin only")
    if fix.startswith("rigid") or fix == "nve/asphere":
        mb.decline("fix %s: granular contacts need sphere atoms" % fix)
    if name in ("contact-cundall-strack", "contact-hertz-mindlin") and fix != "nve/sphere":
        mb.decline("fix %s: a frictional contact turns the spheres; use fix=nve/sphere" % fix)
    pairs = spheres + planes
    for p in pairs:
        if float(p.get("c", 0)) != 0 and fields.get("clamped", not fields.get("attractive", False)):
            mb.decline("LAMMPS adapter: LAMMPS's normal dashpot is not clamped (the problem's contact is)")
        if name in ("contact-hertz", "contact-hertz-mindlin") and (float(p.get("c", 0)) != 0
                                                                   or float(p.get("ct", 0)) != 0):
            mb.decline("LAMMPS adapter: a Hertzian dashpot scales as delta^(1/2) in LAMMPS, "
                       "as delta^(1/4) (Tsuji) in the problem")
        if float(p.get("roll", 0)) != 0:
            mb.decline("LAMMPS adapter: rolling resistance (constant torque) has no LAMMPS "
                       "granular equivalent (rolling sds is a spring-dashpot)")
    for p in planes:
        nrm = p["plane"]["normal"]
        if abs(nrm[0]) > 0 or abs(nrm[1]) > 0 or nrm[2] <= 0:
            mb.decline("LAMMPS adapter: only a plane z = const with normal +z is translated")
    values = {coefficients(name, fields, p, option) for p in spheres}
    if len(values) > 1:
        mb.decline("LAMMPS adapter: the sphere pairs need different LAMMPS coefficients "
                   "(a pair style is global)")
    return law


def style_args(name, coeffs, option):
    """The words after `pair_style` / after the wall fix's style for one set of coefficients."""
    if name == "contact-linear":
        k, gn = coeffs
        return "hooke", "%s 0 %s 0 0 0" % (num(k), num(gn))
    if name == "contact-cundall-strack":
        k, kt, gn, gt, mu, damp = coeffs
        return "hooke/history", "%s %s %s %s %s %d" % (num(k), num(kt), num(gn), num(gt), num(mu), damp)
    kn, kt, mu = coeffs
    if option == "granular":
        return "granular", "hertz %s 0 tangential mindlin %s 0 %s damping velocity" % (num(kn), num(kt), num(mu))
    return "hertz/history", "%s %s 0 0 %s 0" % (num(kn), num(kt), num(mu))


def pair_lines(law, option):
    """The pair style of the sphere-sphere pairs (pair_style zero without any)."""
    if law is None or not law[2]:
        return ["pair_style zero 1.0", "pair_coeff * *"]
    name, fields, spheres = law[0], law[1], law[2]
    style, args = style_args(name, coefficients(name, fields, spheres[0], option), option)
    if style == "granular":
        return ["pair_style granular", "pair_coeff * * " + args]
    return ["pair_style gran/%s %s" % (style, args), "pair_coeff * *"]


def wall_lines(law, option, nodes):
    """One `fix wall/gran` per sphere-plane pair (plane z = const, normal +z)."""
    if law is None:
        return []
    name, fields, planes = law[0], law[1], law[3]
    lines = []
    for p in planes:
        nd = nodes[p["i"]]
        style, args = style_args(name, coefficients(name, fields, p, option), option)
        lines.append("fix wall%d %s wall/gran %s %s zplane %s NULL"
                     % (nd.index, nd.group, style, args, num(p["plane"]["point"][2])))
    return lines
