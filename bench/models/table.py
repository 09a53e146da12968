#!/usr/bin/python3
"""table.py - run.sh's report: the markdown table of the model benchmark.

    table.py RESULTS.jsonl FMA.json FLOPS.jsonl RUNS [ACCURACY.jsonl]

RESULTS holds one JSON line per process (bench_model.c, peer_ort.js, peer_torch.py, peer_cv2.py, all with the
fields of peer_common.measure); each row aggregates the runs of one side: the median of the runs' medians, the
minimum of their minimums, the median peak RSS, load time, first execution and cores kept busy (CPU time over
wall time in the timed loop). The primary ratio is openacl's median over ONNX Runtime's (issue 11's goal: at
most 1.0 on every row, at most 0.8 as the geometric mean over the rows, with a peak RSS no higher than ONNX
Runtime's); the ratios to PyTorch and OpenCV DNN follow. Without ONNX Runtime results the ratio to the faster
of PyTorch and OpenCV is the goal's measure, as before ONNX Runtime joined (<= 0.7).

Rows of openacl in a reduced precision mode (side openacl_lowp) go to a second table, never into the float32
comparison: their speed-up over openacl in float32, their ratio to ONNX Runtime (in float32), and the accuracy
run.sh measured against openacl in float32 (ACCURACY: top-1 agreement and largest relative error).  The
quantised copies of the CNNs (sides openacl_int8 and ort_int8: the same QDQ file in both runtimes) make a
third table: openacl / ONNX Runtime on that file, the speed-up over openacl in float32, and both sides'
accuracy against openacl in float32.
"""
import json
import math
import os
import statistics
import sys

SIDES = ("openacl", "ort", "torch", "cv2")
GOAL_ORT_ROW = 1.0
GOAL_ORT_GEOMEAN = 0.8
GOAL_RATIO = 0.7  # against the faster of torch and cv2, when there is no ONNX Runtime


def stem(path):
    return os.path.splitext(os.path.basename(path))[0]


