#!/usr/bin/env python3
"""lj_lammps_check.py -- the energy statistics of a LAMMPS Lennard-Jones run, by hand.

A check of motionbench's verdict on LAMMPS (doc/statistics.md) that shares no code with it:
LAMMPS is run directly from an input written here, the energies are LAMMPS's own (thermo
etotal, LAMMPS's pair energy), and the statistics are written out again below in plain
Python (no numpy):
  sigma      population standard deviation of E/n over t >= FROM (Merz & Shirts 2018)
  se(sigma)  se(sigma^2)/(2 sigma), se(sigma^2) = sqrt(g var(y)/N), y = (E/n - mean)^2,
             g = 1 + 2 sum (1 - t/N) C(t) to the first C <= 0 beyond lag 3 (Chodera 2007)
  drift      least-squares slope of E/n against t, its error times sqrt(g) of the residuals
  order      weighted least-squares slope of ln sigma against ln dt (weights (sigma/se)^2),
             its standard error widened by sqrt(chi^2/(K-2)) when that exceeds 1
The initial state is row 0 of a `motionbench simulate -p lj-fluid` CSV (the same fcc
lattice and velocities as the bench's runs), or any CSV with the n{i}_x ... n{i}_vz columns.
The energy of the first frame is also recomputed here by an all-pairs minimum-image sum and
compared with LAMMPS's (they must agree to round-off).

  src/motionbench simulate -p lj-fluid -i velocity-verlet --dt 0.004 --t-end 0.004 -o s.csv
  python3 tools/lj_lammps_check.py --state s.csv --potential smooth --dt 0.004,0.002,0.001
"""

import argparse
import csv
import math
import os
import subprocess
import sys
import tempfile


def read_state(path):
    """Positions and velocities of row 0 of a CSV with n{i}_x .. n{i}_vz columns."""
    with open(path) as f:
        r = csv.reader(f)
        head = next(r)
        row = [float(v) for v in next(r)]
    col = {name: k for k, name in enumerate(head)}
    n = sum(1 for name in head if name.endswith("_vz"))
    x = [[row[col["n%d_%s" % (i, a)]] for a in "xyz"] for i in range(n)]
    v = [[row[col["n%d_v%s" % (i, a)]] for a in "xyz"] for i in range(n)]
    return x, v


def pair_energy(r, pot, rc):
    """The LJ pair energy (epsilon = sigma = 1) of the two forms, for r < rc."""
    def plain(s):
        s6 = s ** -6
        return 4.0 * (s6 * s6 - s6), -24.0 * (2.0 * s6 * s6 - s6) / s
    V, _ = plain(r)
    Vc, dVc = plain(rc)
    return V - Vc - ((r - rc) * dVc if pot == "smooth" else 0.0)


def energy_by_hand(x, v, L, pot, rc, mass):
    """Kinetic + pair energy by the all-pairs minimum-image sum."""
    ke = 0.5 * mass * sum(c * c for vi in v for c in vi)
    pe = 0.0
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            d2 = 0.0
            for k in range(3):
                d = x[j][k] - x[i][k]
                d -= L * round(d / L)
                d2 += d * d
            if d2 < rc * rc:
                pe += pair_energy(math.sqrt(d2), pot, rc)
    return ke + pe


