#!/usr/bin/env python3
"""Out of memory at every allocation of `tagc validate` and `tagc compat` runs.

Each case runs once to count its allocations and record its output
(failmalloc.so, LD_PRELOAD), then once per allocation N = 1..total with the
Nth failing. A run must either exit 2 with "tagc: out of memory" as the last
line of stderr (any line before it one the normal run printed too: a
rejection reported before memory ran out), or, when the failure had a
fallback, behave exactly as the normal run (same exit, stdout and stderr).
Never an abort, a signal, exit 1 for a valid document, a message that is not
the normal run's, or a file left in the working directory.

Usage: oom_tools.py TAGC FAILMALLOC.so SCHEMA_DIR DATA_DIR [STRIDE]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

tagc, shim, schema_dir, data_dir = sys.argv[1:5]
stride = int(sys.argv[5]) if len(sys.argv) > 5 else 1
OOM = "tagc: out of memory"


def msgpack_of(value):
    """MessagePack of a JSON value (maps, arrays, strings, ints, floats, bools,
    nil), written here so the test needs no msgpack module."""
    if value is None:
        return b"\xc0"
    if value is True:
        return b"\xc3"
    if value is False:
        return b"\xc2"
    if isinstance(value, int):
        return b"\xd3" + value.to_bytes(8, "big", signed=True)
    if isinstance(value, float):
        import struct
        return b"\xcb" + struct.pack(">d", value)
    if isinstance(value, str):
        b = value.encode()
        return b"\xdb" + len(b).to_bytes(4, "big") + b
    if isinstance(value, list):
        return b"\xdd" + len(value).to_bytes(4, "big") + b"".join(msgpack_of(v) for v in value)
    out = b"\xdf" + len(value).to_bytes(4, "big")
    for k, v in value.items():
        out += msgpack_of(k) + msgpack_of(v)
    return out


def setup(work):
    for name in ["order.tagc", "tree.tagc", "kitchen_sink.tagc", "common.tagc"]:
        shutil.copy(os.path.join(schema_dir, name), work)
    for name in ["order.json", "tree.json"]:
        shutil.copy(os.path.join(data_dir, "seedwork", name), work)
    with open(os.path.join(work, "order.json")) as f:
        order = json.load(f)
    compact = json.dumps(order, separators=(",", ":"))
    bad = dict(order)
    bad["customer"] = "customer-7"  # an object expected: a rejection with a path
    with open(os.path.join(work, "bad.json"), "w") as f:
        json.dump(bad, f)
    with open(os.path.join(work, "orders.jsonl"), "w") as f:
        f.write(compact + "\n" + json.dumps(bad) + "\n" + compact + "\n")
    with open(os.path.join(work, "order.msgpack"), "wb") as f:
        f.write(msgpack_of(order))
    extra = dict(order)
    extra["unknown_member"] = [1, {"a": [2]}]
    with open(os.path.join(work, "extra.json"), "w") as f:
        json.dump(extra, f)
    # a new order schema that breaks old readers and writers in both formats
    with open(os.path.join(work, "order.tagc")) as f:
        text = f.read()
    changed = text.replace('`json:"sku"`', '`json:"sku_code"`').replace("Qty      int32", "Qty      string")
    assert changed != text
    with open(os.path.join(work, "order_new.tagc"), "w") as f:
        f.write(changed)


CASES = [
    ["validate", "order.tagc", "Order", "order.json"],
    ["validate", "order.tagc", "Order", "bad.json"],
    ["validate", "--strict", "order.tagc", "Order", "extra.json"],
    ["validate", "--format", "jsonl", "order.tagc", "Order", "orders.jsonl"],
    ["validate", "--format", "msgpack", "order.tagc", "Order", "order.msgpack"],
    ["validate", "tree.tagc", "Node", "tree.json"],
    ["compat", "order.tagc", "order_new.tagc"],
    ["compat", "kitchen_sink.tagc", "kitchen_sink.tagc"],
]


def run(work, args, env_extra):
    env = dict(os.environ, LD_PRELOAD=shim, **env_extra)
    return subprocess.run([tagc] + args, cwd=work, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=120)


def main():
    work = tempfile.mkdtemp(prefix="tagc-oom-tools-")
    failures = []
    try:
        setup(work)
        files = sorted(os.listdir(work))
        count_file = os.path.join(tempfile.gettempdir(), "tagc-oom-count-%d" % os.getpid())
        for args in CASES:
            base = run(work, args, {"TAGC_ALLOC_COUNT": count_file})
            with open(count_file) as f:
                total = int(f.read())
            os.unlink(count_file)
            name = " ".join(args)
            if base.returncode not in (0, 1) or OOM.encode() in base.stderr:
                sys.exit("%s: normal run exit %d: %r" % (name, base.returncode, base.stderr[:300]))
            base_lines = base.stderr.decode(errors="replace").splitlines()
            oom = fallback = 0
            wrong = []
            for n in range(1, total + 1, stride):
                r = run(work, args, {"TAGC_FAIL_ALLOC": str(n)})
                err = r.stderr.decode(errors="replace")
                lines = err.splitlines()
                left = sorted(set(os.listdir(work)) - set(files))
                if left:
                    wrong.append("N=%d: left %s" % (n, left))
                    for x in left:
                        p = os.path.join(work, x)
                        shutil.rmtree(p) if os.path.isdir(p) else os.unlink(p)
                elif (r.returncode == 2 and err.endswith(OOM + "\n")
                      and all(x in base_lines for x in lines[:-1])):
                    oom += 1
                elif (r.returncode == base.returncode and r.stdout == base.stdout
                      and r.stderr == base.stderr):
                    fallback += 1
                else:
                    wrong.append("N=%d: exit %d, stderr %r" % (n, r.returncode, err[-300:]))
            print("%s: %d allocations, stride %d: %d exit 2 out of memory, %d fell back, %d wrong"
                  % (name, total, stride, oom, fallback, len(wrong)))
            for w in wrong[:20]:
                print("  " + w)
            failures += wrong
        sys.exit(1 if failures else 0)
    finally:
        shutil.rmtree(work)


main()
