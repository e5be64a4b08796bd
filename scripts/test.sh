#!/bin/sh
# The whole test suite, called by ./run test and by CI: a normal build and its
# tests, the benchmark's check in a release build (values only, never timings),
# the tests under gcc's ASan + UBSan and under clang's UBSan (any report fails),
# the compiler under ThreadSanitizer, the consumer projects (Meson, Make, CMake,
# subproject), the cross builds (aarch64, s390x under qemu, i386), a fresh clone
# and a dist tarball on their own, and a short run of every fuzz target.
set -eu
cd "$(dirname "$0")/.."

# werror in CI, not for users
. scripts/setup_build.sh

# step NAME: prints the time the previous step took, then NAME (CI's budget is
# kept by these lines)
t_all=$(date +%s) t_step=$t_all step_name=""
step() {
    now=$(date +%s)
    [ -z "$step_name" ] || echo "-- $step_name: $((now - t_step)) s"
    step_name=$1 t_step=$now
    [ -z "$1" ] || echo "== $1"
}

step "build and test"
setup_build build -Dtests=true -Dgo_tests=enabled # a missing Go or Go package fails, never skips
ninja ${NINJAFLAGS:-} -C build
meson test -C build --print-errorlogs

step "bench smoke check: release build, every contender and stream decodes to the same values (no timings)"
if [ -d build-release ]; then
    setup_build build-release -Dbench=true
else
    setup_build build-release --buildtype=release -Dbench=true -Dtests=false
fi
ninja ${NINJAFLAGS:-} -C build-release bench/bench
build-release/bench/bench --quick --check-only

step "the runtime built for size (-Os): warning-free, .text within 64 KiB"
setup_build build-size --buildtype=release -Doptimization=s -Dtests=false >/dev/null
ninja ${NINJAFLAGS:-} -C build-size runtime/libtagc.so.0.1.0 >/dev/null
text=$(size -A build-size/runtime/libtagc.so.0.1.0 | awk '$1 == ".text" {print $2}')
echo "-- libtagc.so .text at -Os: $text bytes (at most 65536)"
[ "$text" -le 65536 ] || { echo "libtagc.so .text at -Os is over 64 KiB" >&2; exit 1; }
# code compiled for speed links against a libtagc built for size: the -Os library exports
# every function the -O2 one does (tagc.h's in-line code calls some only when not -Os)
fns() { nm -D --defined-only "$1" | awk '$2 == "T" {print $3}' | sort; }
fns build-size/runtime/libtagc.so.0.1.0 > build-size/fns.txt
missing=$(fns build/runtime/libtagc.so.0.1.0 | comm -23 - build-size/fns.txt)
[ -z "$missing" ] || { echo "the -Os libtagc lacks: $missing" >&2; exit 1; }

step "build and test under ASan + UBSan"
# -O1, as ASan's documentation advises: the sanitizers' checks are the same, and gcc
# compiles the big generated files (twitter's) in 0.55x -O2's time
setup_build build-asan -Db_sanitize=address,undefined -Db_lundef=false -Doptimization=1
ninja ${NINJAFLAGS:-} -C build-asan
# TAGC_TEST_FRACTION=10: test_numbers' random loops draw a tenth of their millions here and
# under clang's UBSan (the plain and i686 builds draw them all)
TAGC_TEST_FRACTION=10 ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
LSAN_OPTIONS=suppressions="$PWD/scripts/lsan.supp" \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    meson test -C build-asan --print-errorlogs --timeout-multiplier 3

# --- clang UBSan: clang checks what gcc's UBSan does not (NULL + 0
# and other pointer arithmetic that overflows). No suppressions: any report
# halts the test that made it. The Go differential suite runs in the
# gcc builds; here it is off to keep this step short.
step "build and test under clang's UBSan"
(CC=clang; export CC; setup_build build-clang-ubsan -Db_sanitize=undefined -Db_lundef=false -Dgo_tests=disabled \
    -Doptimization=1)
ninja ${NINJAFLAGS:-} -C build-clang-ubsan
# the real-world corpus (its two tests: 3 to 4 minutes sanitized) runs under gcc's ASan + UBSan above
TAGC_TEST_FRACTION=10 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    meson test -C build-clang-ubsan --print-errorlogs --timeout-multiplier 3 --no-suite realworld
# --- end clang UBSan

# docs/mapping.md promises every entry point at depth 1000 on a 64 KiB stack with clang -O2 too:
# clang's frames differ from gcc's (the JSON decoder of a recursive struct was 64 bytes a level
# there, over 64 KiB, with every gcc build passing)
step "clang -O2: every entry point at the default depth on a 64 KiB stack (tests/errors/test_stack)"
(CC=clang; export CC; setup_build build-clang -Dgo_tests=disabled >/dev/null)
ninja ${NINJAFLAGS:-} -C build-clang tests/errors/test_stack >/dev/null
meson test -C build-clang --no-rebuild --print-errorlogs stack

step "the compiler's threads under ThreadSanitizer (any report fails), and its output the same"
setup_build build-tsan -Db_sanitize=thread -Db_lundef=false -Dtests=false
ninja ${NINJAFLAGS:-} -C build-tsan compiler/tagc
python3 scripts/gen_big_schema.py -n 300 -o build-tsan/big.tagc
rm -rf build-tsan/out build-tsan/out-plain
TSAN_OPTIONS=halt_on_error=1:exitcode=66 build-tsan/compiler/tagc -o build-tsan/out build-tsan/big.tagc
build/compiler/tagc -o build-tsan/out-plain build-tsan/big.tagc
cmp build-tsan/out/big.tagc.h build-tsan/out-plain/big.tagc.h
cmp build-tsan/out/big.tagc.c build-tsan/out-plain/big.tagc.c

step "consumer projects (Meson and Make) against an installed tagc"
examples/check-consumers.sh

# --- cross builds: aarch64 and s390x under qemu-user, i386 natively (under qemu-i386
# where the kernel runs no 32-bit programs)
step "cross builds (scripts/cross.sh)"
scripts/cross.sh
# --- end cross builds

# --- a clone is all it takes: ./run demo in a fresh clone, a meson dist tarball alone
step "a fresh clone and a dist tarball (scripts/clone-check.sh)"
scripts/clone-check.sh
# --- end clone check

# --- fuzz: every target ${FUZZ_SECONDS:-10} s, two at a time (17 targets: about 1.5 min),
# the code under test instrumented; prints each target's cov:/ft: and fails
# under a target's coverage floor (scripts/fuzz.sh).
if [ -x scripts/fuzz.sh ]; then
    step "fuzz smoke, with the coverage each target reached"
    scripts/fuzz.sh "${FUZZ_SECONDS:-10}"
fi
# --- end fuzz
step ""
echo "== all tests passed in $(($(date +%s) - t_all)) s"
