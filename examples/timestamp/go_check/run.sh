#!/bin/sh
# run.sh PUSH SRC_DIR BUILD_DIR - the timestamp example against Go: for each
# payload, push's re-encoding (the lines that are JSON) must be byte for byte
# what Go's json.Marshal writes after Unmarshal with go-github's Timestamp
# (main.go.txt, under TZ=UTC); a payload one side rejects, the other must too.
set -eu
: "${GO:?GO: the Go toolchain to compare with}"
push=$1 src=$2 out=$3
mkdir -p "$out/go_check"
cp "$src/go_check/main.go.txt" "$out/go_check/main.go"
cd "$src"
files="push_integer.json push_string.json bad_push.json push_edge.json"
for f in $files; do
    go_line=$(cd "$out/go_check" && TZ=UTC GOCACHE="$out/gocache" GOPATH="$out/gopath" GO111MODULE=off \
        CGO_ENABLED=0 "$GO" run main.go "$src/$f") || { echo "go failed on $f" >&2; exit 1; }
    c_line=$("$push" "$f" | grep '^{' || true)
    if [ "$go_line" = "$src/$f: error" ]; then
        [ -z "$c_line" ] || { echo "$f: Go rejects it, push does not" >&2; exit 1; }
    elif [ "$go_line" != "$c_line" ]; then
        echo "$f: differs from Go" >&2
        echo "go: $go_line" >&2
        echo "c:  $c_line" >&2
        exit 1
    fi
    echo "ok: $f"
done
