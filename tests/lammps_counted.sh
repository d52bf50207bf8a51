# lammps_counted.sh -- sourced by the tests that time LAMMPS as a peer: a stand-in
# program DIR/lmp that counts its starts, one line each in DIR/starts, and runs LAMMPS.
# usage: lammps_counted DIR LAMMPS  (then --lammps DIR/lmp; wc -l < DIR/starts)
lammps_counted() {
    printf '#!/bin/sh
echo >> "%s/starts"
exec "%s" "$@"
' "$1" "$2" > "$1/lmp" && chmod +x "$1/lmp"
}
