#!/usr/bin/python3
"""quantize_qdq.py - makes a quantised (QDQ) copy of a float32 ONNX CNN, the
way post-training static quantisation tools write them, for openacl's int8
tests and benchmark rows.

    PYTHONPATH=BUILD/python /usr/bin/python3 scripts/models/quantize_qdq.py IN.onnx OUT.onnx
        [--calibration N] [--seed S] [--input-shape 3,224,224]

What it writes (opset 13, the input model's):
  - every Conv's weight becomes int8 constants with one scale per output
    channel (symmetric: scale = max |w| / 127, zero point 0), read through a
    DequantizeLinear along axis 0; biases stay float32;
  - every Conv's data input, and every Conv's output (after the Relu or
    Clip that follows it when that is its only reader), passes through
    QuantizeLinear -> DequantizeLinear with one scale per tensor: uint8 for
    tensors that calibration never saw negative (scale = max / 255), int8
    otherwise (scale = max |x| / 127); zero points 0.
This is the layout ONNX Runtime's own quantiser produces for a CNN (it fuses
DequantizeLinear -> Conv -> QuantizeLinear into one int8 convolution), so
both runtimes run the same int8 network.

Calibration: the ranges come from running the float32 model on N seeded
random images (normal, per-channel ImageNet statistics, as
export_models.py's inputs) through openacl itself, with the tensors of
interest added as graph outputs (openacl's float32 results are checked
against PyTorch by the real-model tests).  Needs the openacl Python package
(PYTHONPATH=BUILD/python), python3-onnx and python3-numpy.
"""
import argparse
import os
import sys
import tempfile

try:
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper
except ImportError as e:
    sys.exit("quantize_qdq: %s; install python3-onnx python3-numpy and run with /usr/bin/python3" % e)

PROG = "quantize_qdq"


def consumers(graph):
    out = {}
    for n in graph.node:
        for t in n.input:
            out.setdefault(t, []).append(n)
    return out


def quant_points(graph):
    """The tensors to quantise: each Conv's data input, and each Conv's
    output, taken after the Relu / Clip that alone reads it."""
    cons = consumers(graph)
    points = []
    for n in graph.node:
        if n.op_type != "Conv":
            continue
        points.append(n.input[0])
        y = n.output[0]
        readers = cons.get(y, [])
        if len(readers) == 1 and readers[0].op_type in ("Relu", "Clip"):
            y = readers[0].output[0]
        points.append(y)
    seen, uniq = set(), []
    for p in points:
        if p not in seen:
            seen.add(p)
            uniq.append(p)
    return uniq


def calibration_images(n, shape, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n,) + shape).astype(np.float32)
    if shape[0] == 3:
        mean = np.array([0.485, 0.456, 0.406], np.float32).reshape(3, 1, 1)
        std = np.array([0.229, 0.224, 0.225], np.float32).reshape(3, 1, 1)
        x = x * std * 2 + mean  # a spread like normalised photographs
    return x


def ranges(model, points, images):
    """min and max of every point over the images, computed by openacl."""
    try:
        import openacl
    except ImportError as e:
        sys.exit("%s: cannot import openacl (%s): set PYTHONPATH to the build's python directory" % (PROG, e))
    m = onnx.ModelProto()
    m.CopyFrom(model)
    del m.graph.output[:]
    for p in points:
        m.graph.output.append(helper.make_empty_tensor_value_info(p))
        m.graph.output[-1].type.tensor_type.elem_type = TensorProto.FLOAT
    lo = {p: np.inf for p in points}
    hi = {p: -np.inf for p in points}
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "calibrate.onnx")
        onnx.save(m, path)
        with openacl.Session(path) as s:
            for i in range(0, len(images), 4):
                outs = s.run([images[i:i + 4]])
                for p, y in zip(points, outs):
                    lo[p] = min(lo[p], float(y.min()))
                    hi[p] = max(hi[p], float(y.max()))
    return lo, hi


