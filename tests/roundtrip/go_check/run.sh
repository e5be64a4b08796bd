#!/bin/sh
# run.sh SCHEMA.tagc ROOT_TYPE DATA.json [OUT] - checks with Go that the declarations
# of SCHEMA round-trip DATA: Unmarshal (DisallowUnknownFields) then Marshal gives
# the same tree; with OUT, also writes Go's encodings of the value (see
# check.go.txt). A schema without tagc imports is Go source: only its package
# clause is replaced. $GO is the Go toolchain to compare with (meson passes the
# one the test names); without it the script fails.
set -eu
schema=$1 root=$2 data=$3
out=${4:-}
go=${GO:?GO: the Go toolchain to compare with}
here=$(cd "$(dirname "$0")" && pwd)
case $out in ''|/*) ;; *) out=$(pwd)/$out ;; esac
dir=$(mktemp -d "${TMPDIR:-/tmp}/tagc-go-check.XXXXXX")
trap 'rm -rf "$dir"' EXIT
sed 's/^package [A-Za-z_][A-Za-z0-9_]*/package main/' "$schema" > "$dir/schema.go"
sed "s/ROOT_TYPE/$root/" "$here/check.go.txt" > "$dir/main.go"
printf 'module gocheck\n\ngo 1.19\n' > "$dir/go.mod"
# No network, no module downloads; a cache of our own when there is no HOME.
export GOFLAGS=-mod=mod GOPROXY=off GO111MODULE=on
[ -n "${HOME:-}" ] || export GOCACHE="${GOCACHE:-$dir/.cache}"
cd "$dir"
"$go" build -o check .
if [ -n "$out" ]; then ./check "$data" "$out"; else ./check "$data"; fi
