#!/usr/bin/env python3
"""The real-world corpus: Go type files of well-known projects, unedited, against Go.

The files and payloads are those of Debian's Go library packages (README.md), installed by
scripts/setup.sh under /usr/share/gocode/src (GOCODE overrides it). $GO is one Go reference
and $TAGC_GO_PROFILE the tagc --go profile that matches it (meson.build runs Go 1.27.3 with
--go 1.27 and Go 1.26.8 with --go 1.26); the profile is always given, never tagc's default.
For each entry of corpus.json:
  1. tagc --go PROFILE compiles the project's files as they are (with -I for the packages it
     imports, --map for the types of packages not read) and cc compiles the generated C with
     -Wall -Wextra -Werror;
  2. Go builds the same package from the same directory (GOPATH mode, GO111MODULE=off,
     GOPATH ending in /usr/share/gocode, no network) into a program that prints
     json.Marshal(json.Unmarshal(payload)) for a payload and a root type;
  3. for each payload (from the project's tests, docs or fixtures) the generated C decodes and
     encodes it: both must accept or both reject, and the bytes must be Go's;
  4. MessagePack, against vmihailenco/msgpack v5.4.1 (msgpack_check, mpcheck.go, built in
     module mode by build_mpcheck): tagc's MessagePack of each payload Go accepts decodes in
     Go to encoding/json's value of it, and tagc's --msgpack-sort-keys bytes are
     SetSortMapKeys(true)'s where Go's order is fixed; vmihailenco's MessagePack of the value
     decodes in tagc, re-encodes to Go's bytes, and gives Go's JSON.
A missing toolchain, package, file or payload is a failure, not a skip: setup.sh installs them.
"""
import glob
import json
import shlex
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))

# Projects run side by side (a thread each, up to a core each: nearly all the time is cc's);
# each one's lines are printed together, in corpus order.
_log = threading.local()


def say(line):
    _log.lines.append(line)


def snake_key(name):
    return re.sub(r"[^a-z0-9]", "", name.lower())


def c_names(header, prefix):
    """Go type name (as snake-insensitive key) -> C type, from the generated header."""
    out = {}
    for m in re.finditer(r"^int (\w+)_decode_json\(", header, re.M):
        c = m.group(1)
        if c.startswith(prefix + "_"):
            out.setdefault(snake_key(c[len(prefix) + 1:]), c)
    return out


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def md_examples(path):
    """The ```json blocks of a Markdown document, in order."""
    out, block = [], None
    for line in open(path, encoding="utf-8"):
        if block is None and line.startswith("```json"):
            block = []
        elif block is not None and line.startswith("```"):
            out.append("".join(block))
            block = None
        elif block is not None:
            block.append(line)
    return out


def select(value, path):
    """The values at PATH ('a/b', '*' for every member) of a decoded JSON document."""
    if not path:
        return [value]
    head, rest = path[0], path[1:]
    if head == "*":
        members = value.values() if isinstance(value, dict) else value
        return [v for m in members for v in select(m, rest)]
    return select(value[head], rest) if isinstance(value, dict) and head in value else []


def payloads(p, gocode, work):
    """(root type, label, file) for each payload of the entry; an empty source is an error."""
    out, missing = [], []
    n = 0
    for spec in p["payloads"]:
        root, pattern = spec["type"], spec["files"]
        matches = sorted(glob.glob(os.path.join(gocode, pattern)))
        if not matches:
            missing.append(pattern)
            continue
        for f in matches:
            label = os.path.relpath(f, gocode)
            if "markdown" in spec:  # the document's JSON examples, one payload each
                blocks = md_examples(f)
                if not blocks:
                    missing.append(label + " (no ```json block)")
                for i, text in enumerate(blocks):
                    n += 1
                    dst = os.path.join(work, "payload-%d.json" % n)
                    open(dst, "w", encoding="utf-8").write(text)
                    out.append((root, "%s example %d" % (label, i + 1), dst))
            elif "select" in spec:  # members of a larger document, each a payload
                doc = json.load(open(f, encoding="utf-8"))
                parts = select(doc, spec["select"].split("/"))
                if not parts:
                    missing.append("%s: %s" % (label, spec["select"]))
                for i, v in enumerate(parts):
                    n += 1
                    dst = os.path.join(work, "payload-%d.json" % n)
                    open(dst, "w", encoding="utf-8").write(json.dumps(v, ensure_ascii=False))
                    out.append((root, "%s %s #%d" % (label, spec["select"], i + 1), dst))
            else:
                out.append((root, label, f))
    return out, missing


