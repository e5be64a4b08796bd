#!/usr/bin/env python3
"""bench/run.py - build the benchmarks, run them, count instructions, write the report.

    python3 bench/run.py [--build DIR] [--quick] [--no-callgrind] [--no-docs]
                         [--jobs N] [-- BENCH ARGS...]

1. builds DIR (default build-release; `meson setup --buildtype=release -Dbench=true`
   when it does not exist yet) with ninja;
2. runs DIR/bench/bench, which checks that every contender agrees and then
   times them (exit status 1 when they disagree: nothing is reported then);
3. runs every contender/workload/direction once more under
   `valgrind --tool=callgrind` in the binary's --callgrind mode (a fixed number
   of operations between CALLGRIND_TOGGLE_COLLECT marks) and divides callgrind's
   total instruction count by that number;
4. prints the Markdown table and writes docs/bench.md and docs/bench.svg
   (bench/plot.py).

--quick: short timings, no callgrind, and docs/ is left alone (unless --docs).
Extra arguments after the known ones (e.g. --workload user,order) go to bench.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import plot  # noqa: E402

CONTENDERS = ["tagc", "tagc-fast", "cJSON", "jansson", "json-c", "simdjson-ondemand", "simdjson-dom"]
# "× best peer": the fastest of these (every contender but tagc) on the same row
PEERS = ["cJSON", "jansson", "json-c", "simdjson-ondemand", "simdjson-dom"]


def log(msg):
    print("run.py: " + msg, file=sys.stderr, flush=True)


def build(build_dir):
    if not os.path.isdir(os.path.join(build_dir, "meson-private")):
        subprocess.run(["meson", "setup", build_dir, ROOT, "--buildtype=release", "-Dbench=true"],
                       check=True)
    subprocess.run(["ninja", "-C", build_dir, "bench/bench"], check=True, stdout=sys.stderr)


def orders_jsonl(build_dir, n=130000):
    """The orders stream: gen.py's n orders, made once into the build directory."""
    path = os.path.join(build_dir, "bench", "orders-%d.jsonl" % n)
    if not os.path.exists(path):
        data = os.environ.get("TAGC_BENCH_DATA", os.path.join(ROOT, "data"))
        log("generating %d orders into %s ..." % (n, path))
        with open(path + ".tmp", "w") as f:
            subprocess.run([sys.executable, os.path.join(data, "seedwork", "gen.py"), "jsonl", str(n)],
                           stdout=f, check=True)
        os.replace(path + ".tmp", path)
    return path


def callgrind_ops(nbytes):
    """Operations per callgrind run: about 2 MB of documents, 1 to 1000."""
    return max(1, min(1000, round(2_000_000 / max(nbytes, 1))))


def callgrind_one(exe, row):
    n = callgrind_ops(row["bytes"])
    with tempfile.TemporaryDirectory(prefix="tagc-cg-") as tmp:
        out = os.path.join(tmp, "callgrind.out")
        cmd = ["valgrind", "--tool=callgrind", "--collect-atstart=no",
               "--callgrind-out-file=" + out, exe, "--callgrind",
               row["contender"], row["workload"], row.get("cg_direction", row["direction"]), str(n)]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0 or not os.path.exists(out):
            log("callgrind failed: " + " ".join(map(shlex.quote, cmd)) + "\n" + proc.stderr[-2000:])
            return None
        total = None
        with open(out) as f:
            for line in f:
                m = re.match(r"(totals|summary):\s+(\d+)", line)
                if m:
                    total = int(m.group(2))
        return None if total is None else total / n


def fmt_us(sec):
    us = sec * 1e6
    if us < 10:
        return "%.3f" % us
    if us < 100:
        return "%.2f" % us
    if us < 1000:
        return "%.1f" % us
    return "%.0f" % us


def fmt_count(x):
    if x is None:
        return "—"
    for div, suf in ((1e9, " G"), (1e6, " M"), (1e3, " k"), (1, "")):
        if x >= div or div == 1:
            v = x / div
            return ("%.0f" if v >= 99.95 else "%.1f" if v >= 9.995 else "%.2f") % v + suf


def fmt_allocs(x):
    return "%d" % x if x == int(x) else "%.1f" % x


def best_peers(rows):
    """(workload, direction) -> the fastest peer's sec_per_op."""
    best = {}
    for r in rows:
        if r["contender"] in PEERS:
            k = (r["workload"], r["direction"])
            best[k] = min(best.get(k, r["sec_per_op"]), r["sec_per_op"])
    return best


