#!/usr/bin/env python3
"""Leap-frog (kick-drift) writing MID-STEP velocities, for tests/test_external_broken.sh.

usage: leapfrog_mid.py run.json trajectory.csv

    v(h/2) = v(0) + (h/2) a(x(0));  v(t + h/2) = v(t - h/2) + h a(x(t));
    x(t + h) = x(t) + h v(t + h/2)
Row t holds x(t) and v(t - h/2) (row 0: the initial values).  Springs without dashpot
only; anything else is declined (exit 77)."""
import json
import sys

with open(sys.argv[1]) as fh:
    run = json.load(fh)
if run["rotation"] or any(m["model"] != "springs" for m in run["forces"]):
    print("only springs without rotation")
    sys.exit(77)
h, steps = run["time"]["dt"], run["time"]["steps"]
every = run["time"].get("sample_every", 1)
m = [n["mass"] for n in run["nodes"]]
x = [list(n["position"]) for n in run["nodes"]]
v = [list(n["velocity"]) for n in run["nodes"]]


def acc(x):
    f = [[0.0] * 3 for _ in x]
    for model in run["forces"]:
        for s in model["springs"]:
            if s["c"] or s["rest"]:
                print("only linear springs (rest 0, no dashpot)")
                sys.exit(77)
            i = s["i"]
            other = s["anchor"] if "anchor" in s else x[s["j"]]
            for a in range(3):
                f[i][a] += s["k"] * (other[a] - x[i][a])
                if "j" in s:
                    f[s["j"]][a] -= s["k"] * (other[a] - x[i][a])
    return [[f[i][a] / m[i] for a in range(3)] for i in range(len(x))]


with open(sys.argv[2], "w") as out:
    out.write(",".join(run["columns"]) + "\n")
    out.write(",".join(repr(float(c)) for c in [0.0] + [c for i in range(len(x)) for c in x[i] + v[i]]) + "\n")
    for n in range(1, steps + 1):
        a = acc(x)
        kick = 0.5 * h if n == 1 else h
        v = [[v[i][k] + kick * a[i][k] for k in range(3)] for i in range(len(x))]
        x = [[x[i][k] + h * v[i][k] for k in range(3)] for i in range(len(x))]
        if n % every == 0 or n == steps:
            row = [n * h] + [c for i in range(len(x)) for c in x[i] + v[i]]
            out.write(",".join(repr(float(c)) for c in row) + "\n")
