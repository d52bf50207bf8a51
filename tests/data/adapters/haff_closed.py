#!/usr/bin/env python3
"""An outside integrator of a granular gas that cools exactly by Haff's law, for
tests/test_outside_rows.sh: every returned row keeps the initial positions and scales the
initial velocities by 1 / (1 + t/tau), tau = $MB_TEST_HAFF_TAU, so that the granular
temperature is T(0) / (1 + t/tau)^2 and 1/sqrt(T) is a straight line whose a/b is tau.
The rows are those run.json asks for (mbadapter.sample_steps); the sample_every it was sent
is written to $MB_TEST_DUMP_DIR/sample_every."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "adapters"))
import mbadapter as mb  # noqa: E402


def run_one(run, path):
    tau = float(os.environ["MB_TEST_HAFF_TAU"])
    with open(os.path.join(os.environ["MB_TEST_DUMP_DIR"], "sample_every"), "w") as out:
        out.write("%d\n" % int(run["time"].get("sample_every", 1)))
    rows = []
    for _, t in mb.sample_steps(run["time"]):
        scale = 1.0 / (1.0 + t / tau)
        nodes = [{"position": n["position"], "velocity": [scale * c for c in n["velocity"]],
                  "orientation": n["orientation"], "angular_velocity": n["angular_velocity"]}
                 for n in run["nodes"]]
        rows.append(mb.state_row(t, nodes))
    mb.write_trajectory(path, run, rows)


if __name__ == "__main__":
    sys.exit(mb.serve(sys.argv, run_one))
