#!/usr/bin/env python3
"""A fake outside integrator of protocol 2 (doc/external.md, section 2b), for
tests/test_external_batch.sh.

usage: batch.py MODE runs.json trajectories

Answers every run of runs.json with the velocity Verlet of examples/python_adapter/verlet.py
(each run written to run-K.json and integrated by its main), then commits the defect named by
MODE: good (none), swap (runs 0 and 1 answered under each other's numbers), swap-case (the
runs of equal time step of the first two cases exchanged), extra (one trajectory more than
runs were asked), missing (the last run unanswered), twice (run 0 answered by a trajectory
and a decline), stray (a file that answers no run), fifo (a FIFO in place of 0.csv), decline
(run 1 declined), fail (run 1 failed), exit3 (every run answered, then exit status 3), exit77
(the whole batch declined), csv-for-npy (run 0, asked for trajectories/0.npy, answered as
0.csv).  With `trajectory = npy` in the descriptor verlet.main writes each K.npy."""
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "examples", "python_adapter"))
import verlet  # noqa: E402

mode, runs_path, outdir = sys.argv[1], sys.argv[2], sys.argv[3]
with open(runs_path) as fh:
    doc = json.load(fh)
assert doc["protocol"] == "motionbench-batch/2", doc["protocol"]
runs = doc["runs"]
if os.environ.get("BATCH_INVOCATIONS"):      # the test counts the invocations
    with open(os.environ["BATCH_INVOCATIONS"], "a") as fh:
        fh.write("%s %d %s\n" % (mode, len(runs), " ".join(sorted({r["case"] for r in runs}))))
if mode == "exit77":
    print("this batch is declined whole (test)")
    sys.exit(77)
for run in runs:
    k = run["id"]
    with open("run-%d.json" % k, "w") as fh:
        json.dump(run, fh)
    verlet.main("run-%d.json" % k, run["trajectory"])


def path(k, suffix="csv"):
    return os.path.join(outdir, "%d.%s" % (k, suffix))


if mode == "swap":
    os.rename(path(0), "tmp.csv")
    os.rename(path(1), path(0))
    os.rename("tmp.csv", path(1))
elif mode == "swap-case":
    first = [r for r in runs if r["case"] == runs[0]["case"]]
    for a in first:
        b = next(r for r in runs if r["case"] != a["case"] and r["time"]["dt"] == a["time"]["dt"])
        os.rename(path(a["id"]), "tmp.csv")
        os.rename(path(b["id"]), path(a["id"]))
        os.rename("tmp.csv", path(b["id"]))
elif mode == "extra":
    shutil.copy(path(0), path(len(runs)))
elif mode == "missing":
    os.remove(path(len(runs) - 1))
elif mode == "twice":
    with open(path(0, "declined"), "w") as fh:
        fh.write("declined after all\n")
elif mode == "stray":
    with open(os.path.join(outdir, "notes.txt"), "w") as fh:
        fh.write("a note\n")
elif mode == "fifo":
    os.remove(path(0))
    os.mkfifo(path(0))
elif mode == "decline":
    os.remove(path(1))
    with open(path(1, "declined"), "w") as fh:
        fh.write("run 1 is declined by this adapter (test)\n")
elif mode == "fail":
    os.remove(path(1))
    with open(path(1, "failed"), "w") as fh:
        fh.write("the package crashed on run 1 (test)\n")
elif mode == "csv-for-npy":
    os.remove(path(0, "npy"))
    shutil.copy(path(1, "npy"), path(0, "csv"))
elif mode == "exit3":
    print("something went wrong after the runs (test)")
    sys.exit(3)
