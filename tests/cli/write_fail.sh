#!/bin/sh
# A schema's .h and .c change together or not at all, and no temporary file
# outlives the compiler: a write that fails (EFBIG under `ulimit -f`) leaves
# the old pair; a run ended by SIGINT, SIGTERM, SIGHUP or SIGPIPE leaves
# either pair whole (old or new) and no *.tmp* file.
# Usage: write_fail.sh TAGC GEN_BIG_SCHEMA.py
set -u
tagc=$1
gen=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

python3 "$gen" -n 40 -o "$work/v1.tagc" || fail "gen v1"
python3 "$gen" -n 200 -o "$work/v2.tagc" || fail "gen v2"
mkdir "$work/new" "$work/out"
cp "$work/v2.tagc" "$work/new/big.tagc"
"$tagc" -o "$work/new" "$work/new/big.tagc" || fail "v2 does not compile"
h_new=$(wc -c <"$work/new/big.tagc.h")
c_new=$(wc -c <"$work/new/big.tagc.c")

old_pair() { # the old pair: v1's output
    cp "$work/v1.tagc" "$work/big.tagc"
    rm -f "$work/out/"*
    "$tagc" -o "$work/out" "$work/big.tagc" || fail "v1 does not compile"
    cp "$work/out/big.tagc.h" "$work/old.h"
    cp "$work/out/big.tagc.c" "$work/old.c"
    cp "$work/v2.tagc" "$work/big.tagc"
}
no_temps() {
    left=$(ls -A "$work/out" | grep -v '^big\.tagc\.[ch]$')
    [ -z "$left" ] || fail "$1: left in the output directory: $left"
}
pair_is() { # old | new | either
    if cmp -s "$work/out/big.tagc.h" "$work/old.h" && cmp -s "$work/out/big.tagc.c" "$work/old.c"; then
        got=old
    elif cmp -s "$work/out/big.tagc.h" "$work/new/big.tagc.h" &&
         cmp -s "$work/out/big.tagc.c" "$work/new/big.tagc.c"; then
        got=new
    else
        fail "$2: a mismatched pair (neither the old nor the new)"
    fi
    [ "$1" = either ] || [ "$1" = "$got" ] || fail "$2: the $got pair, expected the $1 one"
}

# 1. The .h fits under the limit, the .c does not. `ulimit -f` counts 512- or
# 1024-byte blocks depending on the shell: a limit that is over the .h and
# under the .c in both units.
limit=$(( h_new / 512 + 2 ))
[ $(( limit * 1024 )) -lt "$c_new" ] || fail "the test schema's .c is too small for the limit"
old_pair
( ulimit -f "$limit" && exec "$tagc" -o "$work/out" "$work/big.tagc" ) 2>"$work/err"
rc=$?
[ "$rc" -eq 2 ] || fail "ulimit -f: exit $rc, expected 2 ($(cat "$work/err"))"
grep -q 'big.tagc.c: error: cannot write: File too large' "$work/err" ||
    fail "ulimit -f: message: $(cat "$work/err")"
pair_is old "ulimit -f"
no_temps "ulimit -f"

# The header alone over the limit: the same.
old_pair
( ulimit -f 1 && exec "$tagc" -o "$work/out" "$work/big.tagc" ) 2>"$work/err"
rc=$?
[ "$rc" -eq 2 ] || fail "ulimit -f 1: exit $rc, expected 2"
pair_is old "ulimit -f 1"
no_temps "ulimit -f 1"

# 2. Signals: stop the compiler once a temporary file exists, send the signal,
# let it go on. Signals arriving while the renames run wait for them (the new
# pair); any other moment leaves the old pair.
for sig in INT TERM HUP PIPE; do
    old_pair
    # sh starts a background job with SIGINT ignored (which tagc keeps, as
    # nohup expects): start it with every signal at its default
    python3 -c 'import os, signal, sys
for s in (signal.SIGINT, signal.SIGPIPE, signal.SIGHUP, signal.SIGTERM):
    signal.signal(s, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$tagc" -o "$work/out" "$work/big.tagc" 2>/dev/null &
    pid=$!
    seen=no
    while kill -0 "$pid" 2>/dev/null; do
        if ls "$work/out" | grep -q tmp; then
            kill -STOP "$pid" 2>/dev/null
            if ls "$work/out" | grep -q tmp; then
                seen=yes
                kill -"$sig" "$pid"
                kill -CONT "$pid"
                break
            fi
            kill -CONT "$pid"
        fi
    done
    wait "$pid"
    rc=$?
    if [ "$seen" = yes ]; then
        [ "$rc" -gt 128 ] || fail "SIG$sig: exit $rc, expected death by the signal"
        pair_is either "SIG$sig"
    else
        echo "SIG$sig: the run ended before a temporary file was seen (not checked)"
    fi
    no_temps "SIG$sig"
done
echo "ok"
