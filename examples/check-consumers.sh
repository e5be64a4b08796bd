#!/bin/sh
# check-consumers.sh - installs tagc into a temporary prefix, then builds and
# runs the consumer projects (examples/meson-consumer with Meson,
# examples/make-consumer with make, examples/cmake-consumer with CMake and its
# Ninja and Unix Makefiles generators) against it, the way a user's build would;
# then examples/subproject-consumer, which builds tagc as a Meson subproject
# with no tagc installed.
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

orig_path=$PATH # for the subproject consumer: without the installed tagc

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

# 3b. README.md's link recipes, on the make consumer's code, each program run
# without LD_LIBRARY_PATH: the shared libtagc through an rpath, libtagc.a with
# the rest shared, everything static.
step "link recipes: rpath, libtagc.a, -static"
srcs="$src/app.c $src/shop.tagc.c $src/common.tagc.c"
cflags=$(pkg-config --cflags tagc)
# shellcheck disable=SC2086 # word splitting of the flags is meant
run cc -o "$tmp/app-rpath" $srcs $cflags $(pkg-config --libs tagc) -Wl,-rpath,"$libdir"
# shellcheck disable=SC2086
run cc -o "$tmp/app-bstatic" $srcs $cflags -Wl,-Bstatic $(pkg-config --static --libs tagc) -Wl,-Bdynamic
# shellcheck disable=SC2086
run cc -static -o "$tmp/app-static" $srcs $cflags $(pkg-config --static --libs tagc)
for kind in rpath bstatic static; do
    env -u LD_LIBRARY_PATH "$tmp/app-$kind" "$src/order.json" | grep -q '^order 42: ' ||
        fail "link recipe $kind: the program does not run without LD_LIBRARY_PATH"
done
ldd "$tmp/app-bstatic" | grep -q libtagc && fail "link recipe bstatic: linked the shared libtagc"

