#!/usr/bin/python3
"""trace_svg.py - draws a profile's timeline (the msprof_*.json trace that
aclprofStop writes, in the Chrome trace-event format) as an SVG picture: one
lane per track, as Perfetto and chrome://tracing lay them out (process, then
thread or stream), nested events stacked below their parent, flow arrows from
each task's submission to its execution, and a time axis.  docs/profiling.md
shows one; for exploring a profile, open the JSON in https://ui.perfetto.dev.

    /usr/bin/python3 scripts/prof/trace_svg.py TRACE.json OUT.svg [--from MS] [--to MS] [--width PX]

--from / --to: the window to draw, in ms from the trace's first event (default: all of it).
"""
import argparse
import colorsys
import html
import json
import sys
import zlib

ROW = 18          # px per nesting level
LANE_GAP = 8      # px between lanes
LABEL_W = 210     # px of lane names on the left
AXIS_H = 28


def colour(name):
    """A stable pastel per event name, so one operator type keeps its colour."""
    h = (zlib.crc32(name.encode()) % 360) / 360.0
    r, g, b = colorsys.hls_to_rgb(h, 0.78, 0.55)
    return "#%02x%02x%02x" % (int(r * 255), int(g * 255), int(b * 255))


def load(path):
    with open(path) as f:
        t = json.load(f)
    return t["traceEvents"] if isinstance(t, dict) else t


def lanes_of(events, t0, t1):
    """{(pid, tid): [(ts, dur, name, depth)]} of the complete events inside the window, depths by nesting."""
    by = {}
    for e in events:
        if e.get("ph") != "X":
            continue
        ts, dur = float(e["ts"]), float(e.get("dur", 0))
        if ts + dur < t0 or ts > t1:
            continue
        by.setdefault((e["pid"], e["tid"]), []).append((ts, dur, e.get("name", "")))
    lanes = {}
    for key, evs in by.items():
        evs.sort(key=lambda x: (x[0], -x[1]))
        stack, out = [], []
        for ts, dur, name in evs:
            while stack and stack[-1] <= ts:
                stack.pop()
            out.append((ts, dur, name, len(stack)))
            stack.append(ts + dur)
        lanes[key] = out
    return lanes


def names(events):
    proc, thread, order = {}, {}, {}
    for e in events:
        if e.get("ph") != "M":
            continue
        a = e.get("args", {})
        if e["name"] == "process_name":
            proc[e["pid"]] = a.get("name", str(e["pid"]))
        elif e["name"] == "thread_name":
            thread[(e["pid"], e["tid"])] = a.get("name", str(e["tid"]))
        elif e["name"] == "process_sort_index":
            order[e["pid"]] = a.get("sort_index", 0)
    return proc, thread, order


def main():
    ap = argparse.ArgumentParser(prog="trace_svg", description=__doc__.split("\n\n")[0])
    ap.add_argument("trace")
    ap.add_argument("out")
    ap.add_argument("--from", dest="start", type=float, default=None)
    ap.add_argument("--to", dest="end", type=float, default=None)
    ap.add_argument("--width", type=int, default=1400)
    a = ap.parse_args()
    events = load(a.trace)
    timed = [e for e in events if e.get("ph") in ("X", "s", "f", "i", "I", "C")]
    if not timed:
        sys.exit("trace_svg: %s has no timed events" % a.trace)
    first = min(float(e["ts"]) for e in timed)
    last = max(float(e["ts"]) + float(e.get("dur", 0)) for e in timed)
    t0 = first + (a.start * 1e3 if a.start is not None else 0)
    t1 = first + a.end * 1e3 if a.end is not None else last
    if t1 <= t0:
        sys.exit("trace_svg: the window is empty (--from %s --to %s)" % (a.start, a.end))
    proc, thread, order = names(events)
    lanes = lanes_of(events, t0, t1)
    keys = sorted(lanes, key=lambda k: (order.get(k[0], 0), k[0], k[1]))
    plot_w = a.width - LABEL_W - 10
    scale = plot_w / (t1 - t0)

    def x(ts):
        return LABEL_W + (ts - t0) * scale

    y, lane_y, parts = AXIS_H, {}, []
    for k in keys:
        depth = max(d for _, _, _, d in lanes[k]) + 1
        lane_y[k] = y
        label = "%s / %s" % (proc.get(k[0], k[0]), thread.get(k, k[1]))
        parts.append('<rect x="0" y="%d" width="%d" height="%d" fill="#f4f4f4"/>' % (y, a.width, depth * ROW))
        parts.append('<text x="6" y="%d" class="lane">%s</text>' % (y + 13, html.escape(label[:34])))
        for ts, dur, name, d in lanes[k]:
            x0, x1 = max(x(ts), LABEL_W), min(x(ts + dur), a.width - 10)
            w = max(x1 - x0, 0.6)
            parts.append('<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s" stroke="#777" stroke-width="0.3">'
                         '<title>%s (%.1f us)</title></rect>' % (x0, y + d * ROW + 1, w, ROW - 2, colour(name),
                                                                  html.escape(name), dur))
            if w > 46:
                chars = int(w / 6.2)
                parts.append('<text x="%.1f" y="%d" class="ev">%s</text>' %
                             (x0 + 2, y + d * ROW + 13, html.escape(name[:chars])))
        y += depth * ROW + LANE_GAP
    # flows: submission (s) -> execution (f), paired by id
    starts = {}
    for e in events:
        if e.get("ph") == "s":
            starts[(e.get("cat"), e.get("id"))] = e
    for e in events:
        if e.get("ph") != "f":
            continue
        s = starts.get((e.get("cat"), e.get("id")))
        if s is None or (s["pid"], s["tid"]) not in lane_y or (e["pid"], e["tid"]) not in lane_y:
            continue
        ts, tf = float(s["ts"]), float(e["ts"])
        if tf < t0 or ts > t1:
            continue
        parts.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" class="flow" marker-end="url(#arrow)"/>' %
                     (x(ts), lane_y[(s["pid"], s["tid"])] + ROW // 2, x(tf), lane_y[(e["pid"], e["tid"])] + 2))
    # time axis: about eight ticks at a round step
    span_ms = (t1 - t0) / 1e3
    step = 10 ** len(str(int(span_ms / 8))) / 10 if span_ms >= 8 else 1.0
    while span_ms / step > 10:
        step *= 2
    axis, tick = [], 0.0
    while tick <= span_ms:
        tx = LABEL_W + tick * 1e3 * scale
        axis.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#bbb"/>' % (tx, AXIS_H - 6, tx, y))
        axis.append('<text x="%.1f" y="%d" class="tick">%g ms</text>' % (tx + 2, AXIS_H - 10, tick))
        tick += step
    height = y + 6
    svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif">' % (a.width, height),
           '<defs><marker id="arrow" markerWidth="6" markerHeight="6" refX="5" refY="3" orient="auto">'
           '<path d="M0,0 L6,3 L0,6 z" fill="#c0392b"/></marker></defs>',
           '<style>.lane{font-size:11px;fill:#222}.ev{font-size:10px;fill:#111}.tick{font-size:10px;fill:#555}'
           '.flow{stroke:#c0392b;stroke-width:0.8}</style>',
           '<rect width="100%" height="100%" fill="white"/>'] + axis + parts + ['</svg>']
    with open(a.out, "w") as f:
        f.write("\n".join(svg) + "\n")
    print("trace_svg: %d lanes, %.3f ms drawn into %s" % (len(keys), span_ms, a.out), file=sys.stderr)


if __name__ == "__main__":
    main()
