#!/bin/sh
# Builds the libFuzzer targets with clang (ASan + UBSan; the runtime, generated
# code and compiler instrumented for coverage: tests/fuzz/meson.build) and runs
# each for a bounded time, seeded from files in the repository and the packaged
# documents of data/README.md, with a dictionary. Prints the coverage each
# target reached (libFuzzer's cov: and ft:) and fails when a target stays under
# its floor: a target that cannot see the code it tests shows as a failure, not
# as a quiet pass.
#
# Usage: scripts/fuzz.sh [SECONDS]     run every target for SECONDS (default 10)
#        scripts/fuzz.sh --check-seeds  only check that every seed file exists
set -eu
cd "$(dirname "$0")/.."

# Each target's seed files (all must exist), dictionary and coverage floor.
# The floors are about half of what each reached in 10 s (docs/decisions.md,
# "Fuzzing"): far above a blind target (18 for kitchen_sink before its code was
# instrumented), far enough below to stay put across machines and seeds.
workload_seed() {
    case $1 in
    user | order | tree) echo data/seedwork/$1.json ;;
    kitchen_sink) echo tests/msgpack/sink.json ;;
    # the Debian package's file (data/documents.py): when it is missing, documents.py names
    # the package and check_seeds fails on the name below
    twitter | canada) python3 data/documents.py path "$1" || echo "missing:$1.json" ;;
    timestamp) echo examples/timestamp/push_integer.json examples/timestamp/push_string.json ;;
    *) echo "fuzz: no seed for workload $1" >&2; return 1 ;;
    esac
}
seeds() {
    case $1 in
    msgpack_timestamp) echo examples/timestamp/push_integer.mp examples/timestamp/push_string.mp ;;
    json_* | msgpack_*) workload_seed "${1#*_}" ;;
    compiler) echo schemas/kitchen_sink.tagc schemas/common.tagc schemas/order.tagc \
        schemas/twitter.tagc schemas/tree.tagc tests/diagnostics/duplicate_json_name.tagc ;;
    validate) echo tests/msgpack/sink.json ;;
    stream) echo data/seedwork/gen.py ;;
    esac
}
dict() {
    case $1 in
    json_* | validate | stream) echo tests/fuzz/json.dict ;;
    msgpack_*) echo tests/fuzz/msgpack.dict ;;
    compiler) echo tests/fuzz/tagc.dict ;;
    esac
}
floor() {
    case $1 in   # measured in 10 s (cov:), then halved
    json_user) echo 1200 ;;            msgpack_user) echo 700 ;;
    json_order) echo 1500 ;;           msgpack_order) echo 1100 ;;
    json_tree) echo 600 ;;             msgpack_tree) echo 500 ;;
    json_kitchen_sink) echo 3600 ;;    msgpack_kitchen_sink) echo 3300 ;;
    json_twitter) echo 1000 ;;         msgpack_twitter) echo 1400 ;;
    json_canada) echo 750 ;;           msgpack_canada) echo 530 ;;
    json_timestamp) echo 3100 ;;       msgpack_timestamp) echo 2100 ;;
    compiler) echo 4400 ;; validate) echo 3700 ;; stream) echo 2000 ;;
    *) echo 500 ;;
    esac
}
all_names="json_user json_order json_tree json_kitchen_sink json_twitter json_canada json_timestamp
    msgpack_user msgpack_order msgpack_tree msgpack_kitchen_sink msgpack_twitter msgpack_canada
    msgpack_timestamp
    compiler validate stream"

check_seeds() {
    missing=0
    for name in $all_names; do
        for f in $(seeds "$name") $(dict "$name"); do
            [ -f "$f" ] || { echo "fuzz: $name: seed or dictionary $f does not exist" >&2; missing=1; }
        done
    done
    return $missing
}
mp_tool=build-fuzz/tests/msgpack/mp_tool
c_type() {
    case $1 in
    tree) echo tree_node ;; twitter) echo twitter_search_result ;;
    canada) echo canada_feature_collection ;; kitchen_sink) echo sink_sink ;; *) echo "$1_$1" ;;
    esac
}
to_msgpack() { # TYPE < JSON > MessagePack, or fail
    "$mp_tool" json2mp "$1" || { echo "fuzz: mp_tool json2mp $1 failed on a seed" >&2; exit 1; }
}

