"""Shared helpers of the motionbench adapters (protocols motionbench-run/1 and
motionbench-batch/2).

Reads run.json or runs.json and answers each run (`serve`), lists the requested sample steps,
provides the quaternion algebra the adapters need to translate orientations, and writes
trajectory.csv (or trajectory.npy, as run.json's trajectory_format asks) in the columns
run.json asks for.  Standard library only.  The protocol is
described in doc/external.md; the adapters in doc/peers.md.
"""

import json
import math
import os
import struct
import sys
import traceback

DECLINE = 77          # exit status: the adapter declines this run (run status `skipped`)
RUN_PROTOCOLS = ("motionbench-run/1", "motionbench-run/2")
BATCH_PROTOCOL = "motionbench-batch/2"


class Declined(SystemExit):
    """A run the adapter declines: exit status 77 for a single run, K.declined in a batch."""

    def __init__(self, reason):
        super().__init__(DECLINE)
        self.reason = reason


def decline(reason):
    """Print the one-line reason motionbench quotes and decline the run (exit 77 when it is
    the only run of the invocation)."""
    print(reason, flush=True)
    raise Declined(reason)


def explain_exception(exc, who):
    """One line that says what went wrong, whatever the exception carries: its type, where it
    was raised (file:line in function, the innermost frame) and its message, or that it has
    none -- `raise RuntimeError()` prints a traceback whose last line is the bare type name.
    An ImportError names the interpreter that could not import (often not the one the
    package's module was installed for)."""
    import traceback
    frames = traceback.extract_tb(exc.__traceback__)
    where = ""
    if frames:
        f = frames[-1]
        where = " at %s:%d in %s" % (f.filename.rsplit("/", 1)[-1], f.lineno, f.name)
    message = str(exc).strip().replace("\n", " ")
    text = "%s: %s raised%s: %s" % (who, type(exc).__name__, where,
                                     message if message else "(the exception has no message)")
    if isinstance(exc, ImportError):
        text += " (interpreter %s)" % sys.executable
    return text


def unexplained(exc):
    """An exception without a message, named by its type and where it was raised."""
    import traceback
    frames = traceback.extract_tb(exc.__traceback__)
    where = " raised at %s:%d in %s" % (frames[-1].filename.rsplit("/", 1)[-1], frames[-1].lineno,
                                        frames[-1].name) if frames else ""
    return "%s%s (the exception has no message)" % (type(exc).__name__, where)


def guard(main, who):
    """Run main(sys.argv) and exit with its status; an exception prints its traceback and then
    explain_exception's line (the last line of the log, which motionbench quotes) and exits 1."""
    try:
        status = main(sys.argv)
    except SystemExit:
        raise
    except BaseException as exc:          # noqa: B902  (every failure must be explained)
        import traceback
        traceback.print_exc()
        print(explain_exception(exc, who), file=sys.stderr, flush=True)
        sys.exit(1)
    sys.exit(status)


def explain_failure(program, returncode, output):
    """The reason a package's program failed, from its exit status (None: not known here) and
    its output (text):
    its ERROR lines when it printed some; otherwise say that it printed none, which is what a
    silent MPI abort (MPI_Abort from a library, an MPI layer that failed to start) or a crash
    looks like, and quote the last non-empty lines."""
    lines = [l.strip() for l in output.splitlines() if l.strip()]
    errors = [l for l in lines if l.startswith("ERROR") or "ERROR:" in l]
    if returncode is None:
        how = "failed"
    elif returncode < 0:
        how = "was killed by signal %d" % -returncode
    else:
        how = "exited with status %d" % returncode
    if errors:
        return "%s %s: %s" % (program, how, errors[-1])
    tail = " | ".join(lines[-2:]) if lines else "no output at all"
    return ("%s %s without an ERROR message (a silent MPI abort or a crash before the "
            "package reported): %s" % (program, how, tail))


