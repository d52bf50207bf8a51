#!/bin/sh
# test_reference_ranges.sh -- every closed form over its documented parameter range.
#
# For every problem that `motionbench list problems --verbose` marks [closed form], and
# for every numeric parameter with a documented range [lo, hi], the analytic reference is
# evaluated through the CLI with that parameter at lo, at hi and at two interior points
# (the others at their defaults), at t = 1.37 and 15; plus all parameters at their
# defaults at t = 0, 1.37 and 15.  Each evaluation must either succeed (exit 0) with every printed number
# finite, or refuse (exit 2) with a message on standard error; NaN or Inf on standard
# output, another exit status (124: more than 10 s) or a silent refusal fails.  The
# defaults must succeed.
#
# One value is also checked against an independent formula: the strongly over-damped
# oscillator (m = 1, k = 1, c = 100, x0 = 0.71, v0 = -0.4, t = 15), where the form
# e^{-gt} cosh(...) overflows.  With r1,2 = -g +- sqrt(g^2 - k/m), g = c/2m,
#   x(t) = [(v0 - r2 x0) e^{r1 t} - (v0 - r1 x0) e^{r2 t}] / (r1 - r2).
# awk evaluates it in double; r1 = -g + sqrt(g^2 - 1) loses log10(g / r1) = 3.7 digits
# to cancellation, so 1e-9 relative bounds its error with margin.
set -u
MB="timeout 10 ./src/motionbench"
fail=0
n=0
out=out.$$
err=err.$$
trap 'rm -f $out $err' EXIT

# one evaluation: $1 = problem, $2 = time, $3 = description, rest = --set arguments
evaluate() {
    p=$1 t=$2 what=$3
    shift 3
    n=$((n + 1))
    $MB reference -p "$p" --t-end "$t" --method analytic "$@" >$out 2>$err
    rc=$?
    if [ $rc -eq 0 ]; then
        if grep -qiE '(^|[^a-z])(nan|inf)' $out; then
            echo "FAIL: $p $what t=$t: exit 0 with a non-finite number"; grep -iE 'nan|inf' $out
            fail=1
        fi
    elif [ $rc -eq 2 ]; then
        if ! grep -q "^motionbench: ..*" $err; then
            echo "FAIL: $p $what t=$t: exit 2 without a message"
            fail=1
        fi
    else
        echo "FAIL: $p $what t=$t: exit status $rc"; cat $err
        fail=1
    fi
    return $rc
}

problems=$($MB list problems --verbose | awk '/^[^ ].*\[closed form\]$/ { print $1 }')
[ -n "$problems" ] || { echo "FAIL: no closed-form problem listed"; exit 1; }

for p in $problems; do
    for t in 0 1.37 15; do
        evaluate "$p" "$t" "defaults" || { echo "FAIL: $p at its defaults must succeed"; fail=1; }
    done
    # "name lo hi" for every parameter of $p with a numeric range
    ranges=$($MB list problems --verbose | awk -v p="$p" '
        /^[^ ]/ { on = ($1 == p); next }
        on && /^      [^ ]/ && /\[[-+0-9.e]+, [-+0-9.e]+\]$/ {
            r = $0; sub(/.*\[/, "", r); sub(/\]$/, "", r); split(r, b, ", ");
            print $1, b[1], b[2] }')
    while read -r name lo hi; do
        [ -n "$name" ] || continue
        # interior points: geometric for positive ranges (which span decades), else linear
        inner=$(awk -v lo="$lo" -v hi="$hi" 'BEGIN {
            if (lo > 0) { a = exp(log(lo) * 0.7 + log(hi) * 0.3); b = exp(log(lo) * 0.3 + log(hi) * 0.7) }
            else { a = lo + 0.3 * (hi - lo); b = lo + 0.7 * (hi - lo) }
            printf "%.17g %.17g\n", a, b }')
        for v in $lo $hi $inner; do
            for t in 1.37 15; do
                evaluate "$p" "$t" "$name=$v" --set "$name=$v"
            done
        done
    done <<EOF
$ranges
EOF
done

x=$($MB reference -p damped --set mass=1 --set k=1 --set c=100 --set x0=0.71 --set v0=-0.4 \
        --t-end 15 --method analytic | awk '$1 == "x" { print $2 }')
awk -v x="$x" 'BEGIN {
    g = 50; r1 = -g + sqrt(g * g - 1); r2 = -g - sqrt(g * g - 1); x0 = 0.71; v0 = -0.4; t = 15;
    e = ((v0 - r2 * x0) * exp(r1 * t) - (v0 - r1 * x0) * exp(r2 * t)) / (r1 - r2);
    d = (x - e) / e; if (d < 0) d = -d;
    printf "over-damped x(15) = %s, independent formula %.17g, relative difference %.2e\n", x, e, d;
    exit !(d < 1e-9) }' || { echo "FAIL: over-damped oscillator"; fail=1; }

[ $fail -eq 0 ] && echo "ok: $n closed-form evaluations finite or refused with exit 2"
exit $fail
