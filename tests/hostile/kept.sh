#!/bin/sh
# kept.sh -- run a command and check that a report directory is left byte for byte as it
# was: every file with the same bytes (cmp) and the same inode (not replaced by a copy with
# the same bytes), none added (a temporary left behind), none removed.
# Usage: kept.sh DIR COMMAND [ARG...]
# Exit status: the command's, or 99 when DIR changed (the differences are printed).
dir=$1
shift
[ -d "$dir" ] || { echo "kept.sh: $dir is not a directory (write the previous report first)"; exit 98; }
before=$(mktemp -d "${TMPDIR:-/tmp}/mb-kept-XXXXXX") || exit 98
cp -a "$dir/." "$before/"
inodes=$(cd "$dir" && find . -type f -exec stat -c '%i %n' {} + | sort)
"$@"
status=$?
changed=0
for f in $(cd "$before" && find . -type f) ; do
    cmp -s "$before/$f" "$dir/$f" || { echo "kept.sh: $dir/$f changed or removed"; changed=1; }
done
for f in $(cd "$dir" && find . ! -type d) ; do
    [ -e "$before/$f" ] || [ -L "$before/$f" ] || { echo "kept.sh: $dir/$f was added"; changed=1; }
done
[ "$(cd "$dir" && find . -type f -exec stat -c '%i %n' {} + | sort)" = "$inodes" ] \
    || { echo "kept.sh: a file of $dir was replaced (its inode changed)"; changed=1; }
rm -rf "$before"
[ $changed = 0 ] || exit 99
exit $status