def main():
    if len(sys.argv) not in (5, 6):
        print("usage: table.py RESULTS.jsonl FMA.json FLOPS.jsonl RUNS [ACCURACY.jsonl]", file=sys.stderr)
        sys.exit(2)
    res_path, fma_path, flops_path, runs = sys.argv[1:5]
    accuracy = {}
    if len(sys.argv) == 6 and os.path.exists(sys.argv[5]):
        with open(sys.argv[5]) as f:
            for line in f:
                r = json.loads(line)
                accuracy[(r["model"], r["batch"], r.get("side", "openacl_lowp"))] = r
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
    have_ort = any("ort" in v for v in rows.values())
    # a side that ran on no row was left out (run.sh --peers, or no ONNX Runtime): "—", not "failed"
    ran = {s for v in rows.values() for s in v}
    versions = sorted({r.get("version") for v in rows.values() for r in v.get("ort", []) if r.get("version")})

    peak = fma["peak_gflops"]
    busy = " (the machine was busy: latencies are inflated)" if fma["wall_gflops"] < 0.8 * peak else ""
    print(f"FMA peak: {peak:.1f} GFLOP/s ({fma['peak_isa']}, {fma['threads']} threads, per CPU second; "
          f"{fma['wall_gflops']:.1f} by the wall clock{busy}); "
          f"{runs} run(s) per side, interleaved; latency = median of the runs' medians / minimum (ms); "
          f"ORT = ONNX Runtime {', '.join(versions) or '(not run)'}; "
          f"RSS = peak resident set of the side's process (MiB); load = model load (ms); "
          f"first = the first execution (ms).\n")
    print("| model | batch | openacl ms (median / min) | ORT ms | torch ms | cv2 ms | openacl / ORT | openacl / torch | "
          "openacl / cv2 | peak RSS MiB (openacl / ORT / torch / cv2) | load ms (openacl / ORT / torch / cv2) | "
          "first ms (openacl / ORT / torch / cv2) | cores busy (openacl / ORT / torch / cv2) | "
          "openacl GFLOP/s | % of FMA peak | p99 / median (openacl / ORT) | goal met? |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    ort_ratios = []
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
                          "first": statistics.median(r["first_ms"] for r in rs),
                          "busy": statistics.median(r["cores_busy"] for r in rs),
                          # the latency spread (issue 11: at most 1.15 on a quiet machine); openacl's and
                          # ONNX Runtime's sides report a p99 (with fewer than 100 iterations, the slowest)
                          "tail": statistics.median(r["p99_ms"] / r["median_ms"] for r in rs)
                          if all("p99_ms" in r for r in rs) else None}

        def cell(s, fmt):
            if s in agg:
                return fmt(agg[s])
            return "—" if s not in ran else "failed"

        lat = {s: cell(s, lambda a: f"{a['median']:.1f} / {a['min']:.1f}") for s in SIDES}

        def ratio(peer):
            if "openacl" in agg and peer in agg:
                return agg["openacl"]["median"] / agg[peer]["median"]
            return None

        ratios = {p: ratio(p) for p in ("ort", "torch", "cv2")}
        rtext = {p: (f"{q:.2f}" if q is not None else "n/a") for p, q in ratios.items()}
        goal = "n/a"
        if ratios["ort"] is not None:
            ort_ratios.append(ratios["ort"])
            rtext["ort"] = f"**{rtext['ort']}**"
            goal = "yes" if ratios["ort"] <= GOAL_ORT_ROW and agg["openacl"]["rss"] <= agg["ort"]["rss"] else "no"
        elif not have_ort:
            peers = [p for p in ("torch", "cv2") if ratios[p] is not None]
            if peers:
                fast = min(peers, key=lambda p: agg[p]["median"])
                ok = ratios[fast] <= GOAL_RATIO and agg["openacl"]["rss"] <= agg[fast]["rss"]
                goal = f"{'yes' if ok else 'no'} (vs {fast})"
        gf, pct = "n/a", "n/a"
        if "openacl" in agg and (model, batch) in flops:
            g = flops[(model, batch)] / (agg["openacl"]["median"] / 1e3)
            gf, pct = f"{g:.1f}", f"{100 * g / peak:.1f} %"
        rss = " / ".join(cell(s, lambda a: f"{a['rss']:.0f}") for s in SIDES)
        load = " / ".join(cell(s, lambda a: f"{a['load']:.0f}") for s in SIDES)
        first = " / ".join(cell(s, lambda a: f"{a['first']:.0f}") for s in SIDES)
        busy = " / ".join(cell(s, lambda a: f"{a['busy']:.1f}") for s in SIDES)
        tail = " / ".join(f"{agg[s]['tail']:.2f}" if s in agg and agg[s]["tail"] else "n/a" for s in ("openacl", "ort"))
        print(f"| {model} | {batch} | {lat['openacl']} | {lat['ort']} | {lat['torch']} | {lat['cv2']} | {rtext['ort']} | "
              f"{rtext['torch']} | {rtext['cv2']} | {rss} | {load} | {first} | {busy} | {gf} | {pct} | {tail} | {goal} |")
    if ort_ratios:
        gm = math.exp(sum(math.log(q) for q in ort_ratios) / len(ort_ratios))
        worst = max(ort_ratios)
        print(f"\nGeometric mean of openacl / ORT over {len(ort_ratios)} rows: **{gm:.2f}** "
              f"(goal <= {GOAL_ORT_GEOMEAN}; range {min(ort_ratios):.2f} to {worst:.2f}, goal <= {GOAL_ORT_ROW} "
              f"on every row: {'met' if worst <= GOAL_ORT_ROW else 'not met'}).")
    lowp_table(rows, accuracy)
    int8_table(rows, accuracy)


def acc_text(acc):
    if not acc:
        return "n/a", "n/a"
    return f"{100 * acc['top1_agree']:.1f} % of {acc['rows']}", f"{acc['max_rel_err']:.2e}"


def median_ms(sides, s):
    return statistics.median(r["median_ms"] for r in sides[s]) if s in sides else None


