#!/bin/sh
# run.sh SCHEMA.tagc ROOT_TYPE DATA.json - checks with Go that the declarations of
# SCHEMA round-trip DATA: Unmarshal (DisallowUnknownFields) then Marshal gives the
# same tree. A schema without tagc imports is Go source; only its package clause
# is replaced. Needs `go` (1.19); exit 77 (skip) without it.
set -eu
schema=$1 root=$2 data=$3
command -v go >/dev/null 2>&1 || { echo "go not found: skipped"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/tagc-go-check.XXXXXX")
trap 'rm -rf "$dir"' EXIT
sed 's/^package [A-Za-z_][A-Za-z0-9_]*/package main/' "$schema" > "$dir/schema.go"
sed "s/ROOT_TYPE/$root/" "$here/check.go.txt" > "$dir/main.go"
printf 'module gocheck\n\ngo 1.19\n' > "$dir/go.mod"
cd "$dir"
export GOFLAGS=-mod=mod GOCACHE="${GOCACHE:-$dir/.cache}" GOPATH="${GOPATH:-$dir/.gopath}"
go build -o check . && ./check "$data"