def project(p, gocode, tagc, profile, runtime_inc, libtagc, go, go_lang, tmp, cc, msgpack):
    name = p["name"]
    work = os.path.join(tmp, name)
    os.makedirs(work)
    inputs = [os.path.join(gocode, f) for f in p["tagc"]]
    absent = [f for f in inputs if not os.path.exists(f)]
    if absent:
        say("%s: FAILED: not installed (scripts/setup.sh installs %s): %s"
              % (name, p["debian"], " ".join(absent)))
        return False
    args = []
    for imp, d in p.get("imports", {}).items():
        args += ["-I", "%s=%s" % (imp, os.path.join(gocode, d))]
    if p.get("map"):
        args += ["--map", os.path.join(HERE, p["map"])]
    # gen: tagc's defaults; gen-sorted: --msgpack-sort-keys (SetSortMapKeys(true)'s bytes),
    # for the MessagePack check only
    variants = (("gen", []), ("gen-sorted", ["--msgpack-sort-keys"]))[:2 if msgpack else 1]
    for out, flags in variants:
        r = run([tagc, "--go", profile, "-o", os.path.join(work, out)] + flags + args + inputs)
        if r.returncode != 0:
            say("%s: FAILED: tagc %s:\n%s" % (name, " ".join(flags), r.stderr.decode()))
            return False
    gen = os.path.join(work, "gen")
    pkg_h = "%s.go.h" % p["c_prefix"]
    types = c_names(open(os.path.join(gen, pkg_h)).read(), p["c_prefix"])
    cases, missing = payloads(p, gocode, work)
    if missing:
        say("%s: FAILED: no payload in %s" % (name, ", ".join(missing)))
        return False
    roots = sorted({t for t, _, _ in cases})
    # rw_types.c: the table of root types driver.c calls (rw_types.h)
    table = ['#include "rw_types.h"', '#include "%s"' % pkg_h, '']
    for t in roots:
        c = types.get(snake_key(t))
        if not c:
            say("%s: FAILED: no C type for %s in %s" % (name, t, pkg_h))
            return False
        table += [
            'static int dj_%s(void *v, const char *s, size_t n, tagc_arena *a, tagc_error *e)' % c,
            '{ return %s_decode_json(v, s, n, a, e, NULL); }' % c,
            'static int ej_%s(const void *v, tagc_buf *out) { return %s_encode_json(v, out, NULL); }' % (c, c),
            'static int dm_%s(void *v, const uint8_t *s, size_t n, tagc_arena *a, tagc_error *e)' % c,
            '{ return %s_decode_msgpack(v, s, n, a, e); }' % c,
            'static int em_%s(const void *v, tagc_buf *out) { return %s_encode_msgpack(v, out); }' % (c, c)]
    table += ['const rw_type rw_types[] = {']
    table += ['    {"%s", sizeof(%s), dj_%s, ej_%s, dm_%s, em_%s},' % ((t,) + (types[snake_key(t)],) * 5)
              for t in roots]
    table += ['};', 'const size_t rw_ntypes = sizeof rw_types / sizeof rw_types[0];']
    with open(os.path.join(work, "rw_types.c"), "w") as f:
        f.write("\n".join(table) + "\n")
    extra = os.environ.get("REALWORLD_CFLAGS", "").split()
    exes = {}
    for out, _ in variants:
        g = os.path.join(work, out)
        cfiles = [os.path.join(g, f) for f in sorted(os.listdir(g)) if f.endswith(".c")]
        exes[out] = os.path.join(work, "c-" + out)
        # -O1 for the default variant (gcc's flow warnings need it); the sorted one differs only
        # in its MessagePack writers, so -O0 (a third of -O1's time on runtime-spec). Under
        # sanitizers both -O0: the plain build has the warnings, and gcc's UBSan at -O1 made
        # this test half of the ASan step's time
        opt = "-O1" if out == "gen" and not extra else "-O0"
        r = run(cc + ["-std=c11", "-Wall", "-Wextra", "-Werror", opt] + extra + ["-I", g,
                 "-I", HERE, "-I", runtime_inc, "-o", exes[out], os.path.join(HERE, "driver.c"),
                 os.path.join(work, "rw_types.c")] + cfiles + [libtagc, "-lm"])
        if r.returncode != 0:
            say("%s: FAILED: the generated C (%s) does not compile warning-free:\n%s"
                  % (name, out, r.stderr.decode()))
            return False
    exe = exes["gen"]

    # roots.go: newRoot gives a new value of a root type, for the JSON program and mpcheck.go
    roots_go = ['package main', '', 'import pkg "%s"' % p["import"], '',
                '// newRoot: a new value of the root type called name',
                'func newRoot(name string) interface{} {', '\tswitch name {']
    for t in roots:
        roots_go += ['\tcase "%s":' % t, '\t\treturn new(pkg.%s)' % t]
    roots_go += ['\t}', '\tpanic("no root type " + name)', '}']
    roots_go = "\n".join(roots_go) + "\n"

    # JSON: the installed package itself, from a GOPATH whose last entry is /usr/share/gocode
    gopath = os.path.join(work, "gopath")
    main = ['package main', '', 'import (', '\t"encoding/json"', '\t"os"', ')', '',
            'func roundtrip(v interface{}, data []byte) {',
            '\tif err := json.Unmarshal(data, v); err != nil {',
            '\t\tos.Stdout.WriteString("REJECT")', '\t\treturn', '\t}',
            '\tout, err := json.Marshal(v)', '\tif err != nil {',
            '\t\tos.Stdout.WriteString("ENCODE-ERROR")', '\t\treturn', '\t}',
            '\tos.Stdout.Write(out)', '}', '',
            'func main() {',
            '\tdata, err := os.ReadFile(os.Args[2])', '\tif err != nil {', '\t\tos.Exit(2)', '\t}',
            '\troundtrip(newRoot(os.Args[1]), data)', '}']
    mdir = os.path.join(gopath, "src", "tagc-realworld", name)
    os.makedirs(mdir)
    with open(os.path.join(mdir, "main.go"), "w") as f:
        f.write("\n".join(main) + "\n")
    with open(os.path.join(mdir, "roots.go"), "w") as f:
        f.write(roots_go)
    env = dict(os.environ, GOPATH=gopath + os.pathsep + os.path.dirname(gocode),
               GO111MODULE="off", GOFLAGS="", GOPROXY="off", CGO_ENABLED="0", GOTOOLCHAIN="local")
    goexe = os.path.join(work, "go_roundtrip")
    r = run([go, "build", "-o", goexe, "."], env=env, cwd=mdir)
    if r.returncode != 0:
        say("%s: FAILED: go build:\n%s" % (name, r.stderr.decode()))
        return False
    mpexe, err = build_mpcheck(p, go, go_lang, gocode, env, work, roots_go) if msgpack else (None, None)
    if err:
        say("%s: FAILED: %s" % (name, err))
        return False

    ok = True
    same = rejected = 0
    accepted = []  # by Go: the MessagePack check's payloads
    for t, label, path in cases:
        want = run([goexe, t, path]).stdout
        c = run([exe, t, path])
        got = c.stdout
        if c.returncode != 0:  # a crash or a sanitizer's report
            say("%s: %s %s: the C program failed (%d):\n%s"
                  % (name, t, label, c.returncode, c.stderr.decode()[:2000]))
            ok = False
        if want != b"REJECT":
            accepted.append((t, label, path))
        if want == got:
            same += 1
            rejected += want == b"REJECT"
            if os.environ.get("REALWORLD_VERBOSE"):
                say("%s: %s %s: ok (%d bytes)" % (name, t, label, len(want)))
        else:
            say("%s: %s %s: DIFFERS\n  go:   %s\n  tagc: %s"
                  % (name, t, label, want[:400], got[:400]))
            ok = False
    say("%s: %d/%d payloads as Go, %d of them rejected by both (%s; %s)"
          % (name, same, len(cases), rejected, ", ".join(roots), p["debian"]))
    return (not msgpack or msgpack_check(p, accepted, exes, mpexe, work)) and ok