def int8_table(rows, accuracy):
    keys = [k for k in sorted(rows) if "openacl_int8" in rows[k]]
    if not keys:
        return
    print("\nQuantised models (scripts/models/quantize_qdq.py: int8 weights per channel, 8-bit activations; the same "
          "QDQ file in openacl and ONNX Runtime; not part of the float32 comparison); accuracy against openacl in "
          "float32 on the benchmark's input, as above.\n")
    print("| model | batch | openacl int8 ms (median / min) | ORT int8 ms | openacl / ORT (int8) | speed-up over "
          "float32 | peak RSS MiB (openacl / ORT) | top-1 agreement (openacl / ORT) | max rel. error (openacl / ORT) |")
    print("|---|---|---|---|---|---|---|---|---|")
    ratios, ups = [], []
    for k in keys:
        sides = rows[k]
        oa = sides["openacl_int8"]
        med, mn = median_ms(sides, "openacl_int8"), min(r["min_ms"] for r in oa)
        ort, f32 = median_ms(sides, "ort_int8"), median_ms(sides, "openacl")
        if ort:
            ratios.append(med / ort)
        if f32:
            ups.append(f32 / med)
        rss = [f"{statistics.median(r['peak_rss_kib'] for r in sides[s]) / 1024:.0f}" if s in sides else "n/a"
               for s in ("openacl_int8", "ort_int8")]
        t_oa, e_oa = acc_text(accuracy.get(k + ("openacl_int8",)))
        t_ort, e_ort = acc_text(accuracy.get(k + ("ort_int8",)))
        print(f"| {k[0]} | {k[1]} | {med:.1f} / {mn:.1f} | {f'{ort:.1f}' if ort else 'n/a'} | "
              f"{f'**{med / ort:.2f}**' if ort else 'n/a'} | {f'{f32 / med:.2f}' if f32 else 'n/a'} | "
              f"{' / '.join(rss)} | {t_oa} / {t_ort} | {e_oa} / {e_ort} |")
    if ratios:
        gm = math.exp(sum(math.log(q) for q in ratios) / len(ratios))
        print(f"\nGeometric mean of openacl / ORT on the quantised models over {len(ratios)} rows: **{gm:.2f}** "
              f"(range {min(ratios):.2f} to {max(ratios):.2f}).")
    if ups:
        gm = math.exp(sum(math.log(u) for u in ups) / len(ups))
        print(f"Geometric mean speed-up of int8 over float32 (openacl): {gm:.2f} over {len(ups)} rows.")


def lowp_table(rows, accuracy):
    keys = [k for k in sorted(rows) if "openacl_lowp" in rows[k]]
    if not keys:
        return
    mode = rows[keys[0]]["openacl_lowp"][0].get("precision", "?")
    print(f"\nReduced precision: openacl with OPENACL_PRECISION_MODE={mode} (not part of the float32 comparison); "
          f"accuracy against openacl in float32 on the benchmark's input: top-1 = share of rows (the last axis) "
          f"whose arg-max agrees, error = largest |difference| over the largest |float32 output|.\n")
    print("| model | batch | reduced ms (median / min) | float32 ms | speed-up | reduced / ORT | peak RSS MiB | "
          "top-1 agreement | max rel. error |")
    print("|---|---|---|---|---|---|---|---|---|")
    ups = []
    for k in keys:
        sides = rows[k]
        lo = sides["openacl_lowp"]
        med = median_ms(sides, "openacl_lowp")
        mn = min(r["min_ms"] for r in lo)
        rss = statistics.median(r["peak_rss_kib"] for r in lo) / 1024
        f32, ort = median_ms(sides, "openacl"), median_ms(sides, "ort")
        up = f"{f32 / med:.2f}" if f32 else "n/a"
        if f32:
            ups.append(f32 / med)
        vs_ort = f"{med / ort:.2f}" if ort else "n/a"
        acc = accuracy.get(k + ("openacl_lowp",))
        top1, err = acc_text(acc)
        print(f"| {k[0]} | {k[1]} | {med:.1f} / {mn:.1f} | {f32:.1f} | {up} | {vs_ort} | {rss:.0f} | {top1} | {err} |"
              if f32 else f"| {k[0]} | {k[1]} | {med:.1f} / {mn:.1f} | failed | n/a | {vs_ort} | {rss:.0f} | {top1} | "
              f"{err} |")
    if ups:
        gm = math.exp(sum(math.log(u) for u in ups) / len(ups))
        print(f"\nGeometric mean speed-up of {mode} over float32: {gm:.2f} over {len(ups)} rows.")


if __name__ == "__main__":
    main()
