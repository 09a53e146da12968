"""peer_common.py - what the model benchmark's Python peers share with bench_model.c.

The arguments (MODEL.onnx BATCH ITERATIONS WARMUP [--threads N] [--dump FILE] [--input-shape DIMS]), the
input pattern,
the timing loop (one execution timed as first_ms, WARMUP untimed, ITERATIONS timed) and the JSON line,
so that the three sides measure the same thing the same way.
"""
import argparse
import json
import resource
import statistics
import sys
import time

import numpy as np


def parse_args(prog, extra=None):
    p = argparse.ArgumentParser(prog=prog)
    p.add_argument("model", help="the ONNX file")
    p.add_argument("batch", type=int)
    p.add_argument("iterations", type=int)
    p.add_argument("warmup", type=int)
    p.add_argument("--threads", type=int, default=2, help="threads for the framework (default 2)")
    p.add_argument("--dump", help="write output 0 of the last run here as raw float32")
    p.add_argument("--min-time", type=float, default=0,
                   help="time more runs than ITERATIONS until this many milliseconds were timed (default 0)")
    p.add_argument("--input-shape", default="3,224,224",
                   help="the input's dimensions after the batch, comma-separated (default 3,224,224; run.sh "
                   "passes the model's own)")
    if extra is not None:
        extra(p)
    a = p.parse_args()
    if a.batch < 1 or a.iterations < 1 or a.warmup < 0 or a.threads < 1:
        p.error("BATCH, ITERATIONS and --threads must be >= 1, WARMUP >= 0")
    try:
        a.input_shape = [int(d) for d in a.input_shape.split(",")]
        if min(a.input_shape) < 1:
            raise ValueError
    except ValueError:
        p.error("--input-shape takes positive integers separated by commas, e.g. 3,224,224")
    return a


def input_array(batch, shape=(3, 224, 224)):
    """The input bench_model.c feeds, [batch, *shape]: element i is (i * 7919 % 2001) / 1000 - 1 in float32,
    exactly."""
    n = batch * int(np.prod(shape))
    i = np.arange(n, dtype=np.int64)
    x = ((i * 7919) % 2001).astype(np.float32) / np.float32(1000) - np.float32(1)
    return x.reshape(batch, *shape)


def peak_rss_kib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def now_ms():
    return time.perf_counter_ns() / 1e6


def cpu_ms():
    """User + system CPU time of the process, as bench_model.c's cpu_ms."""
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return (ru.ru_utime + ru.ru_stime) * 1e3


def measure(side, a, threads, load_ms, base_rss, run):
    """Times run() as the C side times aclmdlExecute; run() returns output 0 as a numpy array."""
    t0 = now_ms()
    out = run()
    first = now_ms() - t0
    for _ in range(a.warmup):
        run()
    lat = []
    cpu0, wall0 = cpu_ms(), now_ms()
    while len(lat) < a.iterations or now_ms() - wall0 < a.min_time:
        t0 = now_ms()
        out = run()
        lat.append(now_ms() - t0)
    cores_busy = (cpu_ms() - cpu0) / (now_ms() - wall0)
    if a.dump:
        np.ascontiguousarray(out, dtype=np.float32).tofile(a.dump)
    print(json.dumps({"side": side, "model": a.model, "batch": a.batch, "threads": threads,
                      "load_ms": round(load_ms, 3), "first_ms": round(first, 3),
                      "median_ms": round(statistics.median(lat), 3), "min_ms": round(min(lat), 3),
                      "iters": len(lat), "warmup": a.warmup, "cores_busy": round(cores_busy, 2),
                      "base_rss_kib": base_rss, "peak_rss_kib": peak_rss_kib()}))
    sys.stdout.flush()
