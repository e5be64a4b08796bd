#!/bin/sh
# check_headers.sh RUNTIME_DIR GENERATED_DIR KEYWORDS_DIR SOURCE_DIR
# The generated code of the keyword schemas compiles as C11 with gcc and clang;
# every generated header, after the standard headers, compiles as C11, C17 and
# C2x and as C++11, C++17 and C++20 with g++ and clang++; all with -Wall -Wextra
# -Werror (and -pedantic for C). codec.tagc's code (//tagc:codec) is among them.
set -eu
rt=$1 gen=$2 kw=$3 src=$4
inc="-I$rt -I$gen -I$kw -I$src" # $src: cx_point.h, for codec.tagc
flags="-Wall -Wextra -Werror -pedantic"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tagc-cxx.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
status=0
for h in "$gen"/*.tagc.h "$kw"/*.tagc.h; do
    echo "#include \"$(basename "$h")\""
done >"$tmp/all_generated.h"
inc="-I$tmp $inc" # first: the build directory has a shorter all_generated.h (roundtrip.cpp's)
try() {
    if ! "$@" >"$tmp/out" 2>&1; then
        echo "FAIL: $*"
        head -n 20 "$tmp/out"
        status=1
    else
        echo "ok: $*"
    fi
}
for cc in gcc clang; do
    command -v $cc >/dev/null || { echo "FAIL: no $cc"; exit 1; }
    for std in c11 c17 c2x; do
        try $cc -std=$std $flags $inc -c "$src/c_headers.c" -o "$tmp/c_headers.o"
    done
    for f in "$kw"/*.tagc.c; do
        try $cc -std=c11 $flags $inc -c "$f" -o "$tmp/kw.o"
    done
done
for cxx in g++ clang++; do
    command -v $cxx >/dev/null || { echo "FAIL: no $cxx"; exit 1; }
    for std in c++11 c++17 c++20; do
        try $cxx -std=$std -Wall -Wextra -Werror $inc -fsyntax-only "$src/cxx_headers.cpp"
    done
done
exit $status
