#!/usr/bin/env python3
"""A deliberately broken outside integrator, for tests/test_external_broken.sh.

usage: broken.py MODE run.json trajectory.csv

Writes a trajectory of the requested shape (row 0 the initial state, every later row a
little displaced from it: the numbers are not the point) and then commits the defect named
by MODE.  Modes about the rows' values: stale (every row the initial state), alias (every
row the final state, as an adapter storing live views of its package's state writes it),
huge (x = 1e308 from step 1).  Modes about the process: setsid (a daemonised child that
outlives the adapter; setsid-hang: and then hangs), fifo-trajectory / fifo-log / device-trajectory (a FIFO or device in
place of trajectory.csv or adapter.log), big-log (writes to its log without end),
empty-exception (an exception without a message), many-lines (exit 4 after four lines and
blank ones)."""
import json
import os
import signal
import sys
import time

mode, run_path, traj_path = sys.argv[1], sys.argv[2], sys.argv[3]
with open(run_path) as fh:
    run = json.load(fh)
h, steps, every = run["time"]["dt"], run["time"]["steps"], run["time"]["sample_every"]
columns = list(run["columns"])
state = []
for node in run["nodes"]:
    state += node["position"] + node["velocity"]
    if run["rotation"]:
        state += node["orientation"] + node["angular_velocity"]
rows = [[n * h] + [c + 1e-3 * n * h for c in state]
        for n in range(steps + 1) if n % every == 0 or n == steps]
if run["rotation"]:    # keep the quaternions as they were (unit)
    per = 13
    for r in rows[1:]:
        for i in range(len(run["nodes"])):
            r[1 + per * i + 6:1 + per * i + 10] = state[per * i + 6:per * i + 10]

if mode == "decline":
    print("this adapter cannot express the force model 'harmonic spring' (test)")
    sys.exit(77)
if mode == "empty-exception":
    print("an adapter about to fail (test)", flush=True)
    raise RuntimeError()           # the traceback's last line is the bare type name
if mode == "many-lines":
    print("line one\nline two: the cause (test)\nline three\nline four\n\n   \n", flush=True)
    sys.exit(4)
if mode == "exit3":
    print("something went wrong inside the adapter (test)")
    sys.exit(3)
if mode == "crash":
    sys.stdout.flush()
    os.kill(os.getpid(), signal.SIGSEGV)
if mode in ("setsid", "setsid-hang"):
    if os.fork() == 0:             # the daemon: a session of its own, out of the group
        os.setsid()
        if os.fork() == 0:
            os.execvp("sleep", ["sleep", os.environ.get("MB_TEST_DAEMON_SLEEP", "4245")])
        os._exit(0)
    os.wait()
if mode == "hang":
    import subprocess
    subprocess.Popen(["sleep", "4243"])    # a child: the whole process group must go
if mode in ("hang", "setsid-hang"):
    time.sleep(4242)
if mode == "stale":
    rows = [[r[0]] + state for r in rows]
if mode == "alias":
    rows = [[r[0]] + rows[-1][1:] for r in rows]
if mode == "huge":
    for r in rows[1:]:
        r[1] = 1e308
if mode in ("fifo-trajectory", "fifo-log", "device-trajectory"):
    target = "adapter.log" if mode == "fifo-log" else traj_path
    if mode == "fifo-log":
        with open(traj_path, "w") as out:
            out.write(",".join(columns) + "\n")
            for r in rows:
                out.write(",".join(repr(float(c)) for c in r) + "\n")
    if os.path.exists(target):
        os.remove(target)
    if mode == "device-trajectory":
        os.symlink("/dev/zero", target)
    else:
        os.mkfifo(target)
    sys.exit(0)
if mode == "big-log":
    line = "x" * 1023 + "\n"
    while True:
        sys.stdout.write(line)
if mode == "nothing":
    sys.exit(0)
if mode == "too-few":
    rows = rows[:-1]
if mode == "too-many":
    rows.append([rows[-1][0] + h] + state)
if mode == "missing-column":
    columns = columns[:-1]
    rows = [r[:-1] for r in rows]
if mode == "extra-column":
    columns.append("n0_temperature")
    rows = [r + [1.0] for r in rows]
if mode == "swapped-columns":
    columns[1], columns[2] = columns[2], columns[1]
if mode == "wrong-time":
    rows[len(rows) // 2][0] += 0.5 * h
with open(traj_path, "w") as out:
    out.write(",".join(columns) + "\n")
    for k, r in enumerate(rows):
        text = [repr(float(c)) for c in r]
        if k == 3 and mode == "nan":
            text[1] = "nan"
        if k == 3 and mode == "inf":
            text[2] = "-inf"
        if k == 3 and mode == "non-number":
            text[1] = "1.0abc"
        if k == 3 and mode == "short-row":
            text = text[:-1]
        out.write(",".join(text) + "\n")
