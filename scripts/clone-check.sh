#!/bin/sh
# A clone is all it takes, called by scripts/test.sh:
#   1. `git clone` of this checkout's committed state into an empty temporary
#      folder with nothing beside it, and `./run demo` there;
#   2. a `meson dist` tarball (the committed state, no .git) unpacked on its
#      own, configured, built whole, and the tests that read files of the
#      source tree run: selfcontained, roundtrip, conformance, go, portability,
#      golden, diagnostics, workflow. The rest of the suite (numbers, msgpack,
#      truncation, stream, validate, json_schema) reads nothing but what the
#      build compiled, which the main build tested already; running it again
#      would add about two minutes for no new fact. CLONE_CHECK_FULL=1 runs the
#      whole suite there.
# Uncommitted changes are not in either: commit first.
set -eu
cd "$(dirname "$0")/.."

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== a clone of the committed state, alone in an empty folder: ./run demo"
start=$(date +%s)
git clone -q "$PWD" "$tmp/clone/tagc"
(cd "$tmp/clone/tagc" && ./run demo)
echo "-- clone and demo: $(($(date +%s) - start)) s"

echo "== a meson dist tarball, unpacked alone: build and test"
start=$(date +%s)
[ -d build ] || meson setup build
rm -rf build/meson-dist
# --allow-dirty: with uncommitted changes (a developer's ./run test) the tarball is still
# the committed state, as the clone is
meson dist -C build --no-tests --allow-dirty --formats xztar
mkdir "$tmp/dist"
tar -xJf build/meson-dist/*.tar.xz -C "$tmp/dist"
src=$(echo "$tmp"/dist/*)
# -O0, no debug info: what this checks is that the tarball has every file the
# build and these tests read; the other builds check the code, so it compiles unoptimised
meson setup "$src/build" "$src" -Dwerror=true -Doptimization=0 -Ddebug=false >/dev/null
ninja -C "$src/build" >/dev/null
if [ "${CLONE_CHECK_FULL:-0}" = 1 ]; then
    meson test -C "$src/build" --print-errorlogs
else
    meson test -C "$src/build" --print-errorlogs --suite selfcontained --suite roundtrip \
        --suite conformance --suite go --suite portability
    meson test -C "$src/build" --print-errorlogs golden diagnostics workflow
fi
echo "-- dist tarball build and tests: $(($(date +%s) - start)) s"
