#!/bin/sh
# inject.sh FILE OLD NEW -- replace the single line of FILE equal to OLD by NEW, both taken
# literally (a backslash sequence such as \n or \t in a C string of the catalogue stays two
# characters: the texts reach awk through the environment, which it does not unescape, not
# through -v, which does).  Exit status 1, FILE unchanged, when OLD is not exactly one line
# of it.  Used by run.sh for each fault of the catalogue.
set -u
[ $# -eq 3 ] || { echo "usage: inject.sh FILE OLD NEW" >&2; exit 2; }
MB_INJECT_OLD=$2 MB_INJECT_NEW=$3 awk '
    $0 == ENVIRON["MB_INJECT_OLD"] { n++; print ENVIRON["MB_INJECT_NEW"]; next } { print }
    END { exit n != 1 }' "$1" >"$1.mutant" && mv "$1.mutant" "$1" || { rm -f "$1.mutant"; exit 1; }
