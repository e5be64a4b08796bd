#!/usr/bin/env python3
"""run.py - the differential test of tagc's MessagePack against vmihailenco/msgpack v5.

Builds gen.go in module mode against vmihailenco/msgpack v5.4.1 (go.mod, go.sum:
from the Go module proxy into WORK/gomodcache, a cache the build owns), draws
random values of vm.tagc's types
(gen), has vm_tool decode and re-encode them in tagc (byte for byte), encode
encoding/json's JSON of them, and check mutated documents' verdicts, then has
vmihailenco decode tagc's bytes to the same values (check). A missing go or
package is a failure when the 4th argument is "require" (-Dgo_tests=enabled, as
CI runs), else a skip (exit 77).
Usage: run.py GO VM_TOOL WORK_DIR require|optional [VALUES MUTATIONS SEED]
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    if len(sys.argv) not in (5, 8):
        print(__doc__)
        return 2
    go, vm_tool, work, need = sys.argv[1:5]
    values, mutations, seed = (sys.argv[5:8] if len(sys.argv) == 8 else ("500", "5000", "1"))
    missing = None
    if not go or not os.path.exists(go):
        missing = "go not found"
    if missing:
        print(missing + (": failed (go_tests is enabled)" if need == "require" else ": skipped"))
        return 1 if need == "require" else 77
    work = os.path.abspath(work)
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ, GO111MODULE="on", GOPATH=os.path.join(work, "gopath"),
               GOMODCACHE=os.path.join(work, "gomodcache"), GOCACHE=os.path.join(work, "gocache"),
               GOFLAGS="-mod=readonly", GOTOOLCHAIN="local", CGO_ENABLED="0", TZ="UTC")
    mod = os.path.join(work, "mod")
    os.makedirs(mod, exist_ok=True)
    for name in ("go.mod", "go.sum", "gen.go"):
        with open(os.path.join(HERE, name)) as src, open(os.path.join(mod, name), "w") as dst:
            dst.write(src.read())
    gen = os.path.join(work, "vmgen")
    subprocess.run([go, "build", "-o", gen, "."], cwd=mod, env=env, check=True)
    gen_txt, tagc_txt = os.path.join(work, "gen.txt"), os.path.join(work, "tagc.txt")
    with open(gen_txt, "w") as f:
        subprocess.run([gen, "gen", values, mutations, seed], env=env, stdout=f, check=True)
    with open(gen_txt) as i, open(tagc_txt, "w") as o:
        r = subprocess.run([vm_tool], stdin=i, stdout=o)
    c = subprocess.run([gen, "check", gen_txt, tagc_txt], env=env)
    return 1 if r.returncode or c.returncode else 0


if __name__ == "__main__":
    sys.exit(main())
