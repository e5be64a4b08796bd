#!/usr/bin/python3
"""Tests of `tagc --emit-json-schema` with an independent validator (python3-jsonschema).

  check_schema.py workloads TAGC SCHEMAS_DIR DATA_DIR OUT_DIR
      emits the schemas of user, order, tree, twitter, canada and citm; the workload
      files must be valid (default and strict variants) and a few broken
      documents must be rejected.
  check_schema.py differential TAGC SCHEMAS_DIR OUT_DIR
      random documents for kitchen_sink.tagc's types, judged by the schema and by
      `tagc validate` (the decoder's rules): the verdicts must agree.
"""
import copy
import json
import os
import random
import subprocess
import sys

try:
    import jsonschema
except ImportError:  # run with Debian's /usr/bin/python3 (python3-jsonschema)
    print("FAILED: python3-jsonschema is not installed (scripts/setup.sh installs it)", file=sys.stderr)
    sys.exit(1)

FAILED = []


def fail(msg):
    FAILED.append(msg)
    print("FAIL:", msg, file=sys.stderr)


def emit(tagc, schema_file, out_dir, strict=True):
    os.makedirs(out_dir, exist_ok=True)
    cmd = [tagc, "--emit-json-schema", out_dir] + (["--strict"] if strict else []) + [schema_file]
    subprocess.run(cmd, check=True)


