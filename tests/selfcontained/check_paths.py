#!/usr/bin/env python3
"""Fails if a file of the repository names a path outside it.

Every relative path that climbs with ../ is resolved from the folder of the
file that names it and must stay inside the tree; absolute paths of a
developer's machine (/work/, /home/, /root/, /Users/) are never right. The
installed packages' files are read where the packages put them, and only there:
a path under Debian's Go tree (/usr/share/gocode) must be one of PACKAGE_PATHS
(data/README.md, tests/realworld/README.md), and data/ holds only the project's
own files, checked like the rest. Runs on the files git tracks, or on every
file when there is no .git (a meson dist tarball). Usage: check_paths.py ROOT
"""
import os, re, subprocess, sys

ROOT = os.path.realpath(sys.argv[1] if len(sys.argv) > 1 else ".")
RELATIVE = re.compile(r"(?<![\w.])((?:\.\./)+)([\w.-]+)")
# meson's project_source_root() over a '..' component, or Python's join() of the
# root and a '..' component: both climb out of the root
SPLIT = re.compile(r"""(?:project_source_root\(\)|ROOT)\s*[/,]\s*['"]\.\.['"]""")
ABSOLUTE = re.compile(r"(?<![\w.~])/(?:work|home|root|Users)/[\w.-]+")
PACKAGE = re.compile(r"(?<![\w.~])/usr/share/gocode(?:/[\w.-]+)*")
PACKAGE_PATHS = (
    "/usr/share/gocode", "/usr/share/gocode/src",    # Debian's Go tree (tests/realworld, msgpack_go)
    # golang-github-valyala-fastjson-dev's documents (data/documents.py)
    "/usr/share/gocode/src/github.com/valyala/fastjson/testdata",
    "/usr/share/gocode/src/github.com/valyala/fastjson/testdata/twitter.json",
    "/usr/share/gocode/src/github.com/valyala/fastjson/testdata/canada.json",
    "/usr/share/gocode/src/github.com/valyala/fastjson/testdata/citm_catalog.json",
)


def files():
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], capture_output=True,
                             check=True).stdout.decode()
        if out:
            return [f for f in out.split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        pass
    found = []
    for d, dirs, names in os.walk(ROOT):
        dirs[:] = [x for x in dirs if not x.startswith((".", "build"))]
        found += [os.path.relpath(os.path.join(d, n), ROOT) for n in names]
    return found


def main():
    bad = []
    for rel in files():
        path = os.path.join(ROOT, rel)
        try:
            text = open(path, encoding="utf-8").read()
        except (UnicodeDecodeError, OSError):
            continue                  # binary files name no paths
        for no, line in enumerate(text.splitlines(), 1):
            for m in RELATIVE.finditer(line):
                target = os.path.normpath(os.path.join(os.path.dirname(path), m.group(1), m.group(2)))
                if not (target + "/").startswith(ROOT + "/"):
                    bad.append("%s:%d: %s leaves the repository" % (rel, no, m.group(0)))
            for m in SPLIT.finditer(line):
                bad.append("%s:%d: %s leaves the repository" % (rel, no, m.group(0)))
            for m in ABSOLUTE.finditer(line):
                bad.append("%s:%d: %s is a path of one machine" % (rel, no, m.group(0)))
            for m in PACKAGE.finditer(line):
                if m.group(0).rstrip(".") not in PACKAGE_PATHS:
                    bad.append("%s:%d: %s is not a documented package location" % (rel, no, m.group(0)))
    for b in bad:
        print(b)
    print("%d files checked, %d paths out of the tree" % (len(files()), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