def load_run(path):
    """The run description; refuses a protocol this adapter does not speak."""
    with open(path, encoding="utf-8") as f:
        run = json.load(f)
    if run.get("protocol") not in RUN_PROTOCOLS:
        print("unsupported protocol %r (this adapter speaks motionbench-run/1)"
              % run.get("protocol"), file=sys.stderr)
        sys.exit(2)
    return run


def _one_line(text):
    return " ".join(str(text).split())[:190] or "(no message)"


def answer_runs(runs, outdir, run_one, skip_answered=False):
    """Call run_one(run, run["trajectory"]) for every run of a batch (protocol 2): a run it
    declines (decline) is answered by outdir/K.declined with the reason, a run it fails (an
    exception, or an exit) by outdir/K.failed with the exception's type and message, and the
    batch goes on.  skip_answered: runs already declined or failed are left alone (an
    adapter that first plans every run, then runs its package once, then reads back)."""
    for run in runs:
        stem = os.path.join(outdir, str(int(run["id"])))
        if skip_answered and any(os.path.exists(stem + s) for s in (".declined", ".failed")):
            continue
        try:
            run_one(run, run["trajectory"])
        except Declined as d:
            with open(stem + ".declined", "w", encoding="utf-8") as out:
                out.write(_one_line(d.reason) + "\n")
        except SystemExit as e:
            with open(stem + ".failed", "w", encoding="utf-8") as out:
                out.write("exit status %s\n" % e.code)
        except Exception as e:   # one run's failure is that run's, the batch goes on
            traceback.print_exc()
            why = "%s: %s" % (type(e).__name__, e) if str(e).strip() else unexplained(e)
            with open(stem + ".failed", "w", encoding="utf-8") as out:
                out.write(_one_line(why) + "\n")
        sys.stdout.flush()
        sys.stderr.flush()


def dump_complete(path, steps):
    """Whether a LAMMPS-style dump (LAMMPS, LIGGGHTS) reached step `steps`."""
    if not os.path.exists(path):
        return False
    last = "%d\n" % int(steps)
    with open(path) as f:
        lines = f.readlines()
    return any(a.startswith("ITEM: TIMESTEP") and b == last for a, b in zip(lines, lines[1:]))


def run_planned(planned, execute, tail):
    """Run planned runs [(run, dump, input lines)] of a LAMMPS-like program in as few
    processes as it takes: execute(lines) runs one process on the runs' inputs one after the
    other (each ends with `clear`) and returns its exit status; an error ends the process at
    the run that made it, which fails alone (reason: tail(), the log's last lines), and the
    runs after it go on in a fresh process.  {run id: reason} of the runs that failed."""
    failed, pending = {}, list(planned)
    while pending:
        status = execute([line for _, _, lines in pending for line in lines])
        done = [dump_complete(dump, run["time"]["steps"]) for run, dump, _ in pending]
        if all(done):
            break
        first = done.index(False)
        failed[pending[first][0]["id"]] = "stopped in this run (status %s): %s" % (status, tail())
        pending = pending[first + 1:]
    return failed


def load_batch(path):
    """runs.json's list of runs, or None when path is a single run.json (protocol 1)."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if doc.get("protocol") != BATCH_PROTOCOL:
        return None
    for run in doc["runs"]:
        if run.get("protocol") not in RUN_PROTOCOLS:
            print("unsupported protocol %r" % run.get("protocol"), file=sys.stderr)
            sys.exit(2)
    return doc["runs"]


def serve(argv, run_one):
    """Answer the invocation: run.json trajectory.csv (protocol 1: run_one on the run), or
    runs.json trajectories (protocol 2: answer_runs).  run_one(run, path) integrates one run
    and writes its trajectory."""
    runs = load_batch(argv[1])
    if runs is None:
        return run_one(load_run(argv[1]), argv[2]) or 0
    answer_runs(runs, argv[2], run_one)
    return 0


def sample_steps(time):
    """[(step, t)] of the requested rows: every sample_every-th step and the last one.

    t is computed as the protocol states it (t0 + k dt, the last row at t_end), so the time
    column matches motionbench's to rounding whatever the package's own clock says."""
    dt, steps, every = time["dt"], int(time["steps"]), int(time.get("sample_every", 1))
    t0, t_end = time.get("t0", 0.0), time["t_end"]
    rows = [(k, t0 + k * dt) for k in range(0, steps + 1, max(every, 1))]
    if rows[-1][0] != steps:
        rows.append((steps, t_end))
    else:
        rows[-1] = (steps, t_end)
    return rows


def forces_by_model(run):
    """{model: [force entries]} of run.json's force list."""
    by = {}
    for f in run.get("forces", []):
        by.setdefault(f.get("model"), []).append(f)
    return by