def min_row(r, by_row):
    """The same contender's row on the minified copy of an indented one, or None."""
    name = r["workload"]
    for suffix in ("-indent2", "-tab"):
        if name.endswith(suffix):
            return by_row.get((name[: -len(suffix)] + "-min", r["direction"], r["contender"]))
    return None


def vs_min(r, by_row):
    """An indented copy's time against the same contender's on the minified copy."""
    m = min_row(r, by_row)
    return "%+.0f %%" % (100.0 * (r["sec_per_op"] / m["sec_per_op"] - 1)) if m else "—"


def per_added_byte(r, by_row):
    """The same difference in ns per byte the indented copy adds: what whitespace costs."""
    m = min_row(r, by_row)
    if not m or r["bytes"] <= m["bytes"]:
        return "—"
    return "%.3f" % ((r["sec_per_op"] - m["sec_per_op"]) * 1e9 / (r["bytes"] - m["bytes"]))


def table(data):
    rows = data["results"]
    base = {(r["workload"], r["direction"]): r for r in rows if r["contender"] == "cJSON"}
    best = best_peers(rows)
    have_instr = any(r.get("instr_per_op") for r in rows)
    by_row = {(r["workload"], r["direction"], r["contender"]): r for r in rows}
    head = "| workload | direction | contender | µs/op | MB/s | vs cJSON | × best peer | time vs -min | ns/added B | allocs/op |"
    sep = "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    if have_instr:
        head += " instr/op | instr vs cJSON |"
        sep += " ---: | ---: |"
    out = [head, sep]
    for r in rows:
        b = base.get((r["workload"], r["direction"]))
        ratio = "%.2f×" % (b["sec_per_op"] / r["sec_per_op"]) if b else "—"
        bp = best.get((r["workload"], r["direction"]))
        vbest = "%.2f×" % (bp / r["sec_per_op"]) if bp else "—"
        line = "| %s (%d B) | %s | %s | %s | %.1f | %s | %s | %s | %s | %s |" % (
            r["workload"], r["bytes"], r["direction"], r["contender"], fmt_us(r["sec_per_op"]),
            r["bytes"] / r["sec_per_op"] / 1e6, ratio, vbest, vs_min(r, by_row),
            per_added_byte(r, by_row), fmt_allocs(r["allocs_per_op"]))
        if have_instr:
            ir = r.get("instr_per_op")
            bir = b.get("instr_per_op") if b else None
            line += " %s | %s |" % (fmt_count(ir), "%.2f×" % (bir / ir) if ir and bir else "—")
        out.append(line)
    return "\n".join(out)


def msgpack_table(data):
    """The MessagePack rows: tagc against msgpack-c."""
    rows = data.get("msgpack_results", [])
    base = {(r["workload"], r["direction"]): r for r in rows if r["contender"] == "msgpack-c"}
    have_instr = any(r.get("instr_per_op") for r in rows)
    head = "| workload | direction | contender | µs/op | MB/s | vs msgpack-c | allocs/op |"
    sep = "| --- | --- | --- | ---: | ---: | ---: | ---: |"
    if have_instr:
        head += " instr/op | instr vs msgpack-c |"
        sep += " ---: | ---: |"
    out = [head, sep]
    for r in rows:
        b = base.get((r["workload"], r["direction"]))
        ratio = "%.2f×" % (b["sec_per_op"] / r["sec_per_op"]) if b else "—"
        line = "| %s (%d B) | %s | %s | %s | %.1f | %s | %s |" % (
            r["workload"], r["bytes"], r["direction"], r["contender"], fmt_us(r["sec_per_op"]),
            r["bytes"] / r["sec_per_op"] / 1e6, ratio, fmt_allocs(r["allocs_per_op"]))
        if have_instr:
            ir = r.get("instr_per_op")
            bir = b.get("instr_per_op") if b else None
            line += " %s | %s |" % (fmt_count(ir), "%.2f×" % (bir / ir) if ir and bir else "—")
        out.append(line)
    return "\n".join(out)


def msgpack_checks_table(data):
    out = ["| workload | contender | decode: value vs tagc's | encode: bytes vs tagc's |",
           "| --- | --- | --- | --- |"]
    for c in data.get("msgpack_checks", []):
        out.append("| %s | %s | %s | %s |" % (c["workload"], c["contender"], c["decode"], c["encode"]))
    return "\n".join(out)


