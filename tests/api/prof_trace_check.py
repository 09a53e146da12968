#!/usr/bin/env python3
"""prof_trace_check.py PROF_DIR - checks the trace JSON of an openacl profile
against the Chrome trace-event format (used by tests/api/prof.c):

  * the file is a JSON array of objects, each with name, ph, pid, tid;
  * "X" events have a numeric ts (a number or a numeric string, µs) and dur >= 0;
  * every "B" has its "E" on the same track, properly nested;
  * timestamps never go back on a track (file order);
  * every flow start "s" has one end "f" with the same id and cat, not earlier;
  * operators (cat "op") on a stream lie inside a task on that stream;
  * on each track, complete events nest (a child ends before its parent).
Exits 1 with the problems printed, 0 when the trace is sound."""
import glob
from decimal import Decimal
import json
import os
import sys


def main():
    d = sys.argv[1]
    files = glob.glob(os.path.join(d, "mindstudio_profiler_output", "msprof_*.json"))
    files = [f for f in files if not os.path.basename(f).startswith("msprof_tx")]
    if len(files) != 1:
        print("expected one msprof_*.json in", d, "found", files)
        return 1
    with open(files[0]) as f:
        events = json.load(f)
    bad = []
    if not isinstance(events, list):
        print("not a JSON array")
        return 1
    last_ts = {}
    open_b = {}
    flows = {}
    stacks = {}
    tasks = {}
    ops = []
    for i, e in enumerate(events):
        for k in ("name", "ph", "pid", "tid"):
            if k not in e:
                bad.append("event %d lacks %s: %r" % (i, k, e))
        ph = e.get("ph")
        if ph == "M":
            continue
        try:
            ts = Decimal(str(e["ts"]))
        except (KeyError, ValueError, TypeError):
            bad.append("event %d has no numeric ts: %r" % (i, e))
            continue
        track = (e["pid"], e["tid"])
        if track in last_ts and ts < last_ts[track]:
            bad.append("event %d goes back in time on track %r: %s < %s" % (i, track, ts, last_ts[track]))
        last_ts[track] = max(ts, last_ts.get(track, ts))
        if ph == "X":
            dur = e.get("dur")
            if not isinstance(dur, (int, float)) or dur < 0:
                bad.append("event %d has a bad dur: %r" % (i, e))
                continue
            dur = Decimal(str(dur))
            st = stacks.setdefault(track, [])
            while st and st[-1][1] <= ts:
                st.pop()
            if st and ts + dur > st[-1][1]:
                bad.append("event %d (%s) overlaps its enclosing event %s on track %r" % (i, e["name"], st[-1][2], track))
            st.append((ts, ts + dur, e["name"]))
            if e.get("cat") == "task":
                tasks.setdefault(track, []).append((ts, ts + dur))
            elif e.get("cat") == "op":
                ops.append((track, ts, ts + dur, e["name"]))
        elif ph == "B":
            open_b.setdefault(track, []).append(e["name"])
        elif ph == "E":
            if not open_b.get(track):
                bad.append("event %d: E without B on track %r" % (i, track))
            else:
                open_b[track].pop()
        elif ph in ("s", "f"):
            key = (e.get("cat"), e.get("id"))
            fl = flows.setdefault(key, {})
            if ph in fl:
                bad.append("flow %r has two %s events" % (key, ph))
            fl[ph] = ts
    for track, names in open_b.items():
        if names:
            bad.append("B without E on track %r: %r" % (track, names))
    for key, fl in flows.items():
        if "s" not in fl or "f" not in fl:
            bad.append("flow %r is not paired: %r" % (key, fl))
        elif fl["f"] < fl["s"]:
            bad.append("flow %r ends before it starts" % (key,))
    for track, t0, t1, name in ops:
        if not any(a <= t0 and t1 <= b for a, b in tasks.get(track, [])):
            bad.append("operator %s [%s, %s] is in no task of track %r" % (name, t0, t1, track))
    for b in bad[:30]:
        print(b)
    if bad:
        print("%d problems in %s" % (len(bad), files[0]))
        return 1
    print("%s: %d events, sound" % (files[0], len(events)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
