#!/bin/sh
# kept.sh -- run a command and check that a report directory is left byte for byte as it
# was: every file with the same bytes and the same inode (not replaced by a copy with the
# same bytes), none added (a temporary left behind), none removed.  A few processes in all
# (the catalogue runs it 74 times): one copy before, one recursive comparison after (diff
# -r compares every file's bytes and names what only one side has; --no-dereference
# compares a symbolic link as a link), one listing of inodes before and after.
# Usage: kept.sh DIR COMMAND [ARG...]
# Exit status: the command's, or 99 when DIR changed (the differences are printed).
dir=$1
shift
[ -d "$dir" ] || { echo "kept.sh: $dir is not a directory (write the previous report first)"; exit 98; }
before=$(mktemp -d "${TMPDIR:-/tmp}/mb-kept-XXXXXX") || exit 98
cp -a "$dir/." "$before/"
inodes=$(find "$dir" -type f -printf '%i %P\n' | sort)
"$@"
status=$?
changed=0
diff -r --no-dereference -q "$before" "$dir" \
    || { echo "kept.sh: $dir changed (a file changed, added or removed)"; changed=1; }
[ "$(find "$dir" -type f -printf '%i %P\n' | sort)" = "$inodes" ] \
    || { echo "kept.sh: a file of $dir was replaced (its inode changed)"; changed=1; }
rm -rf "$before"
[ $changed = 0 ] || exit 99
exit $status
