#!/bin/sh
# workflow.sh - runs the commands of docs/examples/tagc-ci.yml against a
# throwaway git repository, as a pull request would: tagc --check, tagc compat
# against the main branch (a compatible change passes, a breaking one fails with
# a file:line:col line), tagc validate on JSON and JSONL data, and the JSON Schemas.
# Usage: workflow.sh TAGC SCHEMAS_DIR DATA_DIR
set -eu
tagc=$1 schemas=$2 data=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tagc-workflow.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "workflow: $*" >&2; exit 1; }

cd "$tmp"
git init -q -b main repo && cd repo
git config user.email ci@example.org && git config user.name ci
mkdir -p schemas testdata/orders testdata/users
cp "$schemas/order.tagc" "$schemas/user.tagc" schemas/
cp "$data/seedwork/order.json" testdata/orders/
cp "$data/seedwork/user.json" testdata/users/
python3 "$data/seedwork/gen.py" jsonl 200 > testdata/orders.jsonl
git add -A && git commit -qm main

# The pull request: compat against main, as the workflow does it.
compat_against_main() {
    old=$tmp/old
    rm -rf "$old" && mkdir -p "$old/schemas"
    for f in $(git ls-tree --name-only main schemas/ | grep '\.tagc$'); do
        git show "main:$f" > "$old/$f"
    done
    status=0
    : >"$tmp/compat.out"
    for new in schemas/*.tagc; do
        [ -f "$old/$new" ] || continue
        "$tagc" compat "$old/$new" "$new" >>"$tmp/compat.out" 2>&1 || status=$?
    done
    cat "$tmp/compat.out"
    return $status
}

git checkout -q -b compatible
# a new optional field and a renamed Go field that keeps its wire name: compatible
sed -i 's/^\tAttempts  int32    `json:"attempts"`/\tTries     int32    `json:"attempts"`\n\tCoupon    string   `json:"coupon,omitempty"`/' schemas/order.tagc
grep -q Coupon schemas/order.tagc || fail "could not edit the schema"

"$tagc" --check schemas/*.tagc || fail "--check failed on good schemas"
compat_against_main || fail "a compatible change was reported as breaking"
"$tagc" validate schemas/order.tagc Order testdata/orders/*.json || fail "validate rejected order.json"
"$tagc" validate --format jsonl schemas/order.tagc Order testdata/orders.jsonl || fail "validate rejected orders.jsonl"
"$tagc" validate --strict schemas/user.tagc User testdata/users/*.json || fail "validate --strict rejected user.json"
"$tagc" --emit-json-schema schema-out --strict schemas/*.tagc || fail "--emit-json-schema failed"
[ -s schema-out/Order.schema.json ] || fail "no Order.schema.json"

git checkout -q -b breaking main
sed -i 's/`json:"total"`/`json:"grand_total"`/' schemas/order.tagc
if compat_against_main; then fail "a renamed wire name was not reported"; fi
grep -q 'order.tagc:[0-9]*:[0-9]*: error: ' "$tmp/compat.out" || fail "compat output has no file:line:col"

# Data that does not match its type fails validate, with its line.
printf '{"id":1}\n{"id":"x"}\n' > bad.jsonl
if "$tagc" validate --format jsonl schemas/order.tagc Order bad.jsonl 2>"$tmp/v.err"; then
    fail "validate accepted a bad record"
fi
grep -q 'bad.jsonl:2:' "$tmp/v.err" || fail "validate did not name line 2: $(cat "$tmp/v.err")"
echo "workflow: ok"