# 4. CMake, through the installed package (lib/.../cmake/tagc), with both generators.
cfg=$(find "$prefix" -name tagcConfig.cmake | head -n 1)
[ -n "$cfg" ] || fail "no tagcConfig.cmake installed"
[ -f "$(dirname "$cfg")/tagcConfigVersion.cmake" ] || fail "no tagcConfigVersion.cmake installed"
case $cfg in "$libdir"/cmake/tagc/*) ;; *) fail "tagcConfig.cmake not in $libdir/cmake/tagc: $cfg" ;; esac

cmake_build() { # build: builds, the output in $tmp/build.out (and the log)
    echo "+ cmake --build $1" >>"$log"
    cmake --build "$1" >"$tmp/build.out" 2>&1 || { cat "$tmp/build.out" >>"$log"; fail "cmake --build $1"; }
    cat "$tmp/build.out" >>"$log"
}
cmake_no_work() { # build what: a second build runs neither tagc nor a compiler
    cmake_build "$1"
    ! grep -Eq 'Building C object|tagc [a-z]+\.tagc' "$tmp/build.out" || fail "cmake consumer ($2): work to do $3"
}
cmake_check() { # generator name
    gen=$1
    src=$tmp/cmake-consumer-$2
    build=$src/build
    step "cmake consumer ($gen): build and run"
    rm -rf "$src"
    cp -R "$here/cmake-consumer" "$src"
    run cmake -S "$src" -B "$build" -G "$gen" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release
    cmake_build "$build"
    check_output "$src" "$build/app"
    "$build/app" "$src/order.json" | grep -q tax_rate && fail "cmake consumer ($gen): tax_rate before the change"
    [ -f "$build/tagc/shop.tagc.h" ] || fail "cmake consumer ($gen): no tagc/shop.tagc.h in the build directory"
    grep -q -- '--go 1.27' "$build/tagc/shop.tagc.h" || fail "cmake consumer ($gen): GO 1.27 did not reach tagc"
    grep -q encode_msgpack "$build/tagc/shop.tagc.h" && fail "cmake consumer ($gen): OPTIONS --no-msgpack not passed to tagc"
    # tagc::tagc is the shared libtagc: CMake's build rpath finds it
    env -u LD_LIBRARY_PATH "$build/app" "$src/order.json" >/dev/null || fail "cmake consumer ($gen): app does not run without LD_LIBRARY_PATH"
    cmake_no_work "$build" "$gen" "after the first build"

    step "cmake consumer ($gen): change the imported schema, rebuild"
    app_o=$(find "$build" -name 'app.c.o' | head -n 1)
    shop_o=$(find "$build" -name 'shop.tagc.c.o' | head -n 1)
    version_o=$(find "$build" -name 'version.c.o' | head -n 1)
    [ -n "$app_o" ] && [ -n "$shop_o" ] && [ -n "$version_o" ] || fail "cmake consumer ($gen): objects not found"
    before_app=$(mtime "$app_o") before_shop=$(mtime "$shop_o") before_version=$(mtime "$version_o")
    sleep 1
    add_field "$src"
    cmake_build "$build"
    grep -q 'tagc shop\.tagc' "$tmp/build.out" || fail "cmake consumer ($gen): shop.tagc not regenerated after its import changed (depfile)"
    [ "$(mtime "$app_o")" != "$before_app" ] || fail "cmake consumer ($gen): app.c.o was not rebuilt"
    [ "$(mtime "$shop_o")" != "$before_shop" ] || fail "cmake consumer ($gen): shop.tagc.c.o was not rebuilt"
    [ "$(mtime "$version_o")" = "$before_version" ] || fail "cmake consumer ($gen): version.c.o (no generated header) was rebuilt"
    check_output "$src" "$build/app"
    "$build/app" "$src/order.json" | grep -q '"tax_rate":0' || fail "cmake consumer ($gen): no tax_rate after the change"
    cmake_no_work "$build" "$gen" "after the rebuild"

    if [ "$gen" = Ninja ]; then
        # Ninja's restat: an output tagc leaves unchanged recompiles nothing
        # (the Makefile generators touch the outputs instead, so make recompiles)
        step "cmake consumer ($gen): touch a schema (same content): tagc reruns, nothing is recompiled"
        before_app=$(mtime "$app_o")
        sleep 1
        touch "$src/common.tagc"
        cmake_build "$build"
        grep -q 'tagc common\.tagc' "$tmp/build.out" || fail "cmake consumer ($gen): tagc did not rerun for a touched schema"
        ! grep -q 'Building C object' "$tmp/build.out" || fail "cmake consumer ($gen): recompiled for an unchanged schema"
        cmake_no_work "$build" "$gen" "after the touch"
    fi
}
command -v cmake >/dev/null || fail "no cmake"
cmake_check Ninja ninja
cmake_check "Unix Makefiles" make

# 5. Meson subproject: subprojects/tagc is a link to this tree, nothing installed
# is visible (no PATH, PKG_CONFIG_PATH or LD_LIBRARY_PATH to the prefix).
src=$tmp/subproject-consumer
build=$tmp/subproject-consumer-build
step "subproject consumer: build tagc as a subproject and run"
rm -rf "$src" "$build"
cp -R "$here/subproject-consumer" "$src"
ln -s "$repo" "$src/subprojects/tagc"
sub() {
    echo "+ $*" >>"$log"
    env -u PKG_CONFIG_PATH -u LD_LIBRARY_PATH PATH="$orig_path" "$@" >"$tmp/sub.out" 2>&1 || {
        cat "$tmp/sub.out" >>"$log"; fail "$* (status $?)"; }
    cat "$tmp/sub.out" >>"$log"
}
sub meson setup "$build" "$src"
grep -q 'Program tagc found: YES (overridden)' "$tmp/sub.out" || fail "subproject consumer: find_program('tagc') did not find the subproject's"
grep -q 'Dependency tagc found: YES .*(overridden)' "$tmp/sub.out" || fail "subproject consumer: dependency('tagc') did not find the subproject's"
grep -Eq 'tagc\| Build targets in project: [0-9]+' "$tmp/sub.out" || fail "subproject consumer: no tagc subproject"
sub ninja -C "$build"
[ -z "$(find "$build/subprojects" -path '*tests*' -name 'test_*' | head -n 1)" ] || fail "subproject consumer: tagc's tests were built"
check_output "$src" "$build/app"
sub ninja -C "$build" -n
grep -q 'no work to do' "$tmp/sub.out" || fail "subproject consumer: a second build has work to do"

step "subproject consumer: change the imported schema, rebuild"
obj=$(find "$build" -name 'app.c.o' -not -path '*/subprojects/*' | head -n 1)
[ -n "$obj" ] || fail "subproject consumer: no app.c.o"
before=$(mtime "$obj")
sleep 1
add_field "$src"
sub ninja -C "$build"
[ "$(mtime "$obj")" != "$before" ] || fail "subproject consumer: app.c.o was not rebuilt"
"$build/app" "$src/order.json" | grep -q '"tax_rate":0' || fail "subproject consumer: no tax_rate after the change"
sub ninja -C "$build" -n
grep -q 'no work to do' "$tmp/sub.out" || fail "subproject consumer: work to do after the rebuild"

step "ok"