def quantize(model, lo, hi, points):
    g = model.graph
    inits = {t.name: t for t in g.initializer}
    cons = consumers(g)
    new_nodes = []
    rewire = {}  # tensor -> its DequantizeLinear output
    params = []
    for p in points:
        neg = lo[p] < 0
        top = max(abs(lo[p]), abs(hi[p])) if neg else hi[p]
        scale = np.float32(max(top, 1e-8) / (127.0 if neg else 255.0))
        zp_type = TensorProto.INT8 if neg else TensorProto.UINT8
        base = p.replace("/", "_").strip("_")
        params.append(numpy_helper.from_array(np.array(scale, np.float32), base + "_qscale"))
        params.append(helper.make_tensor(base + "_qzero", zp_type, [], [0]))
        q, dq = base + "_quantized", base + "_dequantized"
        new_nodes.append((p, [helper.make_node("QuantizeLinear", [p, base + "_qscale", base + "_qzero"], [q],
                                               name=base + "_QuantizeLinear"),
                              helper.make_node("DequantizeLinear", [q, base + "_qscale", base + "_qzero"], [dq],
                                               name=base + "_DequantizeLinear")]))
        rewire[p] = dq
    # weights: int8 per output channel
    for n in g.node:
        if n.op_type != "Conv" or n.input[1] not in inits:
            continue
        w = numpy_helper.to_array(inits[n.input[1]]).astype(np.float32)
        s = np.abs(w.reshape(w.shape[0], -1)).max(axis=1) / 127.0
        s = np.maximum(s, 1e-12).astype(np.float32)
        w8 = np.clip(np.rint(w / s.reshape((-1,) + (1,) * (w.ndim - 1))), -127, 127).astype(np.int8)
        base = n.input[1].replace("/", "_").strip("_")
        params.append(numpy_helper.from_array(w8, base + "_int8"))
        params.append(numpy_helper.from_array(s, base + "_wscale"))
        new_nodes.append((None, [helper.make_node("DequantizeLinear", [base + "_int8", base + "_wscale"],
                                                  [base + "_wdequantized"], name=base + "_DequantizeLinear",
                                                  axis=0)]))
        n.input[1] = base + "_wdequantized"
    # readers of a quantised tensor read its DequantizeLinear instead (graph outputs stay as they are)
    for n in g.node:
        for i, t in enumerate(n.input):
            if t in rewire:
                n.input[i] = rewire[t]
    # node order: each Q/DQ pair right after the producer of its tensor (the weights' first)
    producer = {o: k for k, n in enumerate(g.node) for o in n.output}
    placed = {}
    for t, nodes in new_nodes:
        placed.setdefault(producer.get(t, -1) if t is not None else -1, []).extend(nodes)
    order = list(placed.get(-1, []))
    for k, n in enumerate(g.node):
        order.append(n)
        order.extend(placed.get(k, []))
    del g.node[:]
    g.node.extend(order)
    used = {t for n in g.node for t in n.input}
    keep = [t for t in g.initializer if t.name in used]
    del g.initializer[:]
    g.initializer.extend(keep)
    g.initializer.extend(params)
    return model


def main():
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--calibration", type=int, default=16, help="images to calibrate on (default 16)")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--input-shape", default="3,224,224", help="one item's shape (default 3,224,224)")
    a = ap.parse_args()
    model = onnx.load(a.input)
    points = quant_points(model.graph)
    if not points:
        sys.exit("%s: %s has no Conv to quantise" % (PROG, a.input))
    shape = tuple(int(d) for d in a.input_shape.split(","))
    lo, hi = ranges(model, points, calibration_images(a.calibration, shape, a.seed))
    quantize(model, lo, hi, points)
    onnx.checker.check_model(model)
    onnx.save(model, a.output)
    print("%s: %s -> %s: %d tensors and %d convolutions quantised" %
          (PROG, a.input, a.output, len(points), sum(1 for n in model.graph.node if n.op_type == "Conv")),
          file=sys.stderr)


if __name__ == "__main__":
    main()
