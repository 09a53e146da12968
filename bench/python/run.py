#!/usr/bin/python3
"""run.py - the Python side of the binding benchmark (run.sh): the calls of
call_overhead.c made through `import acl` (pyACL's API) and the pythonic
openacl.Session, printing the same JSON lines.

  run.py make-tiny PATH
      writes the one-node model: Relu, input "x" and output "y", [1,4] float32
  run.py micro TINY_MODEL [--iters N] [--batches B]
      acl.rt.get_device(), a 4-byte acl.rt.memcpy host to device and device to
      host (pinned host memory from acl.rt.malloc_host, and pageable: a numpy
      array's data; and host to device from 8 pageable buffers in turn, each
      on its own page), acl.mdl.execute on TINY_MODEL, a whole run of it (copy in,
      execute, copy out) through acl and through openacl.Session.run, and the
      bare Python loop (no call) for reference; each case a warm-up, then B
      batches of N calls
  run.py resnet-acl MODEL [--iters N] [--warmup W]
      the end-to-end loop of call_overhead.c through acl: acl.rt.memcpy of the
      input, acl.mdl.execute, acl.rt.memcpy of the output into a numpy array
  run.py resnet-session MODEL [--iters N] [--warmup W]
      openacl.Session(MODEL).run([x]) with the same input x

Each timed loop is what a script would write: the function looked up once
into a local, `for _ in itertools.repeat(None, n)`, results kept but checked
only after the loop (the C side ORs its return codes, also checked after).
The garbage collector is off while a loop is timed, as timeit does.
Run with PYTHONPATH holding acl and openacl, OPENACL_EXECUTOR_THREADS set.
"""
import argparse
import gc
import itertools
import json
import statistics
import sys
import time

PROG = "run.py"


def fail(msg):
    sys.exit(f"{PROG}: {msg}")


def make_tiny(path):
    import onnx
    from onnx import TensorProto, helper

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "tiny_relu", [x], [y])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="bench/python")
    model.ir_version = 7
    onnx.checker.check_model(model)
    onnx.save(model, path)


# ---- acl set-up, as a pyACL script does it ------------------------------------------------------------------

def check(what, ret):
    if ret != 0:
        import acl
        fail(f"{what} failed: {ret} {acl.get_recent_err_msg()}")


def setup():
    import acl
    check("acl.init", acl.init())
    check("acl.rt.set_device", acl.rt.set_device(0))
    ctx, ret = acl.rt.create_context(0)
    check("acl.rt.create_context", ret)
    return acl, ctx


class Model:
    """A loaded model with one input and one output, device buffers and datasets;
    a symbolic first input dimension gets `batch` through a tensor descriptor."""

    def __init__(self, acl, path, batch=1):
        self.id, ret = acl.mdl.load_from_file(path)
        check("acl.mdl.load_from_file", ret)
        desc = acl.mdl.create_desc()
        check("acl.mdl.get_desc", acl.mdl.get_desc(desc, self.id))
        if acl.mdl.get_num_inputs(desc) != 1 or acl.mdl.get_num_outputs(desc) != 1:
            fail(f"{path}: want one input and one output")
        in_type = acl.mdl.get_input_data_type(desc, 0)
        self.in_size = acl.mdl.get_input_size_by_index(desc, 0)
        symbolic = self.in_size == 0
        if symbolic:  # the first dimension: the size follows from the dims
            dims, ret = acl.mdl.get_input_dims(desc, 0)
            check("acl.mdl.get_input_dims", ret)
            in_dims = [batch if d < 0 else d for d in dims["dims"]]
            self.in_size = acl.data_type_size(in_type)
            for d in in_dims:
                self.in_size *= d
        self.input = acl.mdl.create_dataset()
        self.output = acl.mdl.create_dataset()
        self.din, ret = acl.rt.malloc(self.in_size, 0)
        check("acl.rt.malloc", ret)
        _, ret = acl.mdl.add_dataset_buffer(self.input, acl.create_data_buffer(self.din, self.in_size))
        check("acl.mdl.add_dataset_buffer", ret)
        if symbolic:  # say the shape
            td = acl.create_tensor_desc(in_type, in_dims, acl.mdl.get_input_format(desc, 0))
            _, ret = acl.mdl.set_dataset_tensor_desc(self.input, td, 0)
            check("acl.mdl.set_dataset_tensor_desc", ret)
            acl.destroy_tensor_desc(td)
        self.out_size = acl.mdl.get_output_size_by_index(desc, 0)
        if self.out_size == 0:  # symbolic too
            dims, ret = acl.mdl.get_output_dims(desc, 0)
            check("acl.mdl.get_output_dims", ret)
            self.out_size = acl.data_type_size(acl.mdl.get_output_data_type(desc, 0))
            for d in dims["dims"]:
                self.out_size *= batch if d < 0 else d
        self.dout, ret = acl.rt.malloc(self.out_size, 0)
        check("acl.rt.malloc", ret)
        _, ret = acl.mdl.add_dataset_buffer(self.output, acl.create_data_buffer(self.dout, self.out_size))
        check("acl.mdl.add_dataset_buffer", ret)
        acl.mdl.destroy_desc(desc)