def msgpack_docs(data):
    if not data.get("msgpack_results"):
        return ""
    return f"""
## MessagePack

tagc's generated `<type>_encode_msgpack` / `<type>_decode_msgpack` against a hand-written
msgpack-c mapping of the same structs (bench/m_msgpackc.c): encoding with a `msgpack_packer`
whose write callback appends to the reused output buffer (`msgpack_pack_map`,
`msgpack_pack_str_with_body` for each key, `msgpack_pack_int64` / `_double` / `_timestamp` …);
decoding with `msgpack_unpack` into a reused `msgpack_zone` (cleared between operations), then a
walk of the `msgpack_object` tree that matches keys by length and bytes, checks types and copies
strings and slices into the same `tagc_arena` tagc decodes into. The input document of each
workload is tagc's MessagePack of the value tagc decoded from the JSON workload; MB/s counts its
bytes. Before timing, msgpack-c's bytes must equal tagc's and both decoded values must be
`_equal` to the reference value.

{msgpack_table(data)}

Checks:

{msgpack_checks_table(data)}
"""


def documents_table(data):
    """Each workload's file, size and POSIX cksum (data/README.md says where each comes
    from): figures from two machines compare only when these are equal."""
    out = ["| workload | file | bytes | cksum |", "| --- | --- | ---: | ---: |"]
    for d in data.get("documents", []):
        out.append("| %s | %s | %d | %d |" % (d["workload"], d["file"], d["bytes"], d["cksum"]))
    return "\n".join(out)


def checks_table(data):
    out = ["| workload | contender | decode: value vs tagc's | encode: document vs input |",
           "| --- | --- | --- | --- |"]
    for c in data["checks"]:
        out.append("| %s | %s | %s | %s |" % (c["workload"], c["contender"], c["decode"], c["encode"]))
    return "\n".join(out)


