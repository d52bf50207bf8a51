#!/bin/sh
# test_scene_assembly.sh -- a settling column written as scene data ([assembly], [space],
# [force], [obstacle], [contact]) runs byte for byte as the granular-column problem does:
# the same case, once with problem = granular-column and its parameters, once with
# problem = scene and the sections doc/scenes.md ("Assemblies") gives for it, the numbers
# of the law and of the list's box computed here by awk from the formulas of doc/dem.md
# ("A settling column").  runs.csv, metrics.csv and checks.csv must be identical; a scene
# with the law's stiffness one percent off must not be (negative control).
set -u
MB=${MB_PROGRAM:-./src/motionbench}
SRC=${srcdir:-.}
. "$SRC/tests/cli_test_lib.sh"

# N = 120 spheres, radii [0.4, 0.5], W = 6, phi = 0.2, density 1, e = 0.5, t_c = 0.02,
# skin 0.2: <V> = 4/3 pi (b^4 - a^4) / (4 (b - a)), H = N <V> / (phi W^2), the list's
# z side 2 H + 4 (2 b + skin), zeta = -ln e / sqrt(pi^2 + ln^2 e),
# kn = <V>/2 (pi / (t_c sqrt(1 - zeta^2)))^2
numbers() {
    awk -v scale="$1" 'BEGIN {
        pi = atan2(0, -1); a = 0.4; b = 0.5
        V = 4.0 / 3.0 * pi * ((b * b * b * b - a * a * a * a) / (4.0 * (b - a)))
        H = 120 * V / (0.2 * 6.0 * 6.0); Lz = 2.0 * H + 4.0 * (2.0 * b + 0.2)
        le = log(0.5); zeta = -le / sqrt(pi * pi + le * le)
        w0 = pi / (0.02 * sqrt(1.0 - zeta * zeta))
        printf "%.17g %.17g %.17g\n", Lz, scale * 0.5 * V * w0 * w0, zeta }'
}

header() {
    printf '[case]\nname = column\nproblem = %s\nt_end = 0.4\nreference = none\n' "$1"
    printf '[run]\nintegrators = leapfrog, velocity-verlet\ndt = 0.002, 0.001\n'
}

header granular-column > "$tmp/problem.case"
printf '[problem]\nspheres = 120\n' >> "$tmp/problem.case"

scene_case() {
    set -- $(numbers "$1")
    header scene
    printf '[assembly column]\ngenerator = packing\ncount = 120\nrmin = 0.4\nrmax = 0.5\n'
    printf 'fraction = 0.2\nwidth = 6\nperiodic = xy\nseed = 2385\ndensity = 1\n'
    printf '[space]\nbox = 6, 6, %s\nskin = 0.2\n' "$1"
    printf '[force g]\ntype = gravity\ng = 0, 0, -1\n'
    printf '[obstacle floor]\ntype = plane\npoint = 0, 0, 0\nnormal = 0, 0, 1\n'
    printf '[contact]\nlaw = linear\nkn = %s\nzeta = %s\n' "$2" "$3"
}
scene_case 1 > "$tmp/scene.case"
scene_case 1.01 > "$tmp/control.case"

same_reports() {
    for f in runs.csv metrics.csv checks.csv; do
        cmp -s "$tmp/$1/$f" "$tmp/$2/$f" || return 1
    done
}
check "problem route runs" $MB run -q -o "$tmp/p" "$tmp/problem.case"
check "scene route runs" $MB run -q -o "$tmp/s" "$tmp/scene.case"
check "control runs" $MB run -q -o "$tmp/c" "$tmp/control.case"
check "scene reports identical to the problem's" same_reports p s
if same_reports p c; then echo "FAIL: kn x 1.01 gave identical reports"; fail=1; else echo "ok: negative control differs"; fi
exit $fail
