"""LIGGGHTS's granular contact models for the LIGGGHTS adapter (doc/peers.md): the material
constants of a contact law as `fix property/global NAME peratomtypepair N ...` and the model
words of `pair_style gran` and `fix wall/gran`, shared by the listed contacts of
liggghts_adapter.py and the assemblies on the neighbour list of liggghts_assembly.py.

LIGGGHTS (tangential_model_history.h, normal_model_hooke_stiffness.h, hertz_stiffness.h,
rolling_model_cdt.h): hooke/stiffness F = kn d + gamman_abs d' (absolute_damping on),
F_t = -kt xi - gammat_abs u_t; hertz/stiffness multiplies kn, kt by sqrt(R* d); cdt's
torque coefficientRollingFriction (r - d/2) kn d.  One constant per pair of atom types."""

import math

from lammps_pair_run import num
import mbadapter as mb

NAMES = ("kn", "kt", "gamman", "gammat", "coefficientFriction", "coefficientRollingFriction")


def one_value(values, what):
    """The one value all pairs of a kind share (LIGGGHTS: one constant per type pair)."""
    values = sorted(set(float(v) for v in values))
    if len(values) > 1:
        mb.decline("LIGGGHTS adapter: %s differs between pairs %s (one per type pair)" % (
            what, values))
    return values[0] if values else 0.0


def pair_constants(name, model, pair):
    """{property: value} of one pair under the law `name` (NAMES; gamma* absolute for the
    linear laws, per effective mass for the Hertzian ones, which are undamped here)."""
    k, c = float(pair["k"]), float(pair.get("c", 0))
    kt, ct = float(pair.get("kt", 0)), float(pair.get("ct", 0))
    reff = float(pair["radius_eff"])
    mu = float(model.get("mu", 0))
    roll = float(pair.get("roll", 0))
    if name in ("contact-hertz", "contact-hertz-mindlin"):
        if c != 0 or ct != 0:
            mb.decline("LIGGGHTS adapter: a Hertzian dashpot scales as delta^(1/2) in "
                       "hertz/stiffness, as delta^(1/4) (Tsuji) in the problem")
        scale = math.sqrt(reff)
        k, kt = k / scale, kt / scale
    return {"kn": k, "kt": kt, "gamman": c, "gammat": ct, "coefficientFriction": mu,
            "coefficientRollingFriction": roll / reff}


def pair_matrix(sphere, plane, types):
    """peratomtypepair values: with 2 types 11 sphere-sphere, 12 = 21 sphere-wall, 22 unused;
    with 1 type (an assembly without walls) the sphere-sphere value alone."""
    if types == 1:
        return "1 %s" % num(sphere)
    return "2 %s %s %s %s" % (num(sphere), num(plane), num(plane), num(plane))


def model_words(law):
    """The model words of pair_style gran and fix wall/gran, and the settings after them."""
    hooke = law["name"] in ("contact-linear", "contact-cundall-strack")
    history = law["name"] in ("contact-cundall-strack", "contact-hertz-mindlin")
    model = "model %s tangential %s" % ("hooke/stiffness" if hooke else "hertz/stiffness",
                                        "history" if history else "no_history")
    if law["roll"]:
        model += " rolling_friction cdt"
    flags = "tangential_damping %s limitForce %s" % ("on" if law["tdamp"] else "off",
                                                     "on" if law["limit"] else "off")
    if hooke:
        flags = "absolute_damping on " + flags
    return model, flags


def property_lines(law, types=2):
    """fix property/global of every constant the law's models read, for `types` atom types."""
    hooke = law["name"] in ("contact-linear", "contact-cundall-strack")
    lines = []
    for k, key in enumerate(NAMES):
        if key == "coefficientRollingFriction" and not law["roll"]:
            continue
        prop = key + "_abs" if hooke and key in ("gamman", "gammat") else key
        lines.append("fix m%d all property/global %s peratomtypepair %s" % (
            k + 1, prop, pair_matrix(law.get("sphere", {}).get(key, 0.0),
                                     law.get("plane", {}).get(key, 0.0), types)))
    return lines