# The corpus of one target from its seeds: as they are, in MessagePack form, or
# behind the mode bytes the validate and stream targets read first.
make_corpus() {
    name=$1 corpus=$2
    case $name in
    json_* | msgpack_timestamp) cp $(seeds "$name") "$corpus/" ;;
    msgpack_*) to_msgpack "$(c_type "${name#*_}")" <"$(seeds "$name")" >"$corpus/seed.mp" ;;
    compiler) cp $(seeds "$name") "$corpus/" ;;
    validate)
        json=$(seeds "$name")
        { printf '\000'; cat "$json"; } >"$corpus/json"
        { printf '\002'; cat "$json"; } >"$corpus/json-strict"
        { printf '\001'; to_msgpack sink_sink <"$json"; } >"$corpus/msgpack"
        { printf '\005'; to_msgpack sink_sink <"$json"; printf '\300'; } >"$corpus/msgpack-prefix" ;;
    stream)
        python3 data/seedwork/gen.py jsonl 4 >"$corpus/.lines"
        { printf '\024\063'; cat "$corpus/.lines"; } >"$corpus/jsonl-small-reads"
        { printf '\034\105'; cat "$corpus/.lines"; } >"$corpus/jsonl-parallel-chunks"
        { printf '\000\000'; head -c 600 "$corpus/.lines"; } >"$corpus/jsonl-cut"
        { printf '\035\001'
          while IFS= read -r line; do printf '%s' "$line" | to_msgpack order_order; done <"$corpus/.lines"
        } >"$corpus/msgpack-seq"
        rm "$corpus/.lines" ;;
    esac
}

# run_one NAME SECS: one target's run; prints its coverage line, fails on a crash
# or under the floor
run_one() {
    name=$1 secs=$2
    exe=build-fuzz/tests/fuzz/fuzz_$name
    corpus=build-fuzz/corpus/$name
    rm -rf "$corpus"
    mkdir -p "$corpus"
    make_corpus "$name" "$corpus"
    log=build-fuzz/fuzz-$name.log
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        "$exe" -seed=1 -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -dict="$(dict "$name")" -print_final_stats=1 "$corpus" 2>"$log" ||
        { echo "fuzz: $name FAILED"; tail -50 "$log"; return 1; }
    # libFuzzer's last status line: "#N DONE cov: C ft: F corp: ..."
    last=$(grep -E '^#[0-9]+[[:space:]]+(DONE|INITED|NEW|REDUCE|pulse)' "$log" | tail -1)
    cov=$(printf '%s\n' "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
    ft=$(printf '%s\n' "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
    execs=$(printf '%s\n' "$last" | sed -n 's/^#\([0-9]*\).*/\1/p')
    min=$(floor "$name")
    line=$(printf 'fuzz: %-22s cov: %6s  ft: %6s  runs: %8s  (floor %s)' "$name" "${cov:-?}" "${ft:-?}" "${execs:-?}" "$min")
    if [ -z "$cov" ] || [ "$cov" -lt "$min" ]; then
        echo "$line  BELOW THE FLOOR"
        return 1
    fi
    echo "$line"
}

if [ "${1:-}" = --check-seeds ]; then
    check_seeds && echo "fuzz: every seed and dictionary exists"
    exit
fi
if [ "${1:-}" = --one ]; then   # a job of the run below
    run_one "$2" "$3"
    exit
fi
check_seeds

secs=${1:-10}
command -v clang >/dev/null || { echo "fuzz: clang not found (scripts/setup.sh installs it)" >&2; exit 1; }
[ -d build-fuzz ] || CC=clang meson setup build-fuzz -Dfuzz=true -Dtests=true \
    -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
targets=$(ninja -C build-fuzz -t targets all | grep -o '^tests/fuzz/fuzz_[a-z_]*:' | tr -d :)
[ -n "$targets" ] || { echo "fuzz: no targets built" >&2; exit 1; }
ninja -C build-fuzz $targets tests/msgpack/mp_tool >build-fuzz/build.log 2>&1 ||
    { tail -30 build-fuzz/build.log; exit 1; }

# FUZZ_JOBS targets at once (default 2, one a core; a target is one process)
names=$(for exe in build-fuzz/tests/fuzz/fuzz_*; do   # not the .p folders
            if [ -f "$exe" ] && [ -x "$exe" ]; then basename "$exe" | sed 's/^fuzz_//'; fi
        done)
[ -n "$names" ] || { echo "fuzz: no targets built" >&2; exit 1; }
printf '%s\n' $names | xargs -P "${FUZZ_JOBS:-2}" -I NAME "$0" --one NAME "$secs" ||
    { echo "fuzz: a target crashed or its coverage stayed under its floor" >&2; exit 1; }
