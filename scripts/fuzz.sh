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
ninja -C build-fuzz $targets >/dev/null
for exe in build-fuzz/tests/fuzz/fuzz_*; do
    [ -f "$exe" ] && [ -x "$exe" ] || continue
    name=$(basename "$exe" | sed 's/^fuzz_//')
    corpus=build-fuzz/corpus/$name
    mkdir -p "$corpus"
    for seed in ../shared/data/seedwork/$name.json ../shared/data/bench/$name.json tests/fuzz/seeds/$name/*; do
        [ -f "$seed" ] && cp "$seed" "$corpus/" 2>/dev/null || true
    done
    echo "fuzz: $name for ${secs}s"
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        "$exe" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=0 "$corpus" 2>build-fuzz/fuzz-$name.log ||
        { tail -50 build-fuzz/fuzz-$name.log; exit 1; }
done