# ---- micro: single calls ------------------------------------------------------------------------------------
# One function per case, each the plain loop a script would write.

def loop_empty(st, n):
    for _ in itertools.repeat(None, n):
        pass
    return 0


def loop_get_device(st, n):
    f = st.acl.rt.get_device
    r = None
    for _ in itertools.repeat(None, n):
        r = f()
    return r[1]


def loop_memcpy_h2d(st, n):
    f, dev, host = st.acl.rt.memcpy, st.dev, st.host
    r = 0
    for _ in itertools.repeat(None, n):
        r |= f(dev, 4, host, 4, 1)
    return r


def loop_memcpy_d2h(st, n):
    f, dev, host = st.acl.rt.memcpy, st.dev, st.host
    r = 0
    for _ in itertools.repeat(None, n):
        r |= f(host, 4, dev, 4, 2)
    return r


def loop_memcpy_h2d_pageable(st, n):
    f, dev, host = st.acl.rt.memcpy, st.dev, st.pageable
    r = 0
    for _ in itertools.repeat(None, n):
        r |= f(dev, 4, host, 4, 1)
    return r


def loop_memcpy_d2h_pageable(st, n):
    f, dev, host = st.acl.rt.memcpy, st.dev, st.pageable
    r = 0
    for _ in itertools.repeat(None, n):
        r |= f(host, 4, dev, 4, 2)
    return r


def loop_memcpy_h2d_rotating(st, n):
    f, dev = st.acl.rt.memcpy, st.dev
    r = 0
    for host in itertools.islice(itertools.cycle(st.rot), n):
        r |= f(dev, 4, host, 4, 1)
    return r


def loop_execute(st, n):
    f, mid, i, o = st.acl.mdl.execute, st.tiny.id, st.tiny.input, st.tiny.output
    r = 0
    for _ in itertools.repeat(None, n):
        r |= f(mid, i, o)
    return r


def loop_run_tiny(st, n):
    memcpy, execute = st.acl.rt.memcpy, st.acl.mdl.execute
    mid, i, o, din, dout, x, y = st.tiny.id, st.tiny.input, st.tiny.output, st.tiny.din, st.tiny.dout, st.x, st.y
    r = 0
    for _ in itertools.repeat(None, n):
        r |= memcpy(din, 16, x, 16, 1)
        r |= execute(mid, i, o)
        r |= memcpy(y, 16, dout, 16, 2)
    return r


def loop_session_tiny(st, n):
    run, feed = st.session.run, [st.x_array]
    for _ in itertools.repeat(None, n):
        out = run(feed)
    return 0 if out[0].shape == (1, 4) else 1