def module_root(imp, gocode):
    """The module of package IMP in the GOPATH tree: the nearest directory holding a go.mod
    (Debian keeps upstream's), else the package's own path (its parent for a /v0 or /v1)."""
    d = imp
    while d and d != ".":
        if os.path.exists(os.path.join(gocode, d, "go.mod")):
            return d
        d = os.path.dirname(d)
    return os.path.dirname(imp) if re.search(r"/v[01]$", imp) else imp


def build_mpcheck(p, go, go_lang, gocode, gopath_env, work, roots_go):
    """mpcheck.go built in module mode against vmihailenco/msgpack v5.4.1 (go.mod, go.sum:
    from the Go module proxy into REALWORLD_GOMODCACHE, a cache the build owns). The project's
    package and the packages it imports (Debian's, as `go list -deps` finds them in GOPATH
    mode) are copied into the build's own copies of their modules, that go.mod replaces them
    with: nothing of them is fetched.
    Returns (program, None) or (None, why)."""
    r = run([go, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}\t{{.Dir}}{{end}}",
             p["import"]], env=gopath_env, cwd=work)
    if r.returncode != 0:
        return None, "go list -deps %s:\n%s" % (p["import"], r.stderr.decode())
    mod = os.path.join(work, "mpcheck")
    os.makedirs(mod)
    roots = {}  # module path -> its copy
    for line in r.stdout.decode().splitlines():
        imp, src = line.split("\t")
        if os.path.commonpath([src, gocode]) != gocode:
            return None, "%s is not in %s: %s" % (imp, gocode, src)
        root = module_root(imp, gocode)
        dst = roots.setdefault(root, os.path.join(work, "mpdeps", str(len(roots))))
        dst = os.path.join(dst, os.path.relpath(imp, root))
        os.makedirs(dst, exist_ok=True)
        for f in os.listdir(src):  # the package's files, not its subdirectories
            if os.path.isfile(os.path.join(src, f)) and f != "go.mod":
                shutil.copy(os.path.join(src, f), dst)
    edits = ["-go=" + go_lang]
    for root, dst in roots.items():
        with open(os.path.join(dst, "go.mod"), "w") as f:
            f.write("module %s\n\ngo %s\n" % (root, go_lang))
        major = re.search(r"/v([2-9]|[1-9][0-9]+)$", root)  # a /vN module's versions are vN.x.x
        edits += ["-require=%s@v%s.0.0" % (root, major.group(1) if major else "0"),
                  "-replace=%s=%s" % (root, dst)]
    for f in ("go.mod", "go.sum", "mpcheck.go"):
        shutil.copy(os.path.join(HERE, f), mod)
    with open(os.path.join(mod, "roots.go"), "w") as f:
        f.write(roots_go)
    # -mod=readonly: go.mod and go.sum as written, nothing resolved anew; -modcacherw: the
    # module cache stays removable with the build directory
    env = dict(os.environ, GO111MODULE="on", GOFLAGS="-mod=readonly -modcacherw", GOWORK="off",
               GOPATH=os.path.join(work, "modgopath"), GOMODCACHE=os.environ["REALWORLD_GOMODCACHE"],
               GOTOOLCHAIN="local", CGO_ENABLED="0")
    exe = os.path.join(work, "go_mpcheck")
    for cmd in ([go, "mod", "edit"] + edits, [go, "build", "-o", exe, "."]):
        r = run(cmd, env=env, cwd=mod)
        if r.returncode != 0:
            return None, "%s (module mode, %s):\n%s" % (" ".join(cmd[1:3]), mod, r.stderr.decode())
    # the program's build information names the vmihailenco it was built with
    r = run([go, "version", "-m", exe], env=env)
    if not re.search(r"^\s+dep\s+github.com/vmihailenco/msgpack/v5\s+v5\.4\.1\s+h1:", r.stdout.decode(), re.M):
        return None, "%s is not built with vmihailenco/msgpack v5.4.1:\n%s" % (exe, r.stdout.decode())
    return exe, None


