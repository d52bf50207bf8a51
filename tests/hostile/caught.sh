#!/bin/sh
# caught.sh -- wait until process PID runs motionbench itself (not the shell of libtool's
# wrapper script, which exec's it and catches SIGINT while it waits for its own commands)
# and catches signal SIG (its bit in SigCgt of /proc/PID/status), so that a test's signal
# reaches the program's handler however slowly a loaded machine starts it; a fixed sleep
# could send it before the handler, and the default action would end the run instead.
# Usage: caught.sh PID SIG   (SIG a number or a name: INT, TERM, HUP)
# Exit status: 0 once caught; 1 if the process ended or 30 s passed first.
pid=$1
case $2 in
    INT) sig=2 ;; TERM) sig=15 ;; HUP) sig=1 ;; *) sig=$2 ;;
esac
tries=0
while [ $tries -lt 3000 ]; do
    exe=$(readlink "/proc/$pid/exe" 2>/dev/null) || exit 1
    case ${exe##*/} in
        motionbench|lt-motionbench)
            mask=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$pid/status" 2>/dev/null)
            [ -n "$mask" ] && [ $(( (0x$mask >> (sig - 1)) & 1 )) = 1 ] && exit 0 ;;
    esac
    sleep 0.01
    tries=$((tries + 1))
done
exit 1
