#!/bin/sh
# testlink.sh -- links a test program with the command libtool resolved once, not libtool.
#
# usage: testlink.sh --memo MEMO OBJEXT LIBTOOL-LINK-COMMAND... -o PROBE PROBE.OBJEXT LIBS...
#        testlink.sh MEMO LIBTOOL-LINK-COMMAND... -o PROGRAM OBJECTS... LIBS...
#
# Linking a test program through libtool costs about 0.8 s of processor time (a bash script
# of 12 000 lines parsed, 80 forks and 19 seds) for a compiler command of 0.17 s, and all
# the test programs link the same way: only the program's name and its objects change.
# The first form asks libtool once, by a dry run, which command it would run for a probe
# program, and writes it to MEMO with the probe's name and objects as parameters, keyed
# by the libtool command line (the name and objects left out).  The second form, the LINK
# of the test programs, runs MEMO's command when the key matches, MEMO is no older than
# every libtool library named, and libtool ran one command with the probe's output in
# place; otherwise it runs the libtool command it was given, unchanged.
set -u

# key WORDS...: the command line without the output's name, its objects, the verbosity
# (make V=0 gives libtool --silent) and --dry-run: what the link depends on.  Sets mb_key
# and, from the words after `-o`, mb_out and mb_objs (the words ending in .OBJEXT).
key () {
    mb_key= mb_out= mb_objs=
    state=words
    for w; do
        case $state,$w in
        words,--silent|words,--dry-run) ;;
        words,-o) state=out; mb_key="$mb_key -o @OUT@" ;;
        out,*) mb_out=$w; state=objs; mb_key="$mb_key @OBJS@" ;;
        objs,*.$mb_objext) mb_objs="$mb_objs $w" ;;
        *) state=words; mb_key="$mb_key $w" ;;
        esac
    done
}

# quote TEXT: TEXT in single quotes for a shell to read back.
quote () {
    printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# write_memo MEMO OBJEXT COMMAND...: libtool's dry run of COMMAND (which holds --dry-run),
# made a command with the output and objects as parameters; an empty command when libtool
# would do anything but one compiler run that writes the probe itself (a wrapper script, a
# relink), so that every link goes through libtool.
write_memo () {
    memo=$1 mb_objext=$2
    shift 2
    key "$@"
    probe=" -o $mb_out$mb_objs "
    shown=$("$@" 2>/dev/null) || shown=
    cmd=$(printf '%s\n' "$shown" | sed -n 's/^[^:]*: link: //p')
    case $shown in
    *"
"*) cmd= ;;
    esac
    case $cmd in
    *"$probe"*)
        before=${cmd%%"$probe"*}
        after=${cmd#*"$probe"}
        case $before$after in
        *"$mb_out"*) cmd= ;;
        *) cmd="$before -o \"\$mb_out\" \$mb_objs $after" ;;
        esac ;;
    *) cmd= ;;
    esac
    {
        echo "# $memo: written by testlink.sh from libtool's dry run; do not edit"
        echo "mb_memo_objext=$(quote "$mb_objext")"
        echo "mb_memo_key=$(quote "$mb_key")"
        echo "mb_memo_cmd=$(quote "$cmd")"
    } > "$memo.tmp" && mv "$memo.tmp" "$memo"
}

# fresh MEMO WORDS...: MEMO is no older than any libtool library among WORDS.
fresh () {
    memo=$1
    shift
    for w; do
        case $w in *.la) if test "$w" -nt "$memo"; then return 1; fi ;; esac
    done
    return 0
}

# link MEMO COMMAND...: MEMO's command for COMMAND's output and objects, else COMMAND.
# MEMO is read as a path (it holds a slash: `.` would search PATH for a bare name).
link () {
    memo=$1
    shift
    mb_memo_cmd=
    if test -r "$memo" && . "$memo" && test -n "$mb_memo_cmd" && fresh "$memo" "$@"; then
        mb_objext=$mb_memo_objext
        key "$@"
        if test "$mb_key" = "$mb_memo_key" && test -n "$mb_out" && test -n "$mb_objs"; then
            case " $* " in *" --silent "*) verbose=false ;; *) verbose=true ;; esac
            eval "set -- $mb_memo_cmd"
            if $verbose; then printf 'testlink: %s\n' "$*"; fi
            exec "$@"
        fi
    fi
    exec "$@"
}

if test "${1-}" = --memo; then
    shift
    write_memo "$@"
else
    link "$@"
fi
