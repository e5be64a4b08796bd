#!/bin/sh
# check.sh TAGC PUSH SRC_DIR BUILD_DIR - the timestamp example on both forms of
# go-github's push payload (integer and string times): the generated decoders
# and encoders (push, against expected*.txt), MessagePack (push's round trip,
# and `tagc validate --format msgpack` on what it wrote), the stream reader
# (push --jsonl), `tagc validate` (JSON and JSON Lines) and the JSON Schema.
set -eu
tagc=$1 push=$2 src=$3 out=$4
fail() {
    echo "timestamp check: FAIL: $*" >&2
    exit 1
}
cd "$src"
"$push" push_integer.json push_string.json >"$out/push.out" || fail "push on the two payloads"
cmp -s expected.txt "$out/push.out" || { diff -u expected.txt "$out/push.out" >&2; fail "push output"; }

# a payload its codec rejects: the position and the path of the value
st=0
"$push" bad_push.json >"$out/bad.out" || st=$?
[ "$st" = 1 ] || fail "bad_push.json: exit $st, want 1"
cmp -s expected_bad.txt "$out/bad.out" || { diff -u expected_bad.txt "$out/bad.out" >&2; fail "bad_push output"; }

# the stream reader: lines 2 and 4 fail (a boolean; a string that is no RFC 3339 time)
st=0
"$push" --jsonl push.jsonl >"$out/jsonl.out" || st=$?
[ "$st" = 1 ] || fail "push --jsonl: exit $st, want 1"
cmp -s expected_jsonl.txt "$out/jsonl.out" || { diff -u expected_jsonl.txt "$out/jsonl.out" >&2; fail "jsonl output"; }

# tagc validate goes by the declared wire shape (string|integer), running no user code
"$tagc" validate github.tagc PushEvent push_integer.json push_string.json || fail "validate the payloads"
st=0
"$tagc" validate github.tagc PushEvent bad_push.json 2>"$out/validate_bad.err" || st=$?
[ "$st" = 1 ] || fail "validate bad_push.json: exit $st, want 1"
grep -q '^bad_push.json:6:18: error: \$.repository.pushed_at: Timestamp: expected string|integer' \
    "$out/validate_bad.err" || { cat "$out/validate_bad.err" >&2; fail "validate message"; }
# line 4's string is of the declared shape: only the codec knows it is no time
st=0
"$tagc" validate --format jsonl github.tagc PushEvent push.jsonl 2>"$out/validate_jsonl.err" || st=$?
[ "$st" = 1 ] || fail "validate push.jsonl: exit $st, want 1"
[ "$(wc -l <"$out/validate_jsonl.err")" = 1 ] && grep -q '^push.jsonl:2:.*\$.commits\[0\].timestamp' \
    "$out/validate_jsonl.err" || { cat "$out/validate_jsonl.err" >&2; fail "validate jsonl"; }

# MessagePack: what push writes validates, and is what push_*.mp hold (the fuzz
# target's seeds: scripts/fuzz.sh)
for f in push_integer push_string; do
    "$push" --msgpack "$out/$f.mp" $f.json >/dev/null || fail "push --msgpack $f.json"
    cmp -s $f.mp "$out/$f.mp" || fail "$f.mp is not what push writes for $f.json"
    "$tagc" validate --format msgpack github.tagc PushEvent $f.mp || fail "validate $f.mp"
done

# the JSON Schema has the declared shape
rm -rf "$out/schema"
mkdir -p "$out/schema"
"$tagc" --emit-json-schema "$out/schema" --no-json --no-msgpack -o "$out/schema" github.tagc || fail "schema"
grep -q '"type": \["string", "integer"\]' "$out/schema/Timestamp.schema.json" || fail "Timestamp's schema"
echo "timestamp check: ok"
