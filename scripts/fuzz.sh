#!/bin/sh
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for a
# bounded time, seeded with the workloads. Usage: scripts/fuzz.sh [SECONDS]
set -eu
cd "$(dirname "$0")/.."
secs=${1:-20}
if ! command -v clang >/dev/null; then
    echo "fuzz: clang not found, skipped" >&2
    exit 0
fi
[ -d build-fuzz ] || CC=clang meson setup build-fuzz -Dfuzz=true -Dtests=true \
    -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
targets=$(ninja -C build-fuzz -t targets all | grep -o '^tests/fuzz/fuzz_[a-z_]*:' | tr -d :)
[ -n "$targets" ] || { echo "fuzz: no targets built" >&2; exit 1; }
ninja -C build-fuzz $targets tests/msgpack/mp_tool >build-fuzz/build.log 2>&1 ||
    { tail -30 build-fuzz/build.log; exit 1; }
for exe in build-fuzz/tests/fuzz/fuzz_*; do
    [ -f "$exe" ] && [ -x "$exe" ] || continue
    name=$(basename "$exe" | sed 's/^fuzz_//')       # json_user, msgpack_user, ...
    codec=${name%%_*}
    workload=${name#*_}
    corpus=build-fuzz/corpus/$name
    mkdir -p "$corpus"
    for seed in data/seedwork/$workload.json data/bench/$workload.json; do
        [ -f "$seed" ] || continue
        if [ "$codec" = json ]; then
            cp "$seed" "$corpus/"
        elif [ -x build-fuzz/tests/msgpack/mp_tool ]; then   # seeds in MessagePack form
            case $workload in
            tree) type=tree_node ;; twitter) type=twitter_search_result ;;
            canada) type=canada_feature_collection ;; *) type=${workload}_$workload ;;
            esac
            build-fuzz/tests/msgpack/mp_tool json2mp "$type" <"$seed" >"$corpus/seed.mp" 2>/dev/null || true
        fi
    done
    echo "fuzz: $name for ${secs}s"
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        "$exe" -seed=1 -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=0 "$corpus" 2>build-fuzz/fuzz-$name.log ||
        { tail -50 build-fuzz/fuzz-$name.log; exit 1; }
done
