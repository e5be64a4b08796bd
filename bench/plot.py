#!/usr/bin/env python3
"""bench/plot.py - a hand-written SVG bar chart of each contender's speed relative to cJSON
(MessagePack rows: relative to msgpack-c).

    python3 bench/plot.py RESULTS.json OUT.svg

RESULTS.json is what `bench --json` writes (run.py passes its data in directly).
One group of bars per workload and direction; each bar is cJSON's time divided by
the contender's, on a log scale, growing right of the 1× line when faster than
cJSON and left of it when slower. No matplotlib: plain SVG text.
"""
import json
import math
import sys
from xml.sax.saxutils import escape

COLORS = {"tagc": "#1f77b4", "tagc-fast": "#17becf", "cJSON": "#7f7f7f",
          "jansson": "#ff7f0e", "json-c": "#2ca02c", "simdjson-ondemand": "#d62728",
          "simdjson-dom": "#9467bd"}
PEERS = ("cJSON", "jansson", "json-c", "simdjson-ondemand", "simdjson-dom")


def write_svg(data, path):
    rows = data["results"]
    base = {(r["workload"], r["direction"]): r["sec_per_op"] for r in rows if r["contender"] == "cJSON"}
    groups, order = {}, []
    best = {}  # (workload, direction) -> the fastest peer's time: the "× best peer" column
    for r in rows:
        if r["contender"] in PEERS:
            k = (r["workload"], r["direction"])
            best[k] = min(best.get(k, r["sec_per_op"]), r["sec_per_op"])
    tagc_vs_best = {(r["workload"], r["direction"]): best[(r["workload"], r["direction"])] / r["sec_per_op"]
                    for r in rows if r["contender"] == "tagc" and (r["workload"], r["direction"]) in best}
    for r in rows:
        key = (r["workload"], r["direction"])
        if key not in base or r["contender"] == "cJSON":
            continue
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append((r["contender"], base[key] / r["sec_per_op"]))
    # MessagePack rows: relative to msgpack-c
    mrows = data.get("msgpack_results", [])
    mbase = {(r["workload"], r["direction"]): r["sec_per_op"] for r in mrows
             if r["contender"] == "msgpack-c"}
    for r in mrows:
        key = (r["workload"], "msgpack " + r["direction"])
        if (r["workload"], r["direction"]) not in mbase or r["contender"] == "msgpack-c":
            continue
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append((r["contender"], mbase[(r["workload"], r["direction"])] / r["sec_per_op"]))
    ratios = [x for g in groups.values() for _, x in g] or [1.0]
    lo = 10 ** math.floor(math.log10(min(min(ratios), 0.5)))
    hi = 10 ** math.ceil(math.log10(max(max(ratios), 2.0)))

    left, right, top, bar, gap, ggap = 170, 150, 60, 13, 2, 14
    width = 900
    plotw = width - left - right
    height = top + sum(len(g) * (bar + gap) + ggap for g in groups.values()) + 50

    def x(r):
        return left + (math.log10(r) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)) * plotw

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="22" font-size="14" font-weight="bold">'
           'Speed relative to cJSON (msgpack rows: to msgpack-c), log scale; right of 1× is faster</text>']
    # grid and ticks
    ticks = []
    d = lo
    while d <= hi * 1.0001:
        for m in (1, 2, 5):
            t = d * m
            if lo <= t <= hi * 1.0001:
                ticks.append(t)
        d *= 10
    axis_y = height - 40
    for t in ticks:
        tx = x(t)
        label = ("%g×" % t)
        out.append(f'<line x1="{tx:.1f}" y1="{top - 8}" x2="{tx:.1f}" y2="{axis_y}" '
                   f'stroke="{"#333" if t == 1 else "#ddd"}" stroke-width="{1.5 if t == 1 else 1}"/>')
        out.append(f'<text x="{tx:.1f}" y="{axis_y + 14}" text-anchor="middle">{label}</text>')
    # bars
    y = top
    for key in order:
        g = groups[key]
        gh = len(g) * (bar + gap)
        out.append(f'<text x="{left - 8}" y="{y + gh / 2 + 4:.1f}" text-anchor="end" font-weight="bold">'
                   f'{escape(key[0])} {escape(key[1])}</text>')
        if key in tagc_vs_best:
            out.append(f'<text x="{width - 8}" y="{y + gh / 2 + 4:.1f}" text-anchor="end" '
                       f'font-weight="bold">tagc {tagc_vs_best[key]:.2f}× best peer</text>')
        for name, r in g:
            x0, x1 = sorted((x(1.0), x(r)))
            color = COLORS.get(name, "#999")
            out.append(f'<rect x="{x0:.1f}" y="{y}" width="{max(x1 - x0, 1):.1f}" height="{bar}" '
                       f'fill="{color}"><title>{escape(name)}: {r:.2f}×</title></rect>')
            tx, anchor = (x1 + 4, "start") if r >= 1 else (x0 - 4, "end")
            out.append(f'<text x="{tx:.1f}" y="{y + bar - 3}" text-anchor="{anchor}">'
                       f'{escape(name)} {r:.2f}×</text>')
            y += bar + gap
        y += ggap
    # legend
    lx = left
    for name, color in COLORS.items():
        if name == "cJSON":
            continue
        out.append(f'<rect x="{lx}" y="34" width="12" height="12" fill="{color}"/>')
        out.append(f'<text x="{lx + 16}" y="44">{escape(name)}</text>')
        lx += 120
    out.append(f'<text x="{left}" y="{height - 8}" fill="#555">{escape(data.get("machine", ""))}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: plot.py RESULTS.json OUT.svg")
    with open(sys.argv[1]) as f:
        write_svg(json.load(f), sys.argv[2])
