#!/usr/bin/env python3
"""Out of memory at every allocation of one generation run.

Runs tagc on kitchen_sink.tagc (it imports common.tagc) once to count the
allocations (failmalloc.so, LD_PRELOAD), then once per allocation N = 1..total
with the Nth failing. Each run must either exit 2 with exactly
"tagc: out of memory" on stderr and leave the old .h/.c pair as it was, or
(when the failure had a fallback: no writer thread, say) exit 0 silently with
the new pair. Never an abort, never exit 1, never a temporary file left.

Usage: oom_inject.py TAGC FAILMALLOC.so SCHEMA_DIR [STRIDE]
"""
import os
import shutil
import subprocess
import sys
import tempfile

tagc, shim, schema_dir = sys.argv[1:4]
stride = int(sys.argv[4]) if len(sys.argv) > 4 else 1

OLD_SCHEMA = """package sink

type Sink struct {
\tA int `json:"a"`
}
"""


def run(work, env_extra):
    env = dict(os.environ, LD_PRELOAD=shim, **env_extra)
    return subprocess.run([tagc, "-o", os.path.join(work, "out"), os.path.join(work, "kitchen_sink.tagc")],
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def main():
    work = tempfile.mkdtemp(prefix="tagc-oom-")
    try:
        out = os.path.join(work, "out")
        os.mkdir(out)
        names = ["kitchen_sink.tagc.h", "kitchen_sink.tagc.c"]
        # the old pair, from a different schema of the same name
        with open(os.path.join(work, "kitchen_sink.tagc"), "w") as f:
            f.write(OLD_SCHEMA)
        subprocess.run([tagc, "-o", out, os.path.join(work, "kitchen_sink.tagc")], check=True)
        old = [read(os.path.join(out, n)) for n in names]
        shutil.copy(os.path.join(schema_dir, "kitchen_sink.tagc"), work)
        shutil.copy(os.path.join(schema_dir, "common.tagc"), work)
        # the new pair, and how many allocations making it takes
        newdir = os.path.join(work, "new")
        os.mkdir(newdir)
        subprocess.run([tagc, "-o", newdir, os.path.join(work, "kitchen_sink.tagc")], check=True)
        new = [read(os.path.join(newdir, n)) for n in names]
        count_file = os.path.join(work, "count")
        r = run(work, {"TAGC_ALLOC_COUNT": count_file})
        if r.returncode != 0:
            sys.exit("counting run failed: %d %s" % (r.returncode, r.stderr.decode()))
        total = int(read(count_file))

        def restore():
            for n, data in zip(names, old):
                with open(os.path.join(out, n), "wb") as f:
                    f.write(data)

        restore()
        failures, oom, fallback = [], 0, 0
        for n in range(1, total + 1, stride):
            r = run(work, {"TAGC_FAIL_ALLOC": str(n)})
            files = sorted(os.listdir(out))
            pair = [read(os.path.join(out, x)) for x in names]
            left = [x for x in files if x not in names]
            err = r.stderr.decode(errors="replace")
            if left:
                failures.append("N=%d: left %s (exit %d, stderr %r)" % (n, left, r.returncode, err[:200]))
                for x in left:
                    os.unlink(os.path.join(out, x))
                restore()
            elif r.returncode == 2 and err == "tagc: out of memory\n" and pair == old:
                oom += 1
            elif r.returncode == 0 and err == "" and pair == new:
                fallback += 1
                restore()
            else:
                what = "old" if pair == old else "new" if pair == new else "mismatched"
                failures.append("N=%d: exit %d, %s pair, stderr %r" % (n, r.returncode, what, err[:200]))
                restore()
        print("oom_inject: %d allocations, stride %d: %d exit 2 out of memory, %d fell back and "
              "succeeded, %d wrong" % (total, stride, oom, fallback, len(failures)))
        for f in failures[:40]:
            print("  " + f)
        sys.exit(1 if failures else 0)
    finally:
        shutil.rmtree(work)


main()
