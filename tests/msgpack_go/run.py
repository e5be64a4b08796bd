#!/usr/bin/env python3
"""run.py - tagc's MessagePack against Go's tinylib/msgp (msgpack_go test).

Builds msgp's code generator offline from the Debian sources (GOPATH mode,
GOPATH = WORK/gopath:/usr/share/gocode), turns schemas/order.tagc and user.tagc
into Go packages (prepare.go: msg tags = tagc's MessagePack names; time.Time as
the spec's timestamp extension -1), runs the generator on them and builds
interop.go. Then for each workload document:
  1. Go -> tagc: encoding/json reads the document, msgp's MarshalMsg encodes it;
     mp_tool mp2json decodes those bytes to the same JSON as the document;
  2. tagc -> Go: mp_tool json2mp encodes the document; msgp's UnmarshalMsg
     decodes it and encoding/json writes the same JSON as the document.
JSON compares as parsed trees; in 2, an empty array in the document may come
back as null: msgp's generated decoders make a nil slice of an empty array
(cap(nil) >= 0, so z.F = z.F[:0]), a limitation of msgp, not of tagc's bytes
(both sides write an empty slice as fixarray 0x90). Whether both sides wrote the same bytes is
printed, not checked. Exit 77 (skipped) without go or the msgp sources, or 1
(failed) when the last argument is "require" (-Dgo_tests=enabled, as CI runs).
Usage: run.py GO MP_TOOL SCHEMA_DIR DATA_DIR WORK_DIR [require|optional]
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GOCODE = "/usr/share/gocode/src"
NEEDED = ["github.com/tinylib/msgp/main.go", "github.com/tinylib/msgp/msgp",
          "github.com/philhofer/fwd", "golang.org/x/tools/imports"]

WORKLOADS = [("order_order", "order", "seedwork/order.json"),
             ("user_user", "user", "seedwork/user.json")]


def same(want, got, empty_is_null=False):
    """want == got as JSON trees; with empty_is_null, [] in want matches null."""
    if isinstance(want, dict):
        return (isinstance(got, dict) and want.keys() == got.keys()
                and all(same(want[k], got[k], empty_is_null) for k in want))
    if isinstance(want, list):
        if empty_is_null and not want and got is None:
            return True
        return (isinstance(got, list) and len(want) == len(got)
                and all(same(a, b, empty_is_null) for a, b in zip(want, got)))
    return type(want) == type(got) and want == got


REQUIRE = False


def skip(why):
    if REQUIRE:
        print(why + ": failed (go_tests is enabled)")
        sys.exit(1)
    print(why + ": skipped")
    sys.exit(77)


def main():
    global REQUIRE
    if len(sys.argv) not in (6, 7):
        print(__doc__)
        return 2
    go, mp_tool, schemas, data, work = sys.argv[1:6]
    REQUIRE = len(sys.argv) == 7 and sys.argv[6] == "require"
    if not go or not shutil.which(go):
        skip("go not found")
    for p in NEEDED:
        if not os.path.exists(os.path.join(GOCODE, p)):
            skip(os.path.join(GOCODE, p) + " missing (golang-github-tinylib-msgp-dev)")
    work = os.path.abspath(work)
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ, GO111MODULE="off", GOPATH=os.path.join(work, "gopath") + ":/usr/share/gocode",
               GOCACHE=os.path.join(work, "gocache"), GOPROXY="off", GOFLAGS="",
               GOTOOLCHAIN="local", CGO_ENABLED="0", TZ="UTC")

    def go_cmd(*args, cwd=work):
        r = subprocess.run(list(args), cwd=cwd, env=env, capture_output=True, text=True)
        if r.returncode != 0:
            print("FAILED: " + " ".join(args) + "\n" + r.stdout + r.stderr)
            sys.exit(1)

    msgp = os.path.join(work, "msgp")
    go_cmd(go, "build", "-o", msgp, "github.com/tinylib/msgp")
    for _, schema, _ in WORKLOADS:
        pkg = os.path.join(work, "gopath", "src", "msgpgo", schema)
        shutil.rmtree(pkg, ignore_errors=True)
        go_cmd(go, "run", os.path.join(HERE, "prepare.go"), pkg, os.path.join(schemas, schema + ".tagc"))
        go_cmd(msgp, "-file", os.path.join(pkg, schema + ".go"), "-o", os.path.join(pkg, schema + "_gen.go"),
               "-tests=false", "-io=false")
    interop = os.path.join(work, "interop")
    go_cmd(go, "build", "-o", interop, os.path.join(HERE, "interop.go"))

    failures = 0
    for ctype, schema, doc in WORKLOADS:
        src = os.path.join(data, doc)
        with open(src, "rb") as f:
            text = f.read()
        want = json.loads(text)
        go_mp = os.path.join(work, schema + ".go.mp")
        tagc_mp = os.path.join(work, schema + ".tagc.mp")
        go_json = os.path.join(work, schema + ".go.json")

        # 1. Go -> tagc
        r = subprocess.run([interop, "encode", ctype, src, go_mp], env=env, capture_output=True)
        if r.returncode != 0:
            print(f"FAIL {ctype}: msgp encode: {r.stderr.decode()}")
            failures += 1
        else:
            with open(go_mp, "rb") as f:
                r = subprocess.run([mp_tool, "mp2json", ctype], stdin=f, capture_output=True)
            if r.returncode != 0:
                print(f"FAIL {ctype}: tagc does not decode msgp's bytes: {r.stderr.decode()}")
                failures += 1
            elif not same(want, json.loads(r.stdout)):
                print(f"FAIL {ctype}: msgp -> tagc gives\n  {r.stdout.decode()}\nnot\n  {text.decode()}")
                failures += 1
            else:
                print(f"ok   {ctype}: msgp -> tagc")

        # 2. tagc -> Go
        with open(src, "rb") as f:
            r = subprocess.run([mp_tool, "json2mp", ctype], stdin=f, capture_output=True)
        if r.returncode != 0:
            print(f"FAIL {ctype}: mp_tool json2mp: {r.stderr.decode()}")
            failures += 1
            continue
        with open(tagc_mp, "wb") as f:
            f.write(r.stdout)
        r = subprocess.run([interop, "decode", ctype, tagc_mp, go_json], env=env, capture_output=True)
        if r.returncode != 0:
            print(f"FAIL {ctype}: msgp does not decode tagc's bytes: {r.stderr.decode()}")
            failures += 1
            continue
        with open(go_json, "rb") as f:
            got = f.read()
        if not same(want, json.loads(got), empty_is_null=True):
            print(f"FAIL {ctype}: tagc -> msgp gives\n  {got.decode()}\nnot\n  {text.decode()}")
            failures += 1
        else:
            print(f"ok   {ctype}: tagc -> msgp")

        if os.path.exists(go_mp):
            with open(go_mp, "rb") as a, open(tagc_mp, "rb") as b:
                a, b = a.read(), b.read()
            if a == b:
                print(f"     {ctype}: msgp and tagc wrote the same {len(a)} bytes")
            else:
                i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                print(f"     {ctype}: msgp wrote {len(a)} bytes, tagc {len(b)}; first difference at {i}: "
                      f"msgp {a[i:i+4].hex()}, tagc {b[i:i+4].hex()} (informational)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