def refuse_models(run, supported, who):
    """Decline when run.json holds a force model this adapter cannot express."""
    for model in forces_by_model(run):
        if model not in supported:
            decline("%s cannot express the force model '%s'" % (who, model))


def torque_nodes(model, count):
    """Indices of the nodes a `torque` model acts on ("nodes": "all", or "node": i)."""
    if model.get("nodes", None) == "all":
        return list(range(count))
    if "node" in model:
        return [int(model["node"])]
    return [int(i) for i in model.get("nodes", [])]


def contact_pairs(model):
    """(sphere-sphere pairs, sphere-plane pairs) of a contact model: dicts with i, j or plane
    {point, normal}, k, c.  Declines a sphere-box pair (box {center, rotation,
    half_extents}): no adapter expresses a static box as a wall."""
    pairs = model.get("pairs", [])
    if not isinstance(pairs, list):
        pairs = []
    if any(isinstance(p, dict) and "box" in p for p in pairs):
        decline("a sphere against a static box (a contact pair with \"box\") is not expressed "
                "by this adapter")
    return ([p for p in pairs if "plane" not in p], [p for p in pairs if "plane" in p])


# ---- quaternions (w, x, y, z), body (principal) to global frame ------------------------------

def qmul(a, b):
    """Hamilton product a b."""
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw)


def qconj(q):
    return (q[0], -q[1], -q[2], -q[3])


def qrotate(q, v):
    """R(q) v."""
    p = qmul(qmul(q, (0.0, v[0], v[1], v[2])), qconj(q))
    return (p[1], p[2], p[3])


def rmatrix_columns(q):
    """The columns R e1, R e2, R e3 of R(q)."""
    return [qrotate(q, e) for e in ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))]


def quat_from_columns(c1, c2, c3):
    """Unit quaternion of the rotation whose matrix has columns c1, c2, c3 (Shepperd's method)."""
    m = [[c1[0], c2[0], c3[0]], [c1[1], c2[1], c3[1]], [c1[2], c2[2], c3[2]]]
    tr = m[0][0] + m[1][1] + m[2][2]
    if tr > 0:
        s = 2.0 * math.sqrt(1.0 + tr)
        q = (0.25 * s, (m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s)
    elif m[0][0] > m[1][1] and m[0][0] > m[2][2]:
        s = 2.0 * math.sqrt(1.0 + m[0][0] - m[1][1] - m[2][2])
        q = ((m[2][1] - m[1][2]) / s, 0.25 * s, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s)
    elif m[1][1] > m[2][2]:
        s = 2.0 * math.sqrt(1.0 + m[1][1] - m[0][0] - m[2][2])
        q = ((m[0][2] - m[2][0]) / s, (m[0][1] + m[1][0]) / s, 0.25 * s, (m[1][2] + m[2][1]) / s)
    else:
        s = 2.0 * math.sqrt(1.0 + m[2][2] - m[0][0] - m[1][1])
        q = ((m[1][0] - m[0][1]) / s, (m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, 0.25 * s)
    return qnormalize(q)


def qnormalize(q):
    n = math.sqrt(sum(c * c for c in q))
    return tuple(c / n for c in q)


def same_hemisphere(q, previous):
    """q or -q, whichever is closer to previous (a quaternion path without sign jumps)."""
    if sum(a * b for a, b in zip(q, previous)) < 0:
        return tuple(-c for c in q)
    return q


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def solve3(m, b):
    """x with m x = b for a 3x3 matrix m (rows), by Cramer's rule."""
    def det(a):
        return (a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
                - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]))
    d = det(m)
    x = []
    for col in range(3):
        a = [list(r) for r in m]
        for row in range(3):
            a[row][col] = b[row]
        x.append(det(a) / d)
    return tuple(x)


