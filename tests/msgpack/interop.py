#!/usr/bin/env python3
"""interop.py - tagc's MessagePack against Python's msgpack (python3-msgpack).

For each workload document and its type (run through mp_tool):
  1. Python's msgpack decodes tagc's MessagePack to the same values as Python's
     json gives for tagc's JSON of the same value (Go's encoding/json form):
     timestamps compare as Go's RFC 3339 text, bin as base64, a float 32 as the
     float 32 nearest the JSON number;
  2. tagc decodes what Python's msgpack writes: tagc's output unpacked and packed
     again by Python, and (for documents without times) the JSON document packed
     by Python directly, decode to the same JSON.
Usage: interop.py MP_TOOL   (env: TAGC_DATA_DIR, TAGC_MSGPACK_TEST_DIR)
"""
import base64
import datetime
import json
import math
import os
import random
import struct
import subprocess
import sys

try:
    import msgpack
except ImportError:
    # scripts/setup.sh installs it: a missing package fails the run, not a skip
    print("python3-msgpack missing (apt-get install python3-msgpack, or ./run test)")
    sys.exit(1)

TOOL = sys.argv[1]
DATA = os.environ.get("TAGC_DATA_DIR", "data")
HERE = os.environ.get("TAGC_MSGPACK_TEST_DIR", os.path.dirname(os.path.abspath(__file__)))

# (type, file, the document has no time.Time, keys whose JSON form differs by design)
WORKLOADS = [
    ("user_user", os.path.join(DATA, "seedwork/user.json"), False),
    ("order_order", os.path.join(DATA, "seedwork/order.json"), True),
    ("tree_node", os.path.join(DATA, "seedwork/tree.json"), True),
    ("twitter_search_result", os.path.join(DATA, "bench/twitter.json"), True),
    ("canada_feature_collection", os.path.join(DATA, "bench/canada.json"), True),
    ("citm_catalog", os.path.join(DATA, "bench/citm_catalog.json"), True),
    ("sink_sink", os.path.join(HERE, "sink.json"), False),
]

# sink_sink: the `string` option quotes numbers in JSON only; json_only and
# mp_only/renamed ("r") are on one wire each; raw is re-made from MessagePack.
SINK_JSON_ONLY = {"big", "ratio", "ok", "quoted", "maybe", "json_only", "renamed"}
SINK_MP_ONLY = {"big", "ratio", "ok", "quoted", "maybe", "mp_only", "r"}

failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL:", msg)


def tool(mode, typ, data):
    p = subprocess.run([TOOL, mode, typ], input=data, capture_output=True)
    if p.returncode != 0:
        raise RuntimeError("%s %s: %s" % (mode, typ, p.stderr.decode(errors="replace")))
    return p.stdout