MICRO = [
    # name, loop, divisor of --iters (as call_overhead.c)
    ("python_loop", loop_empty, 1),
    ("get_device", loop_get_device, 1),
    ("memcpy_h2d_4", loop_memcpy_h2d, 1),
    ("memcpy_d2h_4", loop_memcpy_d2h, 1),
    ("memcpy_h2d_4_pageable", loop_memcpy_h2d_pageable, 1),
    ("memcpy_d2h_4_pageable", loop_memcpy_d2h_pageable, 1),
    ("memcpy_h2d_4_rotating", loop_memcpy_h2d_rotating, 1),
    ("execute_tiny", loop_execute, 20),
    ("run_tiny", loop_run_tiny, 20),
    ("session_run_tiny", loop_session_tiny, 20),  # last: a Session makes its own context current
]


class State:
    pass


def run_micro(tiny, iters, batches):
    st = State()
    acl, ctx = setup()
    st.acl = acl
    st.host, ret = acl.rt.malloc_host(4)
    check("acl.rt.malloc_host", ret)
    st.dev, ret = acl.rt.malloc(4, 0)
    check("acl.rt.malloc", ret)
    import numpy as np
    st.pageable_array = np.zeros(1, np.float32)  # kept alive: its data is the pageable buffer
    st.pageable = st.pageable_array.ctypes.data
    st.rot_array = np.zeros(8 * 4096 + 4096, np.uint8)  # 8 buffers, each on its own page
    base = (st.rot_array.ctypes.data + 4095) // 4096 * 4096
    st.rot = [base + k * 4096 for k in range(8)]
    st.x_array = np.zeros((1, 4), np.float32)
    st.y_array = np.zeros((1, 4), np.float32)
    st.x, st.y = st.x_array.ctypes.data, st.y_array.ctypes.data
    st.tiny = Model(acl, tiny)
    if st.tiny.in_size != 16 or st.tiny.out_size != 16:
        fail(f"{tiny}: want a [1,4] float32 input and output")
    zeros = bytes(16)
    check("acl.rt.memcpy", acl.rt.memcpy(st.tiny.din, 16, acl.util.bytes_to_ptr(zeros), 16, 1))
    check("acl.rt.memcpy", acl.rt.memcpy(st.host, 4, acl.util.bytes_to_ptr(zeros), 4, 0))
    try:
        import openacl
        st.session = openacl.Session(tiny, device=0)
    except Exception as e:  # not there yet: leave its row out
        print(f"{PROG}: no openacl.Session ({type(e).__name__}: {e}); session_run_tiny left out", file=sys.stderr)
        st.session = None
    check("acl.rt.set_context", acl.rt.set_context(ctx))  # the Session made its own context current
    for name, loop, scale in MICRO:
        if name.startswith("session") and st.session is None:
            continue
        n = max(iters // scale, 1)
        check(name, loop(st, n // 10 + 1))  # warm-up
        ns = []
        for _ in range(batches):
            gc.disable()
            t0 = time.perf_counter_ns()
            ret = loop(st, n)
            t1 = time.perf_counter_ns()
            gc.enable()
            check(name, ret)
            ns.append((t1 - t0) / n)
        print(json.dumps({"side": "py", "case": name, "iters": n, "batches": batches,
                          "ns_median": round(statistics.median(ns), 2), "ns_min": round(min(ns), 2)}), flush=True)
    if st.session is not None:
        st.session.close()
        check("acl.rt.set_context", acl.rt.set_context(ctx))
    check("acl.mdl.unload", acl.mdl.unload(st.tiny.id))
    acl.finalize()


# ---- resnet: the end-to-end loop ----------------------------------------------------------------------------

def bench_input(shape):
    """The input of bench/models and call_overhead.c: element i is (i * 7919 mod 2001) / 1000 - 1."""
    import numpy as np
    i = np.arange(int(np.prod(shape)), dtype=np.int64)
    return ((i * 7919 % 2001).astype(np.float64) / 1000.0 - 1.0).astype(np.float32).reshape(shape)


def report(case, e2e, compute, out_sum, outside=None):
    line = {"side": "py", "case": case, "iters": len(e2e), "ms_median": round(statistics.median(e2e), 4),
            "ms_min": round(min(e2e), 4), "ms_mean": round(statistics.fmean(e2e), 4)}
    if compute:
        line.update({"compute_ms_median": round(statistics.median(compute), 4),
                     "compute_ms_min": round(min(compute), 4), "compute_ms_mean": round(statistics.fmean(compute), 4),
                     "outside_us_median": round(statistics.median(outside), 2)})
    line["out_sum"] = float(f"{out_sum:.6g}")
    print(json.dumps(line), flush=True)


def run_resnet_acl(path, iters, warmup):
    import numpy as np
    acl, _ = setup()
    m = Model(acl, path)
    # Host buffers from acl.rt.malloc_host, as on the C side, seen through numpy.
    hin, ret = acl.rt.malloc_host(m.in_size)
    check("acl.rt.malloc_host", ret)
    hout, ret = acl.rt.malloc_host(m.out_size)
    check("acl.rt.malloc_host", ret)
    x = bench_input([m.in_size // 4])
    check("acl.rt.memcpy", acl.rt.memcpy(hin, m.in_size, x.ctypes.data, m.in_size, 0))
    out = np.zeros(m.out_size // 4, np.float32)
    memcpy, execute = acl.rt.memcpy, acl.mdl.execute
    din, dout, in_size, out_size, mid, inp, outp = m.din, m.dout, m.in_size, m.out_size, m.id, m.input, m.output
    e2e, compute, outside = [], [], []
    clock = time.perf_counter_ns
    gc.disable()
    for r in range(-1 - warmup, iters):
        t0 = clock()
        ret = memcpy(din, in_size, hin, in_size, 1)
        t1 = clock()
        ret |= execute(mid, inp, outp)
        t2 = clock()
        ret |= memcpy(hout, out_size, dout, out_size, 2)
        t3 = clock()
        if ret:
            check("the loop", ret)
        if r >= 0:
            e2e.append((t3 - t0) / 1e6)
            compute.append((t2 - t1) / 1e6)
            outside.append(((t3 - t0) - (t2 - t1)) / 1e3)
    gc.enable()
    check("acl.rt.memcpy", acl.rt.memcpy(out.ctypes.data, out_size, hout, out_size, 0))
    report("resnet18_acl", e2e, compute, float(out.astype(np.float64).sum()), outside)
    check("acl.mdl.unload", acl.mdl.unload(mid))
    acl.finalize()


def run_resnet_session(path, iters, warmup):
    import numpy as np
    import openacl
    s = openacl.Session(path, device=0)
    x = bench_input([1, 3, 224, 224])
    run = s.run
    feed = [x]
    e2e = []
    clock = time.perf_counter_ns
    out = None
    gc.disable()
    for r in range(-1 - warmup, iters):
        t0 = clock()
        out = run(feed)
        t1 = clock()
        if r >= 0:
            e2e.append((t1 - t0) / 1e6)
    gc.enable()
    report("resnet18_session", e2e, None, float(np.asarray(out[0]).astype(np.float64).sum()))


def main():
    p = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    p.add_argument("mode", choices=["make-tiny", "micro", "resnet-acl", "resnet-session"])
    p.add_argument("path")
    p.add_argument("--iters", type=int)
    p.add_argument("--batches", type=int, default=7)
    p.add_argument("--warmup", type=int, default=3)
    a = p.parse_args()
    if a.mode == "make-tiny":
        make_tiny(a.path)
    elif a.mode == "micro":
        run_micro(a.path, a.iters or 100000, a.batches)
    elif a.mode == "resnet-acl":
        run_resnet_acl(a.path, a.iters or 30, a.warmup)
    else:
        run_resnet_session(a.path, a.iters or 30, a.warmup)


if __name__ == "__main__":
    main()
