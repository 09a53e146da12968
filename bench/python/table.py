#!/usr/bin/python3
"""table.py RESULTS.jsonl RUNS THREADS - the markdown tables of bench/python/run.sh.

Every figure is the median of the runs' medians / the minimum of the runs' minimums.
Single calls: what the Python call adds over the C call (difference of the medians) and
Python / C.  ResNet-18: each loop's per-iteration latency and its ratio to the C loop.
Exits 1 if a side's ResNet-18 output checksum differs from the C loop's.
"""
import json
import statistics
import sys

GOAL_ADDED_NS = 1500.0
GOAL_RATIO = 1.03

MICRO = [
    ("get_device", "`rt.get_device()`"),
    ("memcpy_h2d_4", "`rt.memcpy` 4 B H2D, pinned host"),
    ("memcpy_d2h_4", "`rt.memcpy` 4 B D2H, pinned host"),
    ("memcpy_h2d_4_pageable", "`rt.memcpy` 4 B H2D, pageable host"),
    ("memcpy_d2h_4_pageable", "`rt.memcpy` 4 B D2H, pageable host"),
    ("memcpy_h2d_4_rotating", "`rt.memcpy` 4 B H2D, pageable, 8 buffers on 8 pages in turn"),
    ("execute_tiny", "`mdl.execute`, one-node model"),
    ("run_tiny", "one-node run: `rt.memcpy` 16 B in + `mdl.execute` + `rt.memcpy` 16 B out"),
]
RESNET = [
    ("c", "resnet18", "C: `aclrtMemcpy` H2D + `aclmdlExecute` + `aclrtMemcpy` D2H"),
    ("py", "resnet18_acl", "Python, `acl`: `acl.rt.memcpy` + `acl.mdl.execute` + `acl.rt.memcpy`"),
    ("py", "resnet18_session", "Python, `openacl.Session.run([x])`"),
]


def main():
    path, runs, threads = sys.argv[1], sys.argv[2], sys.argv[3]
    rows = {}
    for line in open(path):
        if line.strip():
            d = json.loads(line)
            rows.setdefault((d["side"], d["case"]), []).append(d)

    def agg(side, case, key):
        r = rows.get((side, case))
        if not r or key + "_median" not in r[0]:
            return None
        return statistics.median(x[key + "_median"] for x in r), min(x[key + "_min"] for x in r), len(r)

    out = []
    out.append(f"Single calls, {runs} run(s) per side (alternating processes), {threads} executor threads; "
               "ns per call, median of the runs' medians / minimum of their minimums; added = Python - C "
               "(of the medians / of the minimums); ratio = Python / C (medians); goal: added ≤ 1500 ns. "
               "C calls: `aclrtGetDevice`, `aclrtMemcpy(dst, 4, src, 4, kind)` (pinned host memory from "
               "`aclrtMallocHost` / `acl.rt.malloc_host`, pageable from `malloc` / a numpy array), `aclmdlExecute` "
               "on a Relu of [1,4] float32.")
    out.append("")
    out.append("| Python call | C ns/call (median / min) | Python ns/call (median / min) | added ns "
               "(median / min) | ratio | goal met? |")
    out.append("|---|---|---|---|---|---|")
    for case, label in MICRO:
        c, p = agg("c", case, "ns"), agg("py", case, "ns")
        if not c and not p:
            continue
        cs = f"{c[0]:.1f} / {c[1]:.1f}" if c else "n/a"
        ps = f"{p[0]:.1f} / {p[1]:.1f}" if p else "n/a"
        if c and p:
            added = p[0] - c[0]
            out.append(f"| {label} | {cs} | {ps} | {added:.1f} / {p[1] - c[1]:.1f} | {p[0] / c[0]:.2f} | "
                       f"{'yes' if added <= GOAL_ADDED_NS else 'no'} |")
        else:
            out.append(f"| {label} | {cs} | {ps} | n/a | n/a | n/a |")
    c, p = agg("c", "run_tiny", "ns"), agg("py", "session_run_tiny", "ns")
    if c and p:
        added = p[0] - c[0]
        out.append(f"| `openacl.Session.run([x])`, one-node model (C: the run above) | {c[0]:.1f} / {c[1]:.1f} | "
                   f"{p[0]:.1f} / {p[1]:.1f} | {added:.1f} / {p[1] - c[1]:.1f} | {p[0] / c[0]:.2f} | — |")
    p = agg("py", "python_loop", "ns")
    if p:
        out.append(f"| the Python loop alone, no call | — | "
                   f"{p[0]:.1f} / {p[1]:.1f} | — | — | — |")

    bad = False
    c = agg("c", "resnet18", "ms")
    if c or any(k[1].startswith("resnet18") for k in rows):
        out.append("")
        out.append(f"ResNet-18, batch 1, end to end, {runs} run(s) per side (alternating processes), {threads} executor "
                   "threads; ms per iteration, median of the runs' medians / minimum of their minimums; ratio to C: the "
                   "median of the per-run ratios (each run's sides ran back to back) / the ratio of the minimums; "
                   "`aclmdlExecute` alone timed inside the same loop where the loop makes that call; goal: Session.run "
                   "≤ 1.03 × the C loop.")
        out.append("")
        out.append("| loop | ms/iteration (median / min) | ratio to C (median / min) | added ms (median) | "
                   "`aclmdlExecute` alone ms (median / min) | the copies, µs (median) | goal met? |")
        out.append("|---|---|---|---|---|---|---|")
        c_sum = rows[("c", "resnet18")][0]["out_sum"] if ("c", "resnet18") in rows else None
        for side, case, label in RESNET:
            e = agg(side, case, "ms")
            if not e:
                continue
            k = agg(side, case, "compute_ms")
            r = rows[(side, case)]
            ks = f"{k[0]:.2f} / {k[1]:.2f}" if k else "—"
            around = statistics.median(x["outside_us_median"] for x in r) if k else None
            arounds = f"{around:.0f}" if around is not None else "—"
            if side == "c":
                out.append(f"| {label} | {e[0]:.2f} / {e[1]:.2f} | 1 | — | {ks} | {arounds} | — |")
                continue
            if c:
                # Paired: each run's Python median over the same run's C median (the processes ran
                # back to back), so that the machine's drift from run to run cancels out.
                c_by_run = {x.get("run"): x["ms_median"] for x in rows[("c", "resnet18")]}
                pairs = [x["ms_median"] / c_by_run[x.get("run")] for x in r if x.get("run") in c_by_run]
                ratio = statistics.median(pairs) if pairs else e[0] / c[0]
                ratio_min, added = e[1] / c[1], e[0] - c[0]
                met = "yes" if ratio <= GOAL_RATIO else "no"
                out.append(f"| {label} | {e[0]:.2f} / {e[1]:.2f} | {ratio:.3f} / {ratio_min:.3f} | {added:+.2f} | "
                           f"{ks} | {arounds} | {met if case == 'resnet18_session' else '—'} |")
            else:
                out.append(f"| {label} | {e[0]:.2f} / {e[1]:.2f} | n/a | n/a | {ks} | {arounds} | n/a |")
            if c_sum is not None:
                for x in r:
                    if abs(x["out_sum"] - c_sum) > 1e-3 * max(1.0, abs(c_sum)):
                        print(f"table.py: {case}: output checksum {x['out_sum']} differs from the C loop's {c_sum}",
                              file=sys.stderr)
                        bad = True
    print("\n".join(out))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