def batch(cmd, tasks, env=None):
    """Runs a batch program (driver.c's batch, mpcheck.go): one result line a task."""
    r = subprocess.run(cmd, input="".join(" ".join(t) + "\n" for t in tasks).encode(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    lines = r.stdout.decode(errors="replace").splitlines()
    if r.returncode != 0 or len(lines) != len(tasks):
        return None, "%s exited %d after %d of %d results:\n%s" % (
            os.path.basename(cmd[0]), r.returncode, len(lines), len(tasks),
            r.stderr.decode(errors="replace")[:4000])
    return lines, None


def msgpack_check(entry, cases, exes, mpexe, work):
    """Every payload Go accepts, through MessagePack, against vmihailenco/msgpack v5:
    1. tagc: JSON -> MessagePack, by the default build and the --msgpack-sort-keys one;
    2. Go (mpcheck.go): vmihailenco decodes tagc's bytes to encoding/json's value of the
       payload (reflect.DeepEqual, times in UTC); the sorted bytes are SetSortMapKeys(true)'s
       when Go's are in one order; Go writes its MessagePack and its JSON of the value;
    3. tagc decodes Go's MessagePack: it re-encodes to Go's bytes, and its JSON is Go's."""
    name = entry["name"]
    mp = os.path.join(work, "mp")
    os.makedirs(mp)
    f = lambda i, what: os.path.join(mp, "%d.%s" % (i, what))
    problems = []
    steps = (("tomp", exes["gen"], "tagc"), ("tomp", exes["gen-sorted"], "tagc-sorted"))
    for op, exe, what in steps:
        lines, err = batch([exe, "batch"], [(op, t, path, f(i, what)) for i, (t, _, path) in enumerate(cases)])
        if err:
            say("%s: MessagePack: FAILED: %s" % (name, err))
            return False
        for (t, label, _), line in zip(cases, lines):
            if line != "ok":
                problems.append("%s %s: tagc JSON -> MessagePack (%s): %s" % (t, label, what, line))
    if problems:
        say("%s: MessagePack: FAILED:\n  %s" % (name, "\n  ".join(problems[:20])))
        return False
    tasks = [(t, path, f(i, "tagc"), f(i, "tagc-sorted"), f(i, "go"), f(i, "go.json"))
             for i, (t, _, path) in enumerate(cases)]
    go_lines, err = batch([mpexe], tasks)
    if err:
        say("%s: MessagePack: FAILED: %s" % (name, err))
        return False
    back, err = batch([exes["gen"], "batch"], [("back", t, f(i, "go"), f(i, "back.json"))
                                               for i, (t, _, _) in enumerate(cases)])
    if err:
        say("%s: MessagePack: FAILED: %s" % (name, err))
        return False
    sorted_same = random_order = lossy = 0
    loses = entry.get("msgpack_go_loses")
    for i, ((t, label, _), gl, bl) in enumerate(zip(cases, go_lines, back)):
        if gl.startswith("lossy ") and loses:
            # Go itself loses data (corpus.json says which type): tagc must still
            # read what Go writes; there is no equal value to compare with
            lossy += 1
            if not bl.startswith("ok"):
                problems.append("%s %s: tagc rejects vmihailenco's MessagePack: %s" % (t, label, bl))
            continue
        if not gl.startswith("ok "):
            problems.append("%s %s: %s" % (t, label, gl.replace("\\n", "\n")))
            continue
        sorted_same += gl == "ok same"
        random_order += gl == "ok random"
        if bl != "ok same":
            problems.append("%s %s: vmihailenco's MessagePack in tagc: %s" % (t, label, bl))
            continue
        want, got = open(f(i, "go.json"), "rb").read(), open(f(i, "back.json"), "rb").read()
        if want != got:
            problems.append("%s %s: vmihailenco's MessagePack decoded by tagc, as JSON:\n  go:   %s\n  tagc: %s"
                            % (t, label, want[:400], got[:400]))
    if loses and not lossy:
        problems.append("corpus.json says vmihailenco loses data here (%s), but no payload "
                        "lost any: the note is stale" % loses)
    for line in problems[:20]:
        say("%s: MessagePack: %s" % (name, line))
    if lossy:
        say("%s: MessagePack: %d/%d payloads not comparable, as corpus.json says: vmihailenco's "
              "own round trip loses data (%s); tagc read Go's bytes of all of them"
              % (name, lossy, len(cases), loses))
    say("%s: MessagePack: %d/%d payloads read back equal by vmihailenco and by tagc "
          "(%d with SetSortMapKeys(true)'s bytes, %d with maps Go writes in random order)"
          % (name, len(cases) - len(problems) - lossy, len(cases), sorted_same, random_order))
    return not problems


def main():
    gocode = os.environ.get("GOCODE", "/usr/share/gocode/src")
    go = os.environ.get("GO")
    tagc = os.environ.get("TAGC")
    profile = os.environ.get("TAGC_GO_PROFILE")  # tagc's --go, always given: not its default
    # the MessagePack check (REALWORLD_MSGPACK=0 leaves it out: tagc's MessagePack writers do
    # not depend on the profile, so one of meson.build's two tests runs it)
    msgpack = os.environ.get("REALWORLD_MSGPACK", "1") != "0"
    if not go or not tagc or not profile or (msgpack and not os.environ.get("REALWORLD_GOMODCACHE")):
        print("FAILED: needs TAGC, TAGC_GO_PROFILE, REALWORLD_GOMODCACHE and GO, the Go of "
              "that profile (meson.build's go_refs; scripts/setup.sh installs the toolchains)")
        return 1
    r = run([go, "env", "GOVERSION"], env=dict(os.environ, GOTOOLCHAIN="local"))
    version = r.stdout.decode().strip()
    if r.returncode != 0 or not version.startswith("go%s." % profile):
        print("FAILED: %s is not Go %s (tagc --go %s): %s%s"
              % (go, profile, profile, version, r.stderr.decode()))
        return 1
    go_lang = profile  # the language version of the module mpcheck.go is built in: the Go's own
    runtime_inc = os.environ.get("TAGC_RUNTIME_INC", os.path.join(HERE, "..", "..", "runtime"))
    libtagc = os.environ["LIBTAGC"]
    cc = shlex.split(os.environ.get("CC", "cc"))  # the build's compiler: a cross one too
    corpus = json.load(open(os.path.join(HERE, "corpus.json")))
    def one(p):
        _log.lines = []
        ok = project(p, gocode, tagc, profile, runtime_inc, libtagc, go, go_lang, tmp, cc, msgpack)
        return ok, _log.lines

    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="tagc-realworld-") as tmp:
        with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 1)) as pool:
            for ok, lines in pool.map(one, corpus):
                print("\n".join(lines), flush=True)
                passed += ok
                failed += not ok
    print("%d passed, %d failed (Go %s, tagc --go %s%s)" % (passed, failed, version[2:], profile,
                                                            "" if msgpack else "; JSON only"))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
