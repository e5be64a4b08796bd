#!/usr/bin/env python3
"""The real-world corpus: Go type files of well-known projects, unedited, against Go.

The files and payloads are those of Debian's Go library packages (README.md), installed by
scripts/setup.sh under /usr/share/gocode/src (GOCODE overrides it). For each entry of
corpus.json:
  1. tagc compiles the project's files as they are (with -I for the packages it imports,
     --map for the types of packages not read) and cc compiles the generated C with
     -Wall -Wextra -Werror;
  2. Go 1.19 builds the same package from the same directory (GOPATH mode, GO111MODULE=off,
     GOPATH ending in /usr/share/gocode, no network) into a program that prints
     json.Marshal(json.Unmarshal(payload)) for a payload and a root type;
  3. for each payload (from the project's tests, docs or fixtures) the generated C decodes and
     encodes it: both must accept or both reject, and the bytes must be Go's.
A missing package, file or payload is a failure, not a skip: setup.sh installs them.
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

HERE = os.path.dirname(os.path.abspath(__file__))


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


def project(p, gocode, tagc, runtime_inc, libtagc, go, tmp, cc):
    name = p["name"]
    work = os.path.join(tmp, name)
    os.makedirs(work)
    inputs = [os.path.join(gocode, f) for f in p["tagc"]]
    absent = [f for f in inputs if not os.path.exists(f)]
    if absent:
        print("%s: FAILED: not installed (scripts/setup.sh installs %s): %s"
              % (name, p["debian"], " ".join(absent)))
        return False
    args = [tagc, "-o", os.path.join(work, "gen"), "--no-msgpack"]
    for imp, d in p.get("imports", {}).items():
        args += ["-I", "%s=%s" % (imp, os.path.join(gocode, d))]
    if p.get("map"):
        args += ["--map", os.path.join(HERE, p["map"])]
    r = run(args + inputs)
    if r.returncode != 0:
        print("%s: FAILED: tagc:\n%s" % (name, r.stderr.decode()))
        return False
    gen = os.path.join(work, "gen")
    pkg_h = "%s.go.h" % p["c_prefix"]
    types = c_names(open(os.path.join(gen, pkg_h)).read(), p["c_prefix"])
    cases, missing = payloads(p, gocode, work)
    if missing:
        print("%s: FAILED: no payload in %s" % (name, ", ".join(missing)))
        return False
    roots = sorted({t for t, _, _ in cases})
    driver = ['#include <stdio.h>', '#include <stdlib.h>', '#include <string.h>',
              '#include "%s"' % pkg_h, '',
              'static char *slurp(const char *path, size_t *len)', '{',
              '    FILE *f = fopen(path, "rb");', '    if (!f) return NULL;',
              '    char *buf = malloc(1 << 24);', '    *len = buf ? fread(buf, 1, 1 << 24, f) : 0;',
              '    fclose(f);', '    return buf;', '}', '',
              'int main(int argc, char **argv)', '{',
              '    if (argc != 3) return 2;', '    size_t len = 0;',
              '    char *src = slurp(argv[2], &len);', '    if (!src) return 2;',
              '    tagc_arena arena;', '    tagc_arena_init(&arena);', '    tagc_error err;',
              '    tagc_buf out;', '    tagc_buf_init(&out);', '    int rc = -1, enc = -1;']
    for t in roots:
        c = types.get(snake_key(t))
        if not c:
            print("%s: FAILED: no C type for %s in %s" % (name, t, pkg_h))
            return False
        driver += ['    if (strcmp(argv[1], "%s") == 0) {' % t,
                   '        %s v;' % c,
                   '        rc = %s_decode_json(&v, src, len, &arena, &err, NULL);' % c,
                   '        if (rc == 0) enc = %s_encode_json(&v, &out, NULL);' % c, '    }']
    driver += ['    if (rc != 0) fputs("REJECT", stdout);',
               '    else if (enc != 0) fputs("ENCODE-ERROR", stdout);',
               '    else fwrite(out.data, 1, out.len, stdout);',
               '    tagc_buf_free(&out);', '    tagc_arena_free(&arena);', '    free(src);',
               '    return 0;', '}']
    with open(os.path.join(work, "driver.c"), "w") as f:
        f.write("\n".join(driver) + "\n")
    cfiles = [os.path.join(gen, f) for f in os.listdir(gen) if f.endswith(".c")]
    exe = os.path.join(work, "c_roundtrip")
    extra = os.environ.get("REALWORLD_CFLAGS", "").split()
    r = run(cc + ["-std=c11", "-Wall", "-Wextra", "-Werror", "-O1"] + extra + ["-I", gen,
             "-I", runtime_inc, "-o", exe, os.path.join(work, "driver.c")] + cfiles + [libtagc, "-lm"])
    if r.returncode != 0:
        print("%s: FAILED: the generated C does not compile warning-free:\n%s"
              % (name, r.stderr.decode()))
        return False

    # Go: the installed package itself, from a GOPATH whose last entry is /usr/share/gocode
    gopath = os.path.join(work, "gopath")
    main = ['package main', '', 'import (', '\t"encoding/json"', '\t"os"', '',
            '\tpkg "%s"' % p["import"], ')', '',
            'func roundtrip(v interface{}, data []byte) {',
            '\tif err := json.Unmarshal(data, v); err != nil {',
            '\t\tos.Stdout.WriteString("REJECT")', '\t\treturn', '\t}',
            '\tout, err := json.Marshal(v)', '\tif err != nil {',
            '\t\tos.Stdout.WriteString("ENCODE-ERROR")', '\t\treturn', '\t}',
            '\tos.Stdout.Write(out)', '}', '', 'func main() {',
            '\tdata, err := os.ReadFile(os.Args[2])', '\tif err != nil {', '\t\tos.Exit(2)', '\t}',
            '\tswitch os.Args[1] {']
    for t in roots:
        main += ['\tcase "%s":' % t, '\t\tvar v pkg.%s' % t, '\t\troundtrip(&v, data)']
    main += ['\t}', '}']
    mdir = os.path.join(gopath, "src", "tagc-realworld", name)
    os.makedirs(mdir)
    with open(os.path.join(mdir, "main.go"), "w") as f:
        f.write("\n".join(main) + "\n")
    env = dict(os.environ, GOPATH=gopath + os.pathsep + os.path.dirname(gocode),
               GO111MODULE="off", GOFLAGS="", GOPROXY="off",
               GOCACHE=os.path.join(tmp, "gocache"), CGO_ENABLED="0", GOTOOLCHAIN="local")
    goexe = os.path.join(work, "go_roundtrip")
    r = run([go, "build", "-o", goexe, "."], env=env, cwd=mdir)
    if r.returncode != 0:
        print("%s: FAILED: go build:\n%s" % (name, r.stderr.decode()))
        return False

    ok = True
    same = rejected = 0
    for t, label, path in cases:
        want = run([goexe, t, path]).stdout
        c = run([exe, t, path])
        got = c.stdout
        if c.returncode != 0:  # a crash or a sanitizer's report
            print("%s: %s %s: the C program failed (%d):\n%s"
                  % (name, t, label, c.returncode, c.stderr.decode()[:2000]))
            ok = False
        if want == got:
            same += 1
            rejected += want == b"REJECT"
            if os.environ.get("REALWORLD_VERBOSE"):
                print("%s: %s %s: ok (%d bytes)" % (name, t, label, len(want)))
        else:
            print("%s: %s %s: DIFFERS\n  go:   %s\n  tagc: %s"
                  % (name, t, label, want[:400], got[:400]))
            ok = False
    print("%s: %d/%d payloads as Go, %d of them rejected by both (%s; %s)"
          % (name, same, len(cases), rejected, ", ".join(roots), p["debian"]))
    return ok


def main():
    gocode = os.environ.get("GOCODE", "/usr/share/gocode/src")
    go = os.environ.get("GO") or shutil.which("go")
    tagc = os.environ.get("TAGC")
    if not go or not tagc:
        print("FAILED: needs TAGC and Go (scripts/setup.sh installs golang-go)")
        return 1
    runtime_inc = os.environ.get("TAGC_RUNTIME_INC", os.path.join(HERE, "..", "..", "runtime"))
    libtagc = os.environ["LIBTAGC"]
    cc = shlex.split(os.environ.get("CC", "cc"))  # the build's compiler: a cross one too
    corpus = json.load(open(os.path.join(HERE, "corpus.json")))
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="tagc-realworld-") as tmp:
        for p in corpus:
            if project(p, gocode, tagc, runtime_inc, libtagc, go, tmp, cc):
                passed += 1
            else:
                failed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
