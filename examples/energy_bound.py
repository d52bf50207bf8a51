#!/usr/bin/env python3
"""energy_bound.py -- exact energy-error bounds of the example plugins on the oscillator.

A linear symplectic one-step map M (2x2, det 1, |trace| < 2) of q'' = -w^2 q conserves
the quadratic form Q(z) = z^T Q z with Q = [[-m21, (m11-m22)/2], [(m11-m22)/2, m12]]
(M^T Q M = Q).  The energy E(z) = |z|^2 / 2 (scaled q, p/w) then stays, along the
discrete orbit, within [lmin/lmax, lmax/lmin] E0, lmin and lmax the eigenvalues of Q,
so |E - E0| / E0 <= lmax / lmin - 1.  Printed for the drift-kick-drift leap-frog S and
the Forest-Ruth / Yoshida triple jump S(w1 h) S(w0 h) S(w1 h) at the time steps of
examples/plugins-harmonic.case (mpmath, 40 digits).  Usage: python3 energy_bound.py
"""
from mpmath import cbrt, matrix, mp, mpf, nstr, sqrt

mp.dps = 40
C = cbrt(2)
W1, W0 = 1 / (2 - C), -C / (2 - C)


def dkd(a):
    drift = matrix([[1, a / 2], [0, 1]])
    kick = matrix([[1, 0], [-a, 1]])
    return drift * kick * drift


def bound(m):
    a, b, d = -m[1, 0], (m[0, 0] - m[1, 1]) / 2, m[0, 1]
    tr, det = a + d, a * d - b * b
    disc = sqrt(tr * tr - 4 * det)
    return (tr + disc) / (tr - disc) - 1


W = sqrt(mpf("7.31") / mpf("2.385"))
for h in ("0.04", "0.02", "0.01", "0.005"):
    x = mpf(h) * W
    print(h, "leapfrog-dkd", nstr(bound(dkd(x)), 8),
          "forest-ruth", nstr(bound(dkd(W1 * x) * dkd(W0 * x) * dkd(W1 * x)), 8))
