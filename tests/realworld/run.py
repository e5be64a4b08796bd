#!/usr/bin/env python3
"""The real-world corpus: Go type files of well-known projects, unedited, against Go.

For each project of corpus.json, from REALWORLD_SRC (a directory prepared by fetch.sh, see
README.md; the files are not in this repository):
  1. tagc compiles the project's files (with -I for the packages it imports, --map for the
     types of packages not read) and cc compiles the generated C with -Wall -Wextra -Werror;
  2. Go 1.19 builds the same files (GOPATH mode, GO111MODULE=off, no network) into a program
     that prints json.Marshal(json.Unmarshal(payload)) for a payload and a root type;
  3. for each payload (from the project's tests, docs or fixtures) the generated C decodes and
     encodes it: both must accept or both reject, and the bytes must be Go's.
Exit status 77 (skipped) when REALWORLD_SRC or Go is missing; 1 on any difference.
"""
import json
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


def project(p, src, tagc, runtime_inc, libtagc, go, tmp, cc):
    name = p["name"]
    work = os.path.join(tmp, name)
    os.makedirs(work)
    files = [os.path.join(src, p["dir"], f) for f in p["files"]] if p.get("files") \
        else [os.path.join(src, p["dir"])]
    args = [tagc, "-o", os.path.join(work, "gen"), "--no-msgpack"]
    for dep in p.get("deps", []):
        args += ["-I", "%s=%s" % (dep["import"], os.path.join(src, dep["dir"]))]
        # the packages it imports are generated too: their headers are included
        files += [os.path.join(src, dep["dir"], sub) for sub in dep.get("packages", [""])]
    if p.get("map"):
        args += ["--map", os.path.join(HERE, p["map"])]
    r = run(args + files)
    if r.returncode != 0:
        print("%s: tagc failed:\n%s" % (name, r.stderr.decode()))
        return False
    gen = os.path.join(work, "gen")
    pkg_h = "%s.go.h" % p["c_prefix"]
    types = c_names(open(os.path.join(gen, pkg_h)).read(), p["c_prefix"])
    roots = sorted({t for t, _ in p["payloads"]})
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
            print("%s: no C type for %s in %s" % (name, t, pkg_h))
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
    r = run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-O1", "-I", gen, "-I", runtime_inc,
             "-o", exe, os.path.join(work, "driver.c")] + cfiles + [libtagc, "-lm"])
    if r.returncode != 0:
        print("%s: the generated C does not compile warning-free:\n%s" % (name, r.stderr.decode()))
        return False

    # Go: the same files in a GOPATH
    gopath = os.path.join(work, "gopath")
    def copy_pkg(import_path, directory, only=None):
        dst = os.path.join(gopath, "src", import_path)
        os.makedirs(dst, exist_ok=True)
        for f in os.listdir(directory):
            if f.endswith(".go") and not f.endswith("_test.go") and (only is None or f in only):
                shutil.copy(os.path.join(directory, f), dst)
    copy_pkg(p["import"], os.path.join(src, p["dir"]), p.get("files"))
    for dep in p.get("deps", []):
        for sub in dep.get("packages", [""]):
            copy_pkg(os.path.join(dep["import"], sub), os.path.join(src, dep["dir"], sub))
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
    # inside the package's tree, so that an internal/ package may be imported
    mdir = os.path.join(gopath, "src", p["import"], "rwmain")
    os.makedirs(mdir)
    with open(os.path.join(mdir, "main.go"), "w") as f:
        f.write("\n".join(main) + "\n")
    env = dict(os.environ, GOPATH=gopath, GO111MODULE="off", GOFLAGS="", GOPROXY="off",
               GOCACHE=os.path.join(tmp, "gocache"), CGO_ENABLED="0", GOTOOLCHAIN="local")
    goexe = os.path.join(work, "go_roundtrip")
    r = run([go, "build", "-o", goexe, "."], env=env, cwd=mdir)
    if r.returncode != 0:
        print("%s: go build failed:\n%s" % (name, r.stderr.decode()))
        return False

    ok = True
    for t, payload in p["payloads"]:
        path = os.path.join(src, payload)
        want = run([goexe, t, path]).stdout
        got = run([exe, t, path]).stdout
        status = "ok" if want == got else "DIFFERS"
        print("%s: %s %s: %s (%d bytes)" % (name, t, payload, status, len(want)))
        if want != got:
            print("  go:   %s\n  tagc: %s" % (want[:400], got[:400]))
            ok = False
    return ok


def main():
    src = os.environ.get("REALWORLD_SRC")
    go = os.environ.get("GO") or shutil.which("go")
    tagc = os.environ.get("TAGC")
    if not src or not os.path.isdir(src) or not go or not tagc:
        print("skipped: set REALWORLD_SRC (see tests/realworld/README.md), TAGC and have go")
        return 77
    runtime_inc = os.environ.get("TAGC_RUNTIME_INC", os.path.join(HERE, "..", "..", "runtime"))
    libtagc = os.environ["LIBTAGC"]
    cc = os.environ.get("CC", "cc")
    corpus = json.load(open(os.path.join(HERE, "corpus.json")))
    ok = True
    with tempfile.TemporaryDirectory(prefix="tagc-realworld-") as tmp:
        for p in corpus:
            if not os.path.isdir(os.path.join(src, p["dir"])):
                print("%s: not in REALWORLD_SRC: skipped" % p["name"])
                continue
            ok = project(p, src, tagc, runtime_inc, libtagc, go, tmp, cc) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
