#!/bin/sh
# check-consumers.sh - installs tagc into a temporary prefix, then builds and
# runs the two consumer projects (examples/meson-consumer with Meson,
# examples/make-consumer with make) against it, the way a user's build would.
# For each: a change to an imported schema must regenerate the code and rebuild
# the objects that depend on it (the new field shows in the program's output, the
# object is newer), and a build with nothing changed must do no work.
# Exits non-zero on any failure. Usage: examples/check-consumers.sh [KEEP_DIR]
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
if [ $# -gt 0 ]; then
    tmp=$1
    mkdir -p "$tmp"
else
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/tagc-consumers.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
fi
log=$tmp/log.txt
: >"$log"

fail() {
    echo "check-consumers: FAIL: $*" >&2
    echo "--- last lines of $log:" >&2
    tail -n 30 "$log" >&2 || true
    exit 1
}
step() {
    echo "check-consumers: $*"
}
run() {
    echo "+ $*" >>"$log"
    "$@" >>"$log" 2>&1 || fail "$* (status $?)"
}
mtime() {
    stat -c %Y.%y "$1"
}

# 1. Install tagc into a temporary prefix.
prefix=$tmp/prefix
step "installing tagc into $prefix"
run meson setup "$tmp/tagc-build" "$repo" --prefix="$prefix" -Dtests=false -Dbench=false --buildtype=release
run ninja -C "$tmp/tagc-build"
run meson install -C "$tmp/tagc-build"

pc=$(find "$prefix" -name tagc.pc | head -n 1)
[ -n "$pc" ] || fail "no tagc.pc installed"
[ -x "$prefix/bin/tagc" ] || fail "no bin/tagc installed"
[ -f "$prefix/include/tagc.h" ] || fail "no include/tagc.h installed"
[ -n "$(find "$prefix" -name tagc.1)" ] || fail "no tagc.1 man page installed"
PATH=$prefix/bin:$PATH
PKG_CONFIG_PATH=$(dirname "$pc")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
export PATH PKG_CONFIG_PATH
libdir=$(pkg-config --variable=libdir tagc) || fail "pkg-config does not find tagc"
[ -f "$libdir/libtagc.a" ] || fail "no static libtagc.a in $libdir"
[ -n "$(find "$libdir" -name 'libtagc.so*' | head -n 1)" ] || fail "no shared libtagc.so in $libdir"
# the programs link the shared libtagc, which is not in a system directory
LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH
[ "$(command -v tagc)" = "$prefix/bin/tagc" ] || fail "tagc on PATH is $(command -v tagc)"

# The change both consumers get: a new field in the imported schema.
add_field() {
    sed -i 's|^\tCurrency string `json:"currency"`$|&\n\tTaxRate  float64 `json:"tax_rate"`|' "$1/common.tagc"
    grep -q tax_rate "$1/common.tagc" || fail "could not edit $1/common.tagc"
}

check_output() { # dir program: the output is the expected one, before or after the change
    out=$("$2" "$1/order.json") || fail "$2 failed"
    echo "$out" >>"$log"
    echo "$out" | grep -q '^order 42: 2 items, 3899 cents$' || fail "$2: unexpected output: $out"
    echo "$out" | grep -q '"currency":"EUR"' || fail "$2: no re-encoded order: $out"
}

# 2. Meson.
src=$tmp/meson-consumer
build=$tmp/meson-consumer-build
step "meson consumer: build and run"
rm -rf "$src" "$build"
cp -R "$here/meson-consumer" "$src"
run meson setup "$build" "$src"
run ninja -C "$build"
check_output "$src" "$build/app"
"$build/app" "$src/order.json" | grep -q tax_rate && fail "meson consumer: tax_rate before the change"
ninja -C "$build" -n | grep -q 'no work to do' || fail "meson consumer: a second build has work to do"

step "meson consumer: change the imported schema, rebuild"
obj=$(find "$build" -name 'app.c.o' | head -n 1)
[ -n "$obj" ] || fail "meson consumer: no app.c.o"
before=$(mtime "$obj")
sleep 1
add_field "$src"
run ninja -C "$build"
[ "$(mtime "$obj")" != "$before" ] || fail "meson consumer: app.c.o was not rebuilt"
check_output "$src" "$build/app"
"$build/app" "$src/order.json" | grep -q '"tax_rate":0' || fail "meson consumer: no tax_rate after the change"
ninja -C "$build" -n | grep -q 'no work to do' || fail "meson consumer: work to do after the rebuild"

step "meson consumer: touch a schema (same content): tagc reruns, nothing is recompiled"
before=$(mtime "$obj")
sleep 1
touch "$src/shop.tagc"
run ninja -C "$build"
[ "$(mtime "$obj")" = "$before" ] || fail "meson consumer: app.c.o rebuilt for an unchanged schema"
ninja -C "$build" -n | grep -q 'no work to do' || fail "meson consumer: work to do after the touch"

# 3. Make.
src=$tmp/make-consumer
step "make consumer: build and run"
rm -rf "$src"
cp -R "$here/make-consumer" "$src"
run make -C "$src"
check_output "$src" "$src/app"
"$src/app" "$src/order.json" | grep -q tax_rate && fail "make consumer: tax_rate before the change"
make -q -C "$src" || fail "make consumer: a second build has work to do"

step "make consumer: change the imported schema, rebuild"
before_app=$(mtime "$src/app.o")
before_shop=$(mtime "$src/shop.tagc.o")
sleep 1
add_field "$src"
make -q -C "$src" && fail "make consumer: the change went unnoticed"
run make -C "$src"
[ "$(mtime "$src/app.o")" != "$before_app" ] || fail "make consumer: app.o was not rebuilt"
[ "$(mtime "$src/shop.tagc.o")" != "$before_shop" ] || fail "make consumer: shop.tagc.o was not rebuilt"
check_output "$src" "$src/app"
"$src/app" "$src/order.json" | grep -q '"tax_rate":0' || fail "make consumer: no tax_rate after the change"
make -q -C "$src" || fail "make consumer: work to do after the rebuild"

step "ok"
