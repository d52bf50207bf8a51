#!/usr/bin/env python3
"""Velocity Verlet as an outside integrator of motionbench (doc/external.md).

usage: verlet.py run.json trajectory.csv   (or trajectory.npy when run.json's
       trajectory_format is "npy": the descriptor adapters/pyverlet-npy.adapter asks for it)

    v(t + h/2) = v(t) + (h/2) a(x(t));  x(t + h) = x(t) + h v(t + h/2);
    v(t + h)   = v(t + h/2) + (h/2) a(x(t + h))

Forces: gravity, central (inverse square), springs without dashpot.  Anything else, or a
rotating problem, is declined with exit status 77.  Python standard library only."""
import json
import math
import struct
import sys

SUPPORTED = {"gravity", "central", "springs"}


def decline(why):
    print(why)
    sys.exit(77)


def accelerations(run, x):
    n = len(x)
    f = [[0.0, 0.0, 0.0] for _ in range(n)]
    m = [node["mass"] for node in run["nodes"]]
    for model in run["forces"]:
        if model["model"] == "gravity":
            for i in range(n):
                f[i] = [f[i][a] + m[i] * model["g"][a] for a in range(3)]
        elif model["model"] == "central":
            for i in range(n):
                d = [x[i][a] - model["centre"][a] for a in range(3)]
                r = math.sqrt(sum(c * c for c in d))
                f[i] = [f[i][a] - model["mu"] * m[i] * d[a] / r ** 3 for a in range(3)]
        else:
            for s in model["springs"]:
                i = s["i"]
                other = s["anchor"] if "anchor" in s else x[s["j"]]
                d = [other[a] - x[i][a] for a in range(3)]
                l = math.sqrt(sum(c * c for c in d))
                # f_i = k (l - L) n with n = d / l; L = 0 gives k d
                scale = s["k"] * (1.0 - s["rest"] / l) if s["rest"] else s["k"]
                f[i] = [f[i][a] + scale * d[a] for a in range(3)]
                if "j" in s:
                    f[s["j"]] = [f[s["j"]][a] - scale * d[a] for a in range(3)]
    return [[f[i][a] / m[i] for a in range(3)] for i in range(n)]


def write_npy(path, rows, columns):
    """The rows as a NumPy .npy file, format version 1.0, written by hand (doc/external.md,
    section 4b): the magic \\x93NUMPY, the version 1 0, the header's length (2 bytes,
    little-endian) and the header -- a Python dict literal giving the element type '<f8'
    (little-endian doubles), C order and the shape (rows, columns), padded with blanks to a
    multiple of 64 bytes and ended by a newline --, then the doubles row after row."""
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (%d, %d), }" % (len(rows), columns)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as out:
        out.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("ascii"))
        for row in rows:
            out.write(struct.pack("<%dd" % columns, *row))


def main(run_path, traj_path):
    with open(run_path) as fh:
        run = json.load(fh)
    for model in run["forces"]:
        if model["model"] not in SUPPORTED:
            decline("force model '%s' is outside this example" % model.get("name", model["model"]))
        if model["model"] == "springs" and any(s["c"] for s in model["springs"]):
            decline("springs with dashpots are outside this example")
    if run["rotation"] or any(node["blocked"] for node in run["nodes"]):
        decline("rotation and blocked degrees of freedom are outside this example")
    if any(node["mass"] is None for node in run["nodes"]):
        decline("fixed nodes (infinite mass) are outside this example")
    h, steps = run["time"]["dt"], run["time"]["steps"]
    every = run["time"]["sample_every"]
    x = [list(node["position"]) for node in run["nodes"]]
    v = [list(node["velocity"]) for node in run["nodes"]]
    a = accelerations(run, x)
    rows = []
    for n in range(steps + 1):
        if n > 0:
            v = [[v[i][k] + 0.5 * h * a[i][k] for k in range(3)] for i in range(len(x))]
            x = [[x[i][k] + h * v[i][k] for k in range(3)] for i in range(len(x))]
            a = accelerations(run, x)
            v = [[v[i][k] + 0.5 * h * a[i][k] for k in range(3)] for i in range(len(x))]
        if n % every == 0 or n == steps:
            rows.append([n * h] + [float(c) for i in range(len(x)) for c in x[i] + v[i]])
    if run.get("trajectory_format") == "npy":
        write_npy(traj_path, rows, len(run["columns"]))
    else:
        with open(traj_path, "w") as out:
            out.write(",".join(run["columns"]) + "\n")
            for row in rows:
                out.write(",".join(repr(c) for c in row) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
