#!/usr/bin/env python3
"""A deliberately broken outside integrator returning .npy trajectories, for the hostile
catalogue (tests/hostile/catalogue, adapter-npy-*; doc/external.md section 4b).

usage: broken_npy.py MODE run.json trajectory.npy

Writes the trajectory of the requested shape as a NumPy .npy array of format version 1.0
(by hand: no NumPy) -- row 0 the initial state, every later row a little displaced -- and
then commits the defect named by MODE: truncated (the last row cut short), columns (one
column too few in the shape and the data), rows (one row too few), descr ('<f4' in the
header), fortran (fortran_order True), version (format version 2.0), text (CSV text in
the .npy file), nan-t (t NaN in row 3), nan-state (x NaN in row 3: the run diverges),
fifo (a FIFO in place of the file)."""
import json
import os
import struct
import sys

mode, run_path, traj_path = sys.argv[1], sys.argv[2], sys.argv[3]
with open(run_path) as fh:
    run = json.load(fh)
if run.get("trajectory_format") != "npy" or not traj_path.endswith(".npy"):
    print("broken_npy.py: run.json asks for %s (test set-up error)" % run.get("trajectory_format"))
    sys.exit(3)
h, steps, every = run["time"]["dt"], run["time"]["steps"], run["time"]["sample_every"]
state = []
for node in run["nodes"]:
    state += node["position"] + node["velocity"]
rows = [[n * h] + [c + 1e-3 * n * h for c in state]
        for n in range(steps + 1) if n % every == 0 or n == steps]
columns = len(run["columns"])
descr, order, major = "<f8", "False", 1
if mode == "columns":
    columns -= 1
    rows = [r[:-1] for r in rows]
if mode == "rows":
    rows = rows[:-1]
if mode == "descr":
    descr = "<f4"
if mode == "fortran":
    order = "True"
if mode == "version":
    major = 2
if mode == "nan-t":
    rows[3][0] = float("nan")
if mode == "nan-state":
    rows[3][1] = float("nan")
if mode == "fifo":
    os.mkfifo(traj_path)
    sys.exit(0)
if mode == "text":
    with open(traj_path, "w") as out:
        out.write(",".join(run["columns"]) + "\n")
        for r in rows:
            out.write(",".join(repr(c) for c in r) + "\n")
    sys.exit(0)
header = "{'descr': '%s', 'fortran_order': %s, 'shape': (%d, %d), }" % (descr, order, len(rows),
                                                                      columns)
header += " " * (63 - (10 + len(header)) % 64) + "\n"
data = b"".join(struct.pack("<%dd" % columns, *r) for r in rows)
if mode == "truncated":
    data = data[:-5]
with open(traj_path, "wb") as out:
    out.write(b"\x93NUMPY" + bytes([major, 0]) + struct.pack("<H", len(header))
              + header.encode("ascii") + data)
