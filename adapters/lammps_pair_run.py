"""A LAMMPS run of a pair style through a neighbour list (the Lennard-Jones fluid of
lammps_lj.py, the granular assembly of lammps_assembly.py): the lines that integrate and
dump the sampled states, and the trajectory rows read back from the dump.

The dump holds the unwrapped positions (xu yu zu: continuous across the faces, the bench
takes the minimum image itself) and the velocities (and, for spheres, omegax..z) at the
sampled steps only (run.json's sample_every); the last step is appended by write_dump when
it is off the dump's period."""

import mbadapter as mb


def num(v):
    """A float as LAMMPS reads it back exactly."""
    return repr(float(v))


def sampling(time):
    """(every, steps) of run.json's time block."""
    return max(int(time.get("sample_every", 1)), 1), int(time["steps"])


def run_lines(fix, time, dump, cols):
    """`fix integrate`, the time step, the dump of cols every sampled step and the run, ending
    with `clear` (the runs of a batch follow each other in one lmp)."""
    every, steps = sampling(time)
    lines = ["fix integrate all %s" % fix, "timestep %s" % num(time["dt"]),
             "dump traj all custom %d %s %s" % (every, dump, cols),
             "dump_modify traj format float %.17g sort id",
             "thermo 0", "thermo_style custom step", "run %d" % steps]
    if steps % every:
        # the last row (t_end) is off the dump's period: appended once the run is over
        lines += ["undump traj",
                  "write_dump all custom %s %s modify format float %%.17g sort id append yes"
                  % (dump, cols)]
    return lines + ["clear"]


def rows(run, frames, spins):
    """The trajectory rows at the requested steps, row 0 the state run.json sent; spins: the
    dump's columns 7..9 are the angular velocity (otherwise it is zero)."""
    out = []
    for step, t in mb.sample_steps(run["time"]):
        if step not in frames:
            raise KeyError(step)
        states = []
        for i, n in enumerate(run["nodes"]):
            if step == 0:
                states.append({key: n[key] for key in mb.STATE_KEYS})
                continue
            v = frames[step][i + 1]
            states.append({"position": v[0:3], "velocity": v[3:6],
                           "orientation": n["orientation"],
                           "angular_velocity": v[6:9] if spins else (0.0, 0.0, 0.0)})
        out.append(mb.state_row(t, states))
    return out
