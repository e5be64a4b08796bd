#!/bin/sh
# The whole test suite: a normal build, then the benchmark's check in a release
# build (values only, never timings), then the same tests under
# AddressSanitizer + UndefinedBehaviorSanitizer (any report fails), the
# compiler under ThreadSanitizer, then a short run of every fuzz target. Called by ./run test and by CI.
set -eu
cd "$(dirname "$0")/.."

echo "== build and test"
[ -d build ] || meson setup build -Dgo_tests=enabled # a missing Go or Go package fails, never skips
ninja -C build
meson test -C build --print-errorlogs

echo "== bench smoke check: release build, every contender and stream decodes to the same values (no timings)"
if [ -d build-release ]; then
    meson configure build-release -Dbench=true
else
    meson setup build-release --buildtype=release -Dbench=true -Dtests=false
fi
ninja -C build-release bench/bench
build-release/bench/bench --quick --check-only

echo "== build and test under ASan + UBSan"
[ -d build-asan ] || meson setup build-asan -Db_sanitize=address,undefined -Db_lundef=false
ninja -C build-asan
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
LSAN_OPTIONS=suppressions="$PWD/scripts/lsan.supp" \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    meson test -C build-asan --print-errorlogs --timeout-multiplier 3

echo "== the compiler's threads under ThreadSanitizer (any report fails), and its output the same"
[ -d build-tsan ] || meson setup build-tsan -Db_sanitize=thread -Db_lundef=false -Dtests=false
ninja -C build-tsan compiler/tagc
python3 scripts/gen_big_schema.py -n 300 -o build-tsan/big.tagc
rm -rf build-tsan/out build-tsan/out-plain
TSAN_OPTIONS=halt_on_error=1:exitcode=66 build-tsan/compiler/tagc -o build-tsan/out build-tsan/big.tagc
build/compiler/tagc -o build-tsan/out-plain build-tsan/big.tagc
cmp build-tsan/out/big.tagc.h build-tsan/out-plain/big.tagc.h
cmp build-tsan/out/big.tagc.c build-tsan/out-plain/big.tagc.c

echo "== consumer projects (Meson and Make) against an installed tagc"
examples/check-consumers.sh

if [ -x scripts/fuzz.sh ]; then
    echo "== fuzz smoke"
    scripts/fuzz.sh "${FUZZ_SECONDS:-10}"
fi
echo "== all tests passed"