def validator(path):
    with open(path, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def load_json(path):
    def no_constants(name):
        raise ValueError("not JSON: " + name)
    with open(path, encoding="utf-8") as f:
        return json.load(f, parse_constant=no_constants)


# MARK: - Workloads

WORKLOADS = [
    ("user", "User", "seedwork/user.json"),
    ("order", "Order", "seedwork/order.json"),
    ("tree", "Node", "seedwork/tree.json"),
    ("twitter", "SearchResult", "bench/twitter.json"),
    ("canada", "FeatureCollection", "bench/canada.json"),
    ("citm", "Catalog", "bench/citm_catalog.json"),
]


def expect(v, doc, valid, what):
    errors = list(v.iter_errors(doc))
    if valid and errors:
        fail("%s: rejected: %s at %s" % (what, errors[0].message[:200], errors[0].json_path))
    elif not valid and not errors:
        fail("%s: accepted" % what)


def shapes_only(doc):
    """doc with each array of more than 16 elements cut to the first element of each
    distinct shape (the keys and value types under it, recursively): the validator judges
    every shape the document has, once (python3-jsonschema took 80 s on the whole of
    canada's 111 000 coordinate pairs, one shape). Short arrays stay whole: a Go array's
    length is in its schema."""
    def cut(v):
        if isinstance(v, dict):
            items = {k: cut(x) for k, x in v.items()}
            return {k: x for k, (x, _) in items.items()}, \
                ("o",) + tuple(sorted((k, sh) for k, (_, sh) in items.items()))
        if isinstance(v, list):
            kept, seen = [], []
            for x in v:
                x, sh = cut(x)
                if sh not in seen or len(v) <= 16:
                    seen.append(sh)
                    kept.append(x)
            return kept, ("a",) + tuple(sorted(seen, key=repr))
        return v, type(v).__name__
    return cut(doc)[0]


def workloads(tagc, schemas, data, out):
    docs = {}
    for name, typ, rel in WORKLOADS:
        d = os.path.join(out, name)
        emit(tagc, os.path.join(schemas, name + ".tagc"), d)
        doc = load_json(os.path.join(data, rel))
        docs[name] = doc
        for variant in ("schema", "strict.schema"):
            v = validator(os.path.join(d, "%s.%s.json" % (typ, variant)))
            expect(v, shapes_only(doc), True, "%s %s.%s" % (rel, typ, variant))

    order = validator(os.path.join(out, "order", "Order.schema.json"))
    strict_order = validator(os.path.join(out, "order", "Order.strict.schema.json"))
    user = validator(os.path.join(out, "user", "User.schema.json"))
    node = validator(os.path.join(out, "tree", "Node.schema.json"))
    o = docs["order"]

    def changed(doc, path, value):
        doc = copy.deepcopy(doc)
        at = doc
        for k in path[:-1]:
            at = at[k]
        if value is KeyError:
            del at[path[-1]]
        else:
            at[path[-1]] = value
        return doc

    # rejected: wrong types, out-of-range integers, bad times
    expect(order, changed(o, ["id"], "12"), False, "order: id as a string")
    expect(order, changed(o, ["attempts"], 2**31), False, "order: attempts beyond int32")
    expect(order, changed(o, ["attempts"], -2**31 - 1), False, "order: attempts below int32")
    expect(order, changed(o, ["id"], 2**63), False, "order: id beyond int64")
    expect(order, changed(o, ["id"], 1.5), False, "order: fractional id")
    expect(order, changed(o, ["status"], 3), False, "order: status (an open enum) as a number")
    expect(order, changed(o, ["items"], {"sku": "x"}), False, "order: items as an object")
    expect(order, changed(o, ["items", 0, "qty"], "2"), False, "order: qty as a string")
    expect(order, changed(o, ["customer", "vip"], 1), False, "order: vip as a number")
    expect(order, changed(o, ["Customer"], {"vip": "yes"}), False,
           "order: a case-insensitive key with a wrong value")
    expect(order, changed(o, ["total"], "9.5"), False, "order: total as a string")
    expect(user, changed(docs["user"], ["meta", "created_at"], "yesterday"), False,
           "user: created_at not RFC 3339")
    expect(user, changed(docs["user"], ["roles"], ["a", 1]), False, "user: a number in roles")
    expect(node, changed(docs["tree"], ["children"], [{"id": "1"}]), False, "tree: child id as a string")
    expect(order, [o], False, "order: an array at the top")
    expect(order, "order", False, "order: a string at the top")

    # accepted, as Go accepts them
    expect(order, changed(o, ["status"], "lost"), True, "order: status no constant names (an open enum)")
    expect(order, changed(o, ["status"], "PAID"), True, "order: status in another case (an open enum)")
    expect(order, changed(o, ["status"], ""), True, "order: status \"\" (the zero value)")
    expect(order, changed(o, ["status"], None), True, "order: status null")
    expect(order, changed(o, ["id"], None), True, "order: id null (left unchanged)")
    expect(order, changed(o, ["ID"], 7), True, "order: ID matched case-insensitively")
    expect(order, changed(o, ["unknown"], [1, {"x": None}]), True, "order: an unknown key")
    expect(order, changed(o, ["attempts"], -2**31), True, "order: attempts at the int32 minimum")
    expect(order, changed(o, ["id"], 2**63 - 1), True, "order: id at the int64 maximum")
    expect(order, None, True, "order: null at the top")

    # strict mode: unknown keys and missing fields without omitempty
    expect(strict_order, changed(o, ["unknown"], 1), False, "strict order: an unknown key")
    expect(strict_order, changed(o, ["notes"], KeyError), False, "strict order: notes missing")
    expect(strict_order, changed(changed(o, ["notes"], KeyError), ["NOTES"], "x"), True,
           "strict order: notes given as NOTES")
    expect(strict_order, changed(o, ["ID"], 7), True, "strict order: ID (case-insensitive)")


# MARK: - Differential: schema versus the decoder's rules (tagc validate)

INTS = [0, 1, -1, 7, 127, 128, -128, -129, 255, 256, 32767, 32768, -32769, 65535, 65536,
        2**31 - 1, 2**31, -2**31, -2**31 - 1, 2**32 - 1, 2**32, 2**63 - 1, 2**63, -2**63,
        -2**63 - 1, 2**64 - 1, 2**64, 10, 11, 12, 13]
FLOATS = [0.5, -1.25, 1e-7, 3.5e38, 3.4e38, -3.5e38, 1.7976931348623157e308, 6.02e23]
STRINGS = ["", "x", "red", "blue", "RED", "pending", "123", "-0", "007", "+5", "-5", "null",
           "\"x\"", "\"red\"", "\"\"", "\"a\\u0041\"", "\"re\\u0064\"", "\"bl\\u006Ue\"",
           "\"bl\\u006Ce\"", "\"\\u0072ed\"", "\"red\\/\"", "true", "false", "1.5", "1e3", "-1.5e-3",
           "12 ", "AAAA", "AA==", "AAA=", "A===", "AA=", "AA\nAA", "AB==\n", "QUJD", "YQ",
           "2024-01-15T10:30:00Z", "2024-01-15T1:30:00Z", "2024-01-15T10:30:.5Z",
           "2024-01-15T10:30:00,123+01:00", "2024-13-15T10:30:00Z", "2024-01-15 10:30:00Z",
           "2024-01-15T10:30:00", "2024-01-15T10:30:00+24:00", "2024-01-15T10:30:00-25:00",
           "2024-01-15T10:30:00+01:60", "2024-01-15T10:30:00+01:61", "9223372036854775807", "9223372036854775808",
           "-9223372036854775808", "255", "256", "18446744073709551615", "18446744073709551616",
           "-129", "-128", "1", "0", "11", "12", "13", "2", "4", "8", "00", "-00", "+0"]


def pick_scalar(rng):
    r = rng.random()
    if r < 0.1:
        return None
    if r < 0.2:
        return rng.choice([True, False])
    if r < 0.45:
        return rng.choice(INTS)
    if r < 0.55:
        return rng.choice(FLOATS)
    return rng.choice(STRINGS)


class Gen:
    def __init__(self, root, rng):
        self.root = root
        self.rng = rng

    def resolve(self, s):
        while "$ref" in s:
            at = self.root
            for part in s["$ref"][2:].split("/"):
                at = at[part.replace("~1", "/").replace("~0", "~")]
            s = at
        return s

    def value(self, s, depth=0):
        rng = self.rng
        s = self.resolve(s)
        if rng.random() < 0.08 or depth > 6:
            return pick_scalar(rng) if rng.random() < 0.7 else rng.choice([[], {}, [1], {"a": 1}])
        if "enum" in s:
            return rng.choice(s["enum"])
        if "anyOf" in s:
            return self.value(rng.choice(s["anyOf"]), depth)
        types = s.get("type", ["string", "number", "object", "array", "null", "boolean"])
        if isinstance(types, str):
            types = [types]
        t = rng.choice(types)
        if t == "null":
            return None
        if t == "boolean":
            return rng.choice([True, False])
        if t == "integer":
            return rng.choice(INTS)
        if t == "number":
            return rng.choice(FLOATS + [1, -3, 0])
        if t == "string":
            return rng.choice(STRINGS)
        if t == "array":
            items = s.get("items", {})
            return [self.value(items, depth + 1) for _ in range(rng.randrange(0, 4))]
        if t == "object":
            out = {}
            props = s.get("properties", {})
            names = list(props)
            rng.shuffle(names)
            for k in names:
                if rng.random() < 0.75:
                    key = k
                    if rng.random() < 0.1:  # another case, or Go's special folds
                        key = "".join(c.upper() if rng.random() < 0.5 else c for c in k)
                        key = key.replace("k", rng.choice(["k", "\u212a"])).replace(
                            "s", rng.choice(["s", "\u017f"]))
                    out[key] = self.value(props[k], depth + 1)
            if "additionalProperties" in s and isinstance(s["additionalProperties"], dict):
                keys = ["a", "b", "1", "-1", "+1", "007", "x", "", "red", "RED", "255", "256",
                        "-128", "-129", "9223372036854775808", "2", "11", "13", "-0", "+0"]
                for _ in range(rng.randrange(0, 4)):
                    out[rng.choice(keys)] = self.value(s["additionalProperties"], depth + 1)
            if rng.random() < 0.1:
                out["unknown_key"] = pick_scalar(rng)
            return out
        return pick_scalar(rng)


def rejected_lines(tagc, schema_file, typ, path, strict):
    cmd = [tagc, "validate", "--format", "jsonl"] + (["--strict"] if strict else []) + \
        [schema_file, typ, path]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        raise RuntimeError("tagc validate: status %d: %s" % (p.returncode, p.stderr))
    bad = set()
    prefix = path + ":"
    for line in p.stderr.splitlines():
        if line.startswith(prefix) and ": error: " in line:
            bad.add(int(line[len(prefix):].split(":")[0]))
    return bad


def differential(tagc, schemas, out, count):
    probe = subprocess.run([tagc, "validate", "--help"], capture_output=True)
    if probe.returncode != 0:
        print("FAILED: `tagc validate --help` exited %d" % probe.returncode, file=sys.stderr)
        sys.exit(1)
    rng = random.Random(20240615)
    here = os.path.dirname(os.path.abspath(__file__))
    cases = [(os.path.join(schemas, "kitchen_sink.tagc"), ("Sink", "Scalars", "Node")),
             (os.path.join(here, "edge.tagc"), ("Quoted", "Folds"))]
    for schema_file, types in cases:
        d = os.path.join(out, os.path.basename(schema_file)[:-5])
        emit(tagc, schema_file, d)
        for typ in types:
            for strict in (False, True):
                differ(tagc, schema_file, d, typ, strict, rng, count)


def differ(tagc, schema_file, d, typ, strict, rng, count):
    path = os.path.join(d, "%s.%s.json" % (typ, "strict.schema" if strict else "schema"))
    with open(path, encoding="utf-8") as f:
        root = json.load(f)
    v = jsonschema.Draft202012Validator(root)
    gen = Gen(root, rng)
    docs = [gen.value(root) for _ in range(count)]
    data = os.path.join(d, "%s%s.jsonl" % (typ, ".strict" if strict else ""))
    with open(data, "w", encoding="utf-8") as f:
        for doc in docs:
            f.write(json.dumps(doc, ensure_ascii=False) + "\n")
    bad = rejected_lines(tagc, schema_file, typ, data, strict)
    mismatches = 0
    for i, doc in enumerate(docs, 1):
        by_schema = v.is_valid(doc)
        by_decoder = i not in bad
        if by_schema != by_decoder:
            mismatches += 1
            if mismatches <= 5:
                fail("%s%s line %d: schema says %s, decoder says %s: %s" % (
                    typ, " (strict)" if strict else "", i,
                    "valid" if by_schema else "invalid",
                    "valid" if by_decoder else "invalid",
                    json.dumps(doc, ensure_ascii=False)[:400]))
    print("%s%s: %d documents, %d rejected by the decoder, %d mismatches" % (
        typ, " (strict)" if strict else "", len(docs), len(bad), mismatches))


def main():
    mode = sys.argv[1]
    if mode == "workloads":
        workloads(*sys.argv[2:6])
    elif mode == "differential":
        differential(sys.argv[2], sys.argv[3], sys.argv[4], int(os.environ.get("DOCS", "2000")))
    else:
        sys.exit("unknown mode " + mode)
    if FAILED:
        print("%d failure(s)" % len(FAILED), file=sys.stderr)
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
