#!/usr/bin/python3
"""table.py - run.sh's report: the markdown table of the model benchmark.

    table.py RESULTS.jsonl FMA.json FLOPS.jsonl RUNS

RESULTS holds one JSON line per process (bench_model.c, peer_torch.py, peer_cv2.py, all with the fields of
peer_common.measure); each row aggregates the runs of one side: the median of the runs' medians, the
minimum of their minimums, the median peak RSS, load time and cores kept busy (CPU time over wall time in the timed loop). The ratio is openacl's median over the faster
peer's; the goal is a ratio <= 0.7 with a peak RSS no higher than that peer's.
"""
import json
import os
import statistics
import sys

SIDES = ("openacl", "torch", "cv2")
GOAL_RATIO = 0.7


def stem(path):
    return os.path.splitext(os.path.basename(path))[0]


def main():
    if len(sys.argv) != 5:
        print("usage: table.py RESULTS.jsonl FMA.json FLOPS.jsonl RUNS", file=sys.stderr)
        sys.exit(2)
    res_path, fma_path, flops_path, runs = sys.argv[1:]
    rows = {}
    with open(res_path) as f:
        for line in f:
            r = json.loads(line)
            rows.setdefault((stem(r["model"]), r["batch"]), {}).setdefault(r["side"], []).append(r)
    with open(fma_path) as f:
        fma = json.load(f)
    flops = {}
    with open(flops_path) as f:
        for line in f:
            r = json.loads(line)
            flops[(stem(r["model"]), r["batch"])] = r["gflop"]

    peak = fma["peak_gflops"]
    busy = " (the machine was busy: latencies are inflated)" if fma["wall_gflops"] < 0.8 * peak else ""
    print(f"FMA peak: {peak:.1f} GFLOP/s ({fma['peak_isa']}, {fma['threads']} threads, per CPU second; "
          f"{fma['wall_gflops']:.1f} by the wall clock{busy}); "
          f"{runs} run(s) per side, interleaved; latency = median of the runs' medians / minimum; "
          f"RSS = peak resident set of the side's process (MiB); load = model load (ms).\n")
    print("| model | batch | openacl ms (median / min) | torch ms | cv2 ms | ratio to faster peer | "
          "peak RSS MiB (openacl / torch / cv2) | load ms (openacl / torch / cv2) | cores busy (openacl / torch / cv2) | "
          "openacl GFLOP/s | % of FMA peak | goal met? |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (model, batch) in sorted(rows, key=lambda k: (k[0], k[1])):
        sides = rows[(model, batch)]
        agg = {}
        for s in SIDES:
            if s in sides:
                rs = sides[s]
                agg[s] = {"median": statistics.median(r["median_ms"] for r in rs),
                          "min": min(r["min_ms"] for r in rs),
                          "rss": statistics.median(r["peak_rss_kib"] for r in rs) / 1024,
                          "load": statistics.median(r["load_ms"] for r in rs),
                          "busy": statistics.median(r["cores_busy"] for r in rs)}

        def cell(s, fmt):
            return fmt(agg[s]) if s in agg else "failed"

        lat = {s: cell(s, lambda a: f"{a['median']:.1f} / {a['min']:.1f}") for s in SIDES}
        peers = [s for s in ("torch", "cv2") if s in agg]
        ratio, goal = "n/a", "n/a"
        if "openacl" in agg and peers:
            fast = min(peers, key=lambda s: agg[s]["median"])
            q = agg["openacl"]["median"] / agg[fast]["median"]
            ratio = f"{q:.2f} ({fast})"
            ok = q <= GOAL_RATIO and agg["openacl"]["rss"] <= agg[fast]["rss"]
            goal = "yes" if ok else "no"
        gf, pct = "n/a", "n/a"
        if "openacl" in agg and (model, batch) in flops:
            g = flops[(model, batch)] / (agg["openacl"]["median"] / 1e3)
            gf, pct = f"{g:.1f}", f"{100 * g / peak:.1f} %"
        rss = " / ".join(cell(s, lambda a: f"{a['rss']:.0f}") for s in SIDES)
        load = " / ".join(cell(s, lambda a: f"{a['load']:.0f}") for s in SIDES)
        busy = " / ".join(cell(s, lambda a: f"{a['busy']:.1f}") for s in SIDES)
        print(f"| {model} | {batch} | {lat['openacl']} | {lat['torch']} | {lat['cv2']} | {ratio} | {rss} | {load} | "
              f"{busy} | {gf} | {pct} | {goal} |")


if __name__ == "__main__":
    main()