def run_lammps(x, v, L, pot, rc, skin, dt, steps, workdir):
    """E(t) of LAMMPS at every step: [(t, etotal)]."""
    data = os.path.join(workdir, "fluid.data")
    with open(data, "w") as f:
        f.write("by hand\n\n%d atoms\n1 atom types\n\n" % len(x))
        for a in "xyz":
            f.write("0 %r %slo %shi\n" % (L, a, a))
        f.write("\nMasses\n\n1 1.0\n\nAtoms # atomic\n\n")
        for i, p in enumerate(x, 1):
            img = [int(c // L) for c in p]
            f.write("%d 1 %r %r %r %d %d %d\n" % ((i,) + tuple(c - m * L for c, m in zip(p, img)) + tuple(img)))
        f.write("\nVelocities\n\n")
        for i, u in enumerate(v, 1):
            f.write("%d %r %r %r\n" % ((i,) + tuple(u)))
    style = ("pair_style lj/smooth/linear %r\npair_coeff 1 1 1.0 1.0 %r\n" % (rc, rc) if pot == "smooth"
             else "pair_style lj/cut %r\npair_coeff 1 1 1.0 1.0 %r\npair_modify shift yes\n" % (rc, rc))
    with open(os.path.join(workdir, "in.lammps"), "w") as f:
        f.write("units lj\nboundary p p p\natom_style atomic\nread_data fluid.data\n" + style
                + "neighbor %r bin\nneigh_modify every 1 delay 0 check yes\nfix 1 all nve\n"
                  "timestep %r\nthermo_style custom step etotal\nthermo_modify norm no format float %%.17g\n"
                  "thermo 1\nrun %d\n" % (skin, dt, steps))
    subprocess.run(["lmp", "-in", "in.lammps", "-log", "log.lammps", "-screen", "none", "-nocite"],
                   cwd=workdir, check=True)
    out, on = [], False
    for line in open(os.path.join(workdir, "log.lammps")):
        w = line.split()
        if w[:2] == ["Step", "TotEng"]:
            on = True
            continue
        if on and len(w) == 2 and w[0].isdigit():
            out.append((int(w[0]) * dt, float(w[1])))
        elif on and w[:1] == ["Loop"]:
            on = False
    return out


def inefficiency(y):
    n = len(y)
    mu = sum(y) / n
    d = [c - mu for c in y]
    var = sum(c * c for c in d) / n
    if var <= 0:
        return 1.0
    g = 1.0
    for t in range(1, n - 1):
        c = sum(d[k] * d[k + t] for k in range(n - t)) / ((n - t) * var)
        if c <= 0 and t > 3:
            break
        g += 2.0 * c * (1.0 - t / n)
    return max(g, 1.0)


def fluctuation(e):
    n = len(e)
    mu = sum(e) / n
    y = [(c - mu) ** 2 for c in e]
    s2 = sum(y) / n
    vy = sum((c - s2) ** 2 for c in y) / n
    g = inefficiency(y)
    s = math.sqrt(s2)
    return s, math.sqrt(g * vy / n) / (2.0 * s), g


def drift(t, e):
    n = len(t)
    mt, me = sum(t) / n, sum(e) / n
    sxx = sum((a - mt) ** 2 for a in t)
    b = sum((a - mt) * (c - me) for a, c in zip(t, e)) / sxx
    r = [c - (me + b * (a - mt)) for a, c in zip(t, e)]
    se = math.sqrt(sum(c * c for c in r) / ((n - 2) * sxx))
    return b, se * math.sqrt(inefficiency(r))


def power_fit(dts, s, se):
    w = [(a / b) ** 2 for a, b in zip(s, se)]
    x = [math.log(d) for d in dts]
    y = [math.log(a) for a in s]
    sw, sx, sy = sum(w), sum(a * b for a, b in zip(w, x)), sum(a * b for a, b in zip(w, y))
    sxx = sum(a * b * b for a, b in zip(w, x))
    sxy = sum(a * b * c for a, b, c in zip(w, x, y))
    det = sw * sxx - sx * sx
    p = (sw * sxy - sx * sy) / det
    a = (sy - p * sx) / sw
    chi2 = sum(wi * (yi - a - p * xi) ** 2 for wi, xi, yi in zip(w, x, y))
    se_p = math.sqrt(sw / det)
    if len(dts) > 2 and chi2 / (len(dts) - 2) > 1:
        se_p *= math.sqrt(chi2 / (len(dts) - 2))
    return p, se_p, chi2


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--state", required=True)
    ap.add_argument("--potential", choices=("smooth", "cut"), default="smooth")
    ap.add_argument("--density", type=float, default=0.8442)
    ap.add_argument("--cutoff", type=float, default=2.5)
    ap.add_argument("--skin", type=float, default=0.3)
    ap.add_argument("--t-end", type=float, default=2.0)
    ap.add_argument("--from", dest="t_from", type=float, default=0.5)
    ap.add_argument("--dt", default="0.004,0.002,0.001")
    a = ap.parse_args()
    x, v = read_state(a.state)
    n = len(x)
    L = (n / a.density) ** (1.0 / 3.0)
    dts = sorted(float(d) for d in a.dt.split(","))
    e_hand = energy_by_hand(x, v, L, a.potential, a.cutoff, 1.0)
    sig, err = [], []
    print("%s potential, %d atoms, box %.6g, t in [%g, %g]" % (a.potential, n, L, a.t_from, a.t_end))
    for dt in dts:
        with tempfile.TemporaryDirectory() as wd:
            series = run_lammps(x, v, L, a.potential, a.cutoff, a.skin, dt, round(a.t_end / dt), wd)
        if dt == dts[0]:
            print("E(0): LAMMPS %.17g, all pairs by hand %.17g (difference %.2g)"
                  % (series[0][1], e_hand, series[0][1] - e_hand))
        t = [p[0] for p in series if p[0] >= a.t_from - 1e-9 * dt]
        e = [(p[1] - series[0][1]) / n for p in series if p[0] >= a.t_from - 1e-9 * dt]
        s, se, g = fluctuation(e)
        b, bse = drift(t, e)
        sig.append(s)
        err.append(se)
        print("dt %-8g samples %5d  sigma(E/n) %.6g +- %.2g (g %.3g)  drift/n %.3g +- %.2g"
              % (dt, len(e), s, se, g, b, bse))
    for k in range(1, len(dts)):
        print("pairwise order %g -> %g: %.4f" % (dts[k], dts[k - 1],
                                                   math.log(sig[k] / sig[k - 1]) / math.log(dts[k] / dts[k - 1])))
    if len(dts) >= 2:
        p, se_p, chi2 = power_fit(dts, sig, err)
        print("fluctuation order %.4f +- %.4f (chi^2 %.3g)" % (p, se_p, chi2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