def omega_from_angmom(q, inertia, angmom):
    """Global angular velocity w = R I^-1 R^T L of a body with principal moments inertia."""
    lb = qrotate(qconj(q), angmom)
    wb = tuple(lb[i] / inertia[i] if inertia[i] > 0 else 0.0 for i in range(3))
    return qrotate(q, wb)


# ---- trajectory.csv ---------------------------------------------------------------------------

FIELDS = {"x": ("position", 0), "y": ("position", 1), "z": ("position", 2),
          "vx": ("velocity", 0), "vy": ("velocity", 1), "vz": ("velocity", 2),
          "qw": ("orientation", 0), "qx": ("orientation", 1), "qy": ("orientation", 2),
          "qz": ("orientation", 3),
          "wx": ("angular_velocity", 0), "wy": ("angular_velocity", 1),
          "wz": ("angular_velocity", 2)}


STATE_KEYS = ("position", "velocity", "orientation", "angular_velocity")


def state_row(t, nodes):
    """One row, (t, [node state dicts]), with every value copied as a plain float now.

    A package may hand out live views of its state (numpy arrays, Vector3 objects that it
    updates in place); a row that kept them would show the final state when written, in
    every row.  Collect each row through this function, at the step it belongs to."""
    return (float(t), [{key: tuple(float(c) for c in node[key]) for key in STATE_KEYS
                        if key in node} for node in nodes])


def npy_header(rows, columns):
    """The preamble and header of a NumPy .npy file (format version 1.0) holding a C-order
    array of little-endian doubles of shape (rows, columns): magic, version, header length
    (2 bytes, little-endian), the dict, blanks and a newline to a multiple of 64 bytes
    (doc/external.md, section 4b)."""
    text = "{'descr': '<f8', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, columns)
    pad = 64 - (10 + len(text) + 1) % 64
    text += " " * (pad % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + text.encode("ascii")


def write_npy(path, matrix, columns):
    """Write the rows of matrix (lists of `columns` floats) as a .npy array, without NumPy."""
    row = struct.Struct("<%dd" % columns)
    with open(path, "wb") as out:
        out.write(npy_header(len(matrix), columns))
        for values in matrix:
            out.write(row.pack(*values))


def write_trajectory(path, run, rows):
    """rows: [(t, [node state dicts with position, velocity, orientation, angular_velocity])],
    each collected with state_row.  Written as run.json's trajectory_format asks: CSV, or
    the .npy array of the same columns (a many-body run of an adapter whose descriptor says
    `trajectory = csv, npy`)."""
    columns = run.get("columns")
    if not columns:
        columns = ["t"]
        for i in range(len(run["nodes"])):
            names = ["x", "y", "z", "vx", "vy", "vz"]
            if run.get("rotation"):
                names += ["qw", "qx", "qy", "qz", "wx", "wy", "wz"]
            columns += ["n%d_%s" % (i, n) for n in names]
    if run.get("trajectory_format") == "npy":
        fields = [None if c == "t" else (int(c.split("_", 1)[0][1:]),) + FIELDS[c.split("_", 1)[1]]
                  for c in columns]
        write_npy(path, [[float(t) if f is None else float(nodes[f[0]][f[1]][f[2]])
                          for f in fields] for t, nodes in rows], len(columns))
        return
    with open(path, "w", encoding="utf-8") as out:
        out.write(",".join(columns) + "\n")
        for t, nodes in rows:
            fields = []
            for c in columns:
                if c == "t":
                    fields.append(repr(float(t)))
                    continue
                node, name = c.split("_", 1)
                key, index = FIELDS[name]
                fields.append(repr(float(nodes[int(node[1:])][key][index])))
            out.write(",".join(fields) + "\n")
