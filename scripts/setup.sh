#!/bin/sh
# Installs, from Debian's packages, whatever tagc needs to build, test and
# benchmark and is not already installed. Needs root or sudo only when
# something is missing.
set -eu

PKGS="meson ninja-build gcc clang flex bison pkg-config libcriterion-dev libcjson-dev
      libjansson-dev libjson-c-dev libmsgpack-dev golang-go python3 python3-jsonschema
      python3-msgpack valgrind libclang-rt-14-dev g++ libsimdjson-dev"

missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "setup: installing$missing" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
$SUDO apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