def streams_table(data):
    """The stream rows (bench/stream_bench.c): one line per stream and contender."""
    rows = data.get("streams") or []
    if not rows:
        return ""
    out = ["| stream | contender | records | wall s | MB/s | CPU s | MB/s of CPU | vs 1 worker "
           "| CPU vs stream | vs cJSON | peak RSS |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    by = {(r["stream"], r["contender"]): r for r in rows}
    for r in rows:
        mb = r["bytes"] / 1e6
        one = by.get((r["stream"], "tagc parallel, 1 worker"))
        st = by.get((r["stream"], "tagc stream"))
        cj = by.get((r["stream"], "cJSON lines"))
        vs1 = "%.2f×" % (one["wall_sec"] / r["wall_sec"]) if one and "parallel" in r["contender"] else "—"
        out.append("| %s (%.1f MB%s) | %s | %d | %.3f | %.0f | %.3f | %.0f | %s | %s | %s | %.1f MiB |" % (
            r["stream"], mb, ", file read %d times" % r["passes"] if r["passes"] > 1 else "",
            r["contender"], r["records"], r["wall_sec"], mb / r["wall_sec"], r["cpu_sec"],
            mb / r["cpu_sec"], vs1, "%.2f" % (r["cpu_sec"] / st["cpu_sec"]) if st else "—",
            "%.2f×" % (cj["cpu_sec"] / r["cpu_sec"]) if cj else "—", r["peak_rss_kb"] / 1024))
    return "\n".join(out)


STREAM_TEXT = """## Streams

JSON Lines decoded record by record into the generated structs (bench/stream_bench.c):
`listings.ndjson` (792 product listings of `gen.py listings`, schemas/amazon.tagc: each line
a `[]any`; the 0.24 MB file is read 200 times over) and 130000 orders of `gen.py`
(schemas/order.tagc, about 200 MB, generated at bench time, not committed). Every row reads the file with read(2) through tagc's
stream reader: **tagc stream** decodes each record as it is returned (one thread), **tagc
parallel** is `tagc_jsonl_decode_parallel` on 1 and 2 worker threads (records still handed
over in input order), **cJSON lines** parses each line with `cJSON_ParseWithLength` and maps
it to the same struct (bench/mappings.h). Each run is a fresh process: wall time, CPU time of
all its threads from wait4, peak RSS from its VmHWM; best of the runs. "vs 1 worker" is the
speed-up in wall time (it needs idle cores to show), "CPU vs stream" the CPU cost relative
to the single-thread stream, "vs cJSON" cJSON's CPU time / this row's. Before timing, every
record is decoded by every contender and compared (`_equal`).

"""


def write_docs(data, command, path):
    reps, min_time = data["reps"], data["min_time"]
    text = f"""# Benchmarks

Generated by `{command}` (bench/run.py); do not edit by hand.

**Machine:** {data["machine"]}

**Method.** Each contender maps the same JSON document to and from the same C struct, the one
tagc generates from `schemas/<workload>.tagc`: tagc's generated code (default options, i.e.
Go-exact output; and `tagc-fast`, encoding with `no_html_escape` and `unsorted_maps`), and
hand-written mappings over cJSON (the baseline), jansson, json-c and simdjson (On-Demand and DOM,
decode only: simdjson has no encoder; its run-time kernel is in the machine line)
(bench/mappings.h). A
contender's decode parses the document, copies every field into the struct (strings, slices and
structs into a `tagc_arena`, as tagc's decoder does) and frees its DOM; its encode builds the DOM
from the struct, serialises it compactly into a reused buffer and frees the DOM. The arena and
the output buffer are reset, not freed, between operations, for every contender.

Before any timing, every contender's decoded value is compared with tagc's using the generated
`_equal` functions, and every encoded document is parsed and compared with the input
(`cJSON_Compare`); `bench` exits 1 when any contender disagrees.

Rows `W-min`, `W-indent2`, `W-tab` (decode only): the document as Go's `json.Marshal` writes the
value (when the file is not exactly that) and its `json.MarshalIndent` copies with two spaces and
with a tab, made at bench time (bench.c `go_indent`, Go's `json.Indent`); every contender's value
from each is checked like the file's.

- **µs/op**: CPU time (`CLOCK_PROCESS_CPUTIME_ID`) per operation, the median of {reps} runs of at
  least {min_time:g} s each, contenders and a document's copies interleaved in one process
  (rotating who goes first).
- **MB/s**: input document bytes (the same for both directions) per second.
- **vs cJSON**: cJSON's time / this contender's time: higher is faster.
- **× best peer**: the fastest other library's time on the row (cJSON, jansson, json-c,
  simdjson On-Demand or DOM) / this contender's time.
- **time vs -min**: an indented copy's time against the same contender's time on the `-min`
  copy; a document's copies are timed interleaved too (one round runs every copy with every
  contender), so these come from the same moments of the machine.
- **ns/added B**: the same difference in absolute terms, divided by the bytes of whitespace the
  indented copy adds: what a byte of indent costs the contender, comparable across contenders
  (a ratio to -min is smaller for a contender whose -min time is larger).
- **allocs/op**: calls of `malloc`, `calloc` and `realloc` per operation, counted by wrappers the
  bench binary defines over glibc's `__libc_malloc` & co (bench/alloc_count.c), after warm-up.
- **instr/op**: instructions per operation from `valgrind --tool=callgrind`, collected only around
  a fixed number of operations (`bench --callgrind`); they do not move with the machine's load.

## Results

{table(data)}

![speed relative to cJSON (JSON) and msgpack-c (MessagePack)](bench.svg)
{msgpack_docs(data)}
## Documents

The files of the build's data folder (data/README.md), with `cksum`'s checksum: figures from
two machines compare only when these are equal.

{documents_table(data)}

## Checks

{checks_table(data)}

{STREAM_TEXT + streams_table(data) if data.get("streams") else ""}

Notes: cJSON keeps numbers as doubles, so int64 values above 2^53 (tree's `val`, twitter's ids)
come out rounded when it decodes; the check then compares with tagc's value rounded the same way.
cJSON prints a double with 15 significant digits whenever that reads back within its own
tolerance, so some floats it writes are 1 ulp off ("NOT exact"): the documents still compare equal
as cJSON trees. The hand-written cJSON mapping writes integers of 16 digits or more with
`cJSON_CreateRaw`, or they would come out in exponent form.
"""
    with open(path, "w") as f:
        f.write(text)


def go_package_row(tagc, pkg_dir, runs):
    """The optional row of --go-package DIR: `tagc --check DIR` on a Go package checked out
    beforehand (such as go-github's github/; nothing is fetched at bench time). Its exit status
    is not asked for: a real package may have types tagc rejects (with their errors)."""
    import resource
    import statistics
    import time
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run([tagc, "--check", pkg_dir], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        walls.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    nfiles = len([f for f in os.listdir(pkg_dir) if f.endswith(".go") and not f.endswith("_test.go")])
    label = "tagc --check %s (Go package, %d .go files)" % (os.path.basename(os.path.normpath(pkg_dir)), nfiles)
    return (label, statistics.median(walls), statistics.median(cpus), None, 0)


def compiler_report(build_dir, runs=7, callgrind=True, go_package=None):
    """## Compiler: tagc's own time on the generated 2000-type schema (scripts/gen_big_schema.py,
    the input of tests/diagnostics' big_schema test): `--check`, and the normal command line (the
    .h and .c, JSON and MessagePack) into an empty directory; wall and CPU time (user + sys) as the
    median of `runs` runs, and callgrind's instruction count (one run)."""
    import resource
    import statistics
    import time
    subprocess.run(["ninja", "-C", build_dir, "compiler/tagc"], check=True, stdout=sys.stderr)
    callgrind = callgrind and shutil.which("valgrind") is not None
    tagc = os.path.join(build_dir, "compiler", "tagc")
    rows = []
    with tempfile.TemporaryDirectory(prefix="tagc-compiler-") as tmp:
        schema = os.path.join(tmp, "big.tagc")
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen_big_schema.py"),
                        "-n", "2000", "-o", schema], check=True)
        out = os.path.join(tmp, "out")
        for label, args in (("tagc --check big.tagc", ["--check", schema]),
                            ("tagc -o out big.tagc (.h + .c, JSON + MessagePack)",
                             ["-o", out, schema])):
            walls, cpus = [], []
            for _ in range(runs):
                shutil.rmtree(out, ignore_errors=True)
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                t0 = time.perf_counter()
                subprocess.run([tagc] + args, check=True)
                walls.append(time.perf_counter() - t0)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            outsize = sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out)) \
                if os.path.isdir(out) else 0
            instr = None
            if callgrind:
                shutil.rmtree(out, ignore_errors=True)
                cg = os.path.join(tmp, "callgrind.out")
                proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + cg,
                                       tagc] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                if proc.returncode == 0 and os.path.exists(cg):
                    with open(cg) as f:
                        for line in f:
                            m = re.match(r"(totals|summary):\s+(\d+)", line)
                            if m:
                                instr = int(m.group(2))
            rows.append((label, statistics.median(walls), statistics.median(cpus), instr, outsize))
        size = os.path.getsize(schema)
    if go_package:
        rows.append(go_package_row(tagc, go_package, runs))
    lines = ["## Compiler", "",
             "tagc on the generated schema of 2000 struct types (`scripts/gen_big_schema.py`, "
             "%.1f MB), release build; median of %d runs (wall clock, and CPU = user + sys), "
             "instructions from one run under callgrind. Target: under 0.5 s." % (size / 1e6, runs),
             "", "| command | wall s | CPU s | instructions | output |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for label, wall, cpu, instr, outsize in rows:
        lines.append("| `%s` | %.3f | %.3f | %s | %s |" % (
            label, wall, cpu, fmt_count(instr),
            "%.1f MB" % (outsize / 1e6) if outsize else "—"))
    return "\n".join(lines) + "\n"


def text_size(path):
    """The .text section of an ELF file, in bytes (size -A), or None."""
    if not os.path.exists(path) or shutil.which("size") is None:
        return None
    out = subprocess.run(["size", "-A", path], stdout=subprocess.PIPE, text=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 2 and f[0] == ".text":
            return int(f[1])
    return None


def size_report(build_dir):
    """## Size: libtagc's .text in this (release) build, next to the other libraries'."""
    rows = [("libtagc (this build, %s)" % os.path.relpath(build_dir, ROOT),
             text_size(os.path.join(build_dir, "runtime", "libtagc.so")))]
    libdir = "/usr/lib/x86_64-linux-gnu"
    for name, soname in (("cJSON", "libcjson.so.1"), ("jansson", "libjansson.so.4"),
                         ("json-c", "libjson-c.so.5"), ("msgpack-c", "libmsgpackc.so.2"),
                         ("simdjson", "libsimdjson.so.14")):
        rows.append((name + " (Debian, " + soname + ")", text_size(os.path.join(libdir, soname))))
    lines = ["## Size", "", "The `.text` section of each library (`size -A`), in bytes. A size-optimised "
             "build of libtagc (`-Doptimization=s`) is smaller still (docs/performance.md).", "",
             "| library | .text |", "| --- | ---: |"]
    for name, n in rows:
        if n is not None:
            lines.append("| %s | %d (%.1f KB) |" % (name, n, n / 1000))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build-release"))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--callgrind", action="store_true", help="count instructions even with --quick")
    ap.add_argument("--no-docs", action="store_true")
    ap.add_argument("--docs", action="store_true", help="write docs/ even with --quick")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--compiler-only", action="store_true", help="only the Compiler section")
    ap.add_argument("--go-package", metavar="DIR",
                    help="also time `tagc --check DIR` on a Go package checked out beforehand "
                         "(e.g. go-github's github/); optional, nothing is fetched")
    args, rest = ap.parse_known_args()
    if rest[:1] == ["--"]:
        rest = rest[1:]
    shown = [a for i, a in enumerate(sys.argv[1:]) if a != "--build" and
             not a.startswith("--build=") and (i == 0 or sys.argv[i] != "--build")]
    command = " ".join(["./run bench"] + shown)

    want_cg = (not args.quick or args.callgrind) and not args.no_callgrind
    if args.compiler_only:
        if not os.path.isdir(os.path.join(args.build, "meson-private")):
            subprocess.run(["meson", "setup", args.build, ROOT, "--buildtype=release"], check=True)
        print(compiler_report(args.build, runs=3 if args.quick else 7, callgrind=want_cg,
                              go_package=args.go_package))
        return 0

    build(args.build)
    exe = os.path.join(args.build, "bench", "bench")
    if not args.quick and "--stream-orders" not in rest and "--check-only" not in rest:
        rest = ["--stream-orders", orders_jsonl(args.build)] + rest
    with tempfile.TemporaryDirectory(prefix="tagc-bench-") as tmp:
        jpath = os.path.join(tmp, "bench.json")
        cmd = [exe, "--json", jpath] + (["--quick"] if args.quick else []) + rest
        log("running " + " ".join(map(shlex.quote, cmd)))
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
        if proc.returncode != 0 or not os.path.exists(jpath):
            sys.stdout.write(proc.stdout)
            log("bench failed (exit %d)" % proc.returncode)
            return proc.returncode or 1
        with open(jpath) as f:
            data = json.load(f)

    if "--check-only" in rest:
        sys.stdout.write(proc.stdout)
        return 0

    want_cg = (not args.quick or args.callgrind) and not args.no_callgrind
    if want_cg and shutil.which("valgrind") is None:
        log("valgrind not found: no instruction counts")
        want_cg = False
    if want_cg:
        rows = data["results"]
        for r in data.get("msgpack_results", []):
            r["cg_direction"] = "msgpack-" + r["direction"]
            rows = rows + [r]
        log("callgrind: %d runs, %d at a time ..." % (len(rows), args.jobs))
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for r, ir in zip(rows, pool.map(lambda r: callgrind_one(exe, r), rows)):
                r["instr_per_op"] = ir

    with open(os.path.join(args.build, "bench-results.json"), "w") as f:
        json.dump(data, f, indent=1)
    print("## Documents\n\n" + documents_table(data) + "\n")
    print("## Checks\n\n" + checks_table(data) + "\n")
    print("## Results\n\n" + data["machine"] + "\n")
    print(table(data))
    if data.get("msgpack_results"):
        print("\n### MessagePack\n\n" + msgpack_checks_table(data) + "\n")
        print(msgpack_table(data))
    if data.get("streams"):
        print("\n## Streams\n\n" + streams_table(data))
    compiler_md = compiler_report(args.build, runs=3 if args.quick else 7, callgrind=want_cg,
                                 go_package=args.go_package)
    print("\n" + compiler_md)
    size_md = size_report(args.build)
    print("\n" + size_md)

    if not args.no_docs and (not args.quick or args.docs):
        docs = os.path.join(ROOT, "docs")
        write_docs(data, command, os.path.join(docs, "bench.md"))
        plot.write_svg(data, os.path.join(docs, "bench.svg"))
        with open(os.path.join(docs, "bench.md"), "a") as f:
            f.write("\n" + compiler_md)
            f.write("\n" + size_md)
        log("wrote docs/bench.md and docs/bench.svg")
    return 0


if __name__ == "__main__":
    sys.exit(main())
