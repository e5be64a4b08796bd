#!/bin/sh
# fetch.sh DEST [MIRRORS] - prepares the real-world corpus in DEST (README.md says why it is
# not in this repository): the files of corpus.json at pinned commits, from bare mirrors
# MIRRORS/<owner>+<name>/repo when present, else cloned from GitHub (network).
# Then: REALWORLD_SRC=DEST meson test -C build realworld
set -eu
dest=$1
mirrors=${2:-}
mkdir -p "$dest"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

repo() { # owner/name -> a git dir
    m="$mirrors/$(echo "$1" | tr / +)/repo"
    if [ -n "$mirrors" ] && [ -d "$m" ]; then
        echo "$m"
    else
        d="$tmp/$(echo "$1" | tr / +)"
        [ -d "$d" ] || git clone -q --bare "https://github.com/$1" "$d"
        echo "$d"
    fi
}

take() { # owner/name commit prefix paths...
    r=$(repo "$1"); c=$2; p=$3; shift 3
    git -C "$r" archive --prefix="$p/" "$c" "$@" | tar -x -C "$dest"
}

take opencontainers/runtime-spec 6999a89a76a0329f440d5740497bedb9dd431297 runtime-spec \
    LICENSE specs-go schema/test/config/good
take golang/vuln 29462d73a2bf15636e29dc1e570ea0caa38dd5d5 vuln LICENSE internal/osv
take golang/vuln 19b0bb6a272792b9afa8a6983c3e9b9a1816947f vuln \
    cmd/govulncheck/testdata/common/vulndb-v1/ID
take aws/aws-lambda-go 815d21f4176907c97cc6a77465ece6a1d2bbbac4 lambda-events-src LICENSE events
mkdir -p "$dest/lambda-events"
cp -r "$dest/lambda-events-src/events/." "$dest/lambda-events/"
cp "$dest/lambda-events-src/LICENSE" "$dest/lambda-events/LICENSE"
rm -rf "$dest/lambda-events-src"
take opencontainers/image-spec 13cff54902ec9ad6320cbc487a685b66fcd67171 image-spec \
    LICENSE specs-go manifest.md image-index.md config.md
take opencontainers/go-digest 137fd2bb009d6540304bc01b3c7758777514e430 go-digest \
    LICENSE algorithm.go digest.go digester.go doc.go verifiers.go
# image-spec's payloads: the JSON examples of its documents, one file each
mkdir -p "$dest/image-spec/examples"
for doc in manifest image-index config; do
    awk -v out="$dest/image-spec/examples/$doc" '
        /^```json/ { n++; f = out "-" n ".json"; on = 1; next }
        /^```/ && on { on = 0; close(f); next }
        on { print > f }' "$dest/image-spec/$doc.md"
done
echo "corpus in $dest"
