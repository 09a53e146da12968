#!/usr/bin/env python3
"""layers.py - where one model's time goes, layer by layer, in openacl and in ONNX Runtime.

    bench/models/layers.py MODEL.onnx BATCH [--build DIR] [--iters N] [--threads N] [--input-shape DIMS]
                           [--top N] [--ort DIR]

Runs the model on openacl's engine with OPENACL_MODEL_PROFILE=all (bench_model: every step's mean and fastest
run) and on ONNX Runtime with its own profiler (peer_ort.js --profile: every node's time in every run), then
prints, per side, the time per kind of step or operator and, for the heaviest openacl steps, the ONNX Runtime
node of the same name where there is one. Times are sums of each step's fastest run (microseconds): on a
machine busy with other work that says what a layer costs, where means carry every time a core was taken.

ONNX Runtime names a node its graph optimiser made after the tensor it writes (a convolution in its NCHWc
layout is "<output>_nchwc", SiLU a QuickGelu node): those suffixes are dropped before names are matched, and
a fused node shows up under one name only. Needs Node.js and onnxruntime-node (scripts/install-deps.sh
--bench), found as bench/models/run.sh finds them (--ort DIR, $OPENACL_ORT_DIR, ~/.cache/openacl/...).
"""
import argparse
import collections
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ORT_VERSION = "1.30.0"  # as bench/models/run.sh installs it

# index, kind (padded to 20 characters, longer ones overflow: "concat + batch norm + relu"), implementation,
# mean and fastest ms, ONNX node (may be empty)
STEP = re.compile(r"^\s+(\d+) (.+?)\s+(\S+)\s+([0-9.]+)\s+([0-9.]+)\s+(\S*)\s*$")


def fail(msg):
    print(f"layers.py: {msg}", file=sys.stderr)
    sys.exit(1)


def openacl_steps(a):
    """(kind, impl, node, fastest us) per step of the plan, from the engine's profile."""
    env = dict(os.environ, OPENACL_MODEL_PROFILE="all", OPENACL_EXECUTOR_THREADS=str(a.threads))
    cmd = [os.path.join(a.build, "bench", "bench_model"), a.model, str(a.batch), str(a.iters), "2",
           "--threads", str(a.threads)]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{' '.join(cmd)} failed:\n{r.stderr}")
    steps = []
    for line in r.stderr.splitlines():
        m = STEP.match(line)
        if m:
            steps.append((m.group(2).strip(), m.group(3), m.group(6), float(m.group(5)) * 1000))
    if not steps:
        fail("the engine printed no profile (the model ran on the reference executor?)")
    return steps


def ort_nodes(a, work):
    """{node name: (op type, fastest us)} from ONNX Runtime's profiler."""
    ort = a.ort or os.environ.get("OPENACL_ORT_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "openacl", f"onnxruntime-node-{ORT_VERSION}")
    env = dict(os.environ, NODE_PATH=os.path.join(ort, "node_modules"), OMP_NUM_THREADS=str(a.threads))
    prefix = os.path.join(work, "ort")
    cmd = ["node", os.path.join(HERE, "peer_ort.js"), a.model, str(a.batch), str(a.iters), "2",
           "--threads", str(a.threads), "--input-shape", a.input_shape, "--profile", prefix]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{' '.join(cmd)} failed (onnxruntime-node in {ort}?):\n{r.stderr}")
    files = sorted(glob.glob(prefix + "*.json"))
    if not files:
        fail("ONNX Runtime wrote no profile")
    with open(files[-1]) as f:
        events = json.load(f)
    times, ops = collections.defaultdict(list), {}
    for e in events:
        if e.get("cat") == "Node" and e.get("name", "").endswith("_kernel_time"):
            n = e["name"][: -len("_kernel_time")]
            times[n].append(e["dur"])
            ops[n] = e.get("args", {}).get("op_name", "?")
    return {n: (ops[n], min(v)) for n, v in times.items()}


def base_name(n):
    n = re.sub(r"/QuickGeluFusion/$", "", n)
    n = re.sub(r"(_output_0)?_nchwc$", "", n)
    return re.sub(r"_output_0$", "", n)


def main():
    p = argparse.ArgumentParser(description="one model, layer by layer: openacl against ONNX Runtime")
    p.add_argument("model")
    p.add_argument("batch", type=int)
    p.add_argument("--build", default=os.path.join(HERE, "..", "..", "build"))
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--input-shape", default="3,224,224", help="the input's dimensions after the batch")
    p.add_argument("--top", type=int, default=30)
    p.add_argument("--ort", help="where onnxruntime-node is installed (DIR/node_modules)")
    a = p.parse_args()
    if a.batch < 1 or a.iters < 1 or a.threads < 1:
        fail("BATCH, --iters and --threads must be at least 1")
    ours = openacl_steps(a)
    with tempfile.TemporaryDirectory() as work:
        theirs = ort_nodes(a, work)

    print(f"{os.path.basename(a.model)}, batch {a.batch}, {a.threads} threads: sums of each step's fastest run (us)")
    print(f"openacl: {sum(s[3] for s in ours):.0f} over {len(ours)} steps; "
          f"ONNX Runtime: {sum(t for _, t in theirs.values()):.0f} over {len(theirs)} nodes\n")
    kinds = collections.Counter()
    for kind, impl, _, t in ours:
        kinds[f"{kind} ({impl})"] += t
    ops = collections.Counter()
    for op, t in theirs.values():
        ops[op] += t
    print("| openacl step (implementation) | us | ONNX Runtime operator | us |\n|---|---:|---|---:|")
    ka, kb = kinds.most_common(), ops.most_common()
    for i in range(max(len(ka), len(kb))):
        left = f"{ka[i][0]} | {ka[i][1]:.0f}" if i < len(ka) else " | "
        right = f"{kb[i][0]} | {kb[i][1]:.0f}" if i < len(kb) else " | "
        print(f"| {left} | {right} |")

    by_name = collections.defaultdict(float)
    for n, (_, t) in theirs.items():
        by_name[base_name(n)] += t
    per_node = collections.defaultdict(lambda: [0.0, []])
    for kind, impl, node, t in ours:
        per_node[node][0] += t
        per_node[node][1].append(kind if kind == "reorder" else impl)
    print(f"\n| ONNX node (openacl's heaviest {a.top}) | openacl us | steps | ONNX Runtime us | ratio |\n"
          "|---|---:|---|---:|---:|")
    for node, (t, what) in sorted(per_node.items(), key=lambda kv: -kv[1][0])[: a.top]:
        o = by_name.get(node)
        theirs_us, ratio = (f"{o:.0f}", f"{t / o:.2f}") if o else ("—", "—")
        print(f"| {node or '(no node)'} | {t:.0f} | {', '.join(what)} | {theirs_us} | {ratio} |")


if __name__ == "__main__":
    main()