def go_time(ts):
    """A msgpack Timestamp as Go's time.Time.MarshalJSON writes it in UTC."""
    sec, ns = ts.seconds, ts.nanoseconds
    days, rem = divmod(sec, 86400)
    d = datetime.date(1970, 1, 1) + datetime.timedelta(days=days)
    s = "%04d-%02d-%02dT%02d:%02d:%02d" % (d.year, d.month, d.day, rem // 3600, rem // 60 % 60, rem % 60)
    if ns:
        s += "." + ("%09d" % ns).rstrip("0")
    return s + "Z"


def norm(x):
    if isinstance(x, msgpack.Timestamp):
        return go_time(x)
    if isinstance(x, (bytes, bytearray)):
        return base64.b64encode(bytes(x)).decode()
    if isinstance(x, dict):
        return {str(k): norm(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [norm(v) for v in x]
    return x


def f32(x):
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return None


def same(a, b, path="$"):
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b or (fail("%s: %r != %r" % (path, a, b)) and False)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if a == b or (isinstance(a, float) and f32(b) == a) or (isinstance(b, float) and f32(a) == b):
            return True
        # a JSON integer beyond int64/uint64 travels as a float 64 (json.RawMessage)
        if isinstance(a, int) != isinstance(b, int) and float(a) == float(b):
            return True
        fail("%s: %r != %r" % (path, a, b))
        return False
    if type(a) is not type(b):
        fail("%s: %s != %s (%r, %r)" % (path, type(a).__name__, type(b).__name__, a, b))
        return False
    if isinstance(a, dict):
        if set(a) != set(b):
            fail("%s: keys differ: %s" % (path, sorted(set(a) ^ set(b))))
            return False
        return all(same(a[k], b[k], "%s.%s" % (path, k)) for k in a)
    if isinstance(a, list):
        if len(a) != len(b):
            fail("%s: %d != %d elements" % (path, len(a), len(b)))
            return False
        return all(same(x, y, "%s[%d]" % (path, i)) for i, (x, y) in enumerate(zip(a, b)))
    if a != b:
        fail("%s: %r != %r" % (path, a, b))
        return False
    return True


def drop(d, keys):
    return {k: v for k, v in d.items() if k not in keys}


def main():
    for typ, path, no_time in WORKLOADS:
        with open(path, "rb") as f:
            doc = f.read()
        js = json.loads(tool("json2json", typ, doc))
        mp = tool("json2mp", typ, doc)
        # 1. Python reads tagc's MessagePack
        got = norm(msgpack.unpackb(mp, raw=False, strict_map_key=False))
        want = js
        if typ == "sink_sink":
            got = drop(got, SINK_MP_ONLY)
            want = drop(want, SINK_JSON_ONLY)
            # json.RawMessage is a bin of its JSON text (vmihailenco/msgpack's form)
            got["raw"] = json.loads(base64.b64decode(got["raw"]))
            # [N]byte is a bin in MessagePack (as vmihailenco/msgpack writes it) and an
            # array of numbers in JSON (as encoding/json writes it): compared as bytes
            got["hash"] = list(base64.b64decode(got["hash"]))
        ok1 = same(want, got)
        # 2. tagc reads Python's MessagePack: tagc's output unpacked and packed again
        obj = msgpack.unpackb(mp, raw=False, strict_map_key=False)
        repacked = msgpack.packb(obj, use_bin_type=True)
        back = json.loads(tool("mp2json", typ, repacked))
        if typ == "sink_sink":
            ok2 = same(drop(js, {"json_only"}), drop(back, {"json_only"}))
        else:
            ok2 = same(js, back)
        # ... and the JSON document packed by Python (int, float, str, map and array formats of its choice)
        ok3 = True
        if no_time:
            direct = msgpack.packb(json.loads(doc), use_bin_type=True)
            ok3 = same(js, json.loads(tool("mp2json", typ, direct)))
        print("%-28s %s (%d bytes of MessagePack, %d of JSON)" % (typ, "ok" if ok1 and ok2 and ok3 else "FAILED",
                                                                 len(mp), len(doc)))
    # Python's formats at each boundary, read by tagc into sink_scalars
    for v in [0, 127, 128, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**63 - 1, 2**64 - 1,
              -1, -32, -33, -128, -129, -32768, -32769, -2**31, -2**31 - 1, -2**63]:
        key = "u64" if v >= 0 else "i64"
        b = msgpack.packb({key: v, "s": "x" * (v % 70000 if v >= 0 else 40)}, use_bin_type=True)
        back = json.loads(tool("mp2json", "sink_scalars", b))
        if back[key] != v:
            fail("integer %d: %r" % (v, back[key]))
    for n in [0, 31, 32, 255, 256, 65535, 65536]:
        b = msgpack.packb({"blob": b"\x01" * n, "list": list(range(n)), "by_name": {str(i): i for i in range(min(n, 70000))},
                           "scalars": {"s": "y" * n}}, use_bin_type=True)
        back = json.loads(tool("mp2json", "sink_sink", b))
        if base64.b64decode(back["blob"]) != b"\x01" * n or back["list"] != list(range(n)) \
                or len(back["by_name"]) != n or len(back["scalars"]["s"]) != n:
            fail("length %d" % n)
    for sec, ns in [(0, 0), (2**32 - 1, 0), (2**32, 0), (1, 1), (2**34, 5), (-1, 999999999), (-62135596800, 0)]:
        b = msgpack.packb({"when": msgpack.Timestamp(sec, ns)})
        back = json.loads(tool("mp2json", "sink_sink", b))
        if back["when"] != go_time(msgpack.Timestamp(sec, ns)):
            fail("timestamp %d.%09d: %s" % (sec, ns, back["when"]))
    random_values()
    if failures:
        print("%d failures" % failures)
        sys.exit(1)


def random_tree(rng, depth=0):
    """A random JSON-like value, as interface{} holds it (numbers are float64)."""
    kinds = ["null", "bool", "num", "str"] + (["arr", "obj"] if depth < 4 else [])
    k = rng.choice(kinds)
    if k == "null":
        return None
    if k == "bool":
        return rng.random() < 0.5
    if k == "num":
        return rng.choice([0.0, -0.5, 1e300, 5e-324, float(rng.randint(-2**53, 2**53)), rng.uniform(-1e9, 1e9)])
    if k == "str":
        return "".join(rng.choice("ab<>&\"\\\n\u00e9\u2028\U0001F600") for _ in range(rng.randint(0, 12)))
    if k == "arr":
        return [random_tree(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    return {"k%d" % rng.randint(0, 30): random_tree(rng, depth + 1) for _ in range(rng.randint(0, 5))}


SCALAR_RANGES = {"i": (-2**63, 2**63 - 1), "i8": (-128, 127), "i16": (-2**15, 2**15 - 1),
                 "i32": (-2**31, 2**31 - 1), "i64": (-2**63, 2**63 - 1), "u": (0, 2**64 - 1),
                 "u8": (0, 255), "u16": (0, 2**16 - 1), "u32": (0, 2**32 - 1), "u64": (0, 2**64 - 1),
                 "by": (0, 255), "r": (-2**31, 2**31 - 1)}


def random_values(count=300):
    """Random values both ways: Python packs, tagc reads; tagc packs, Python reads."""
    rng = random.Random(7)
    for i in range(count):
        # interface{}: any JSON tree
        tree = random_tree(rng)
        back = json.loads(tool("mp2json", "sink_doc", msgpack.packb(tree, use_bin_type=True)))
        if not same(json.loads(json.dumps(tree)), back, "$doc%d" % i):
            fail("random tree %d" % i)
        mine = msgpack.unpackb(tool("json2mp", "sink_doc", json.dumps(tree).encode()), raw=False)
        if not same(json.loads(json.dumps(tree)), norm(mine), "$doc%d" % i):
            fail("random tree %d from tagc" % i)
        # every integer width at random values of its range, and floats
        sc = {k: rng.randint(lo, hi) for k, (lo, hi) in SCALAR_RANGES.items()}
        sc.update(b=rng.random() < 0.5, f64=rng.uniform(-1e300, 1e300), f32=f32(rng.uniform(-1e30, 1e30)),
                  s="x\u00e9" * rng.randint(0, 40))
        back = json.loads(tool("mp2json", "sink_scalars", msgpack.packb(sc, use_bin_type=True)))
        for k, v in sc.items():
            if k == "f32":
                ok = f32(back[k]) == v
            else:
                ok = back[k] == v
            if not ok:
                fail("random scalars %d: %s %r != %r" % (i, k, back[k], v))
        mine = msgpack.unpackb(tool("json2mp", "sink_scalars", json.dumps(sc).encode()), raw=False)
        for k, v in sc.items():
            if (f32(mine[k]) if k == "f32" else mine[k]) != v:
                fail("random scalars %d from tagc: %s %r != %r" % (i, k, mine[k], v))
    print("random values: %d trees and %d scalar records both ways" % (count, count))


if __name__ == "__main__":
    main()
