#!/usr/bin/python3
"""flops.py - the work in an ONNX model at a batch size, for the benchmark's GFLOP/s column.

    flops.py MODEL.onnx BATCH        prints {"model": ..., "batch": ..., "macs": ..., "gflop": ...}

Counts the multiply-accumulates of Conv, ConvTranspose, Gemm and MatMul (x2 for FLOPs) with the shapes from
ONNX shape inference after the symbolic batch axis of every input is set to BATCH. Everything else (ReLU,
Add, pooling, BatchNorm) is left out: it is a fraction of a percent of these models' FLOPs and runs at
memory speed, not FMA speed, so it does not belong in a comparison with the FMA peak.
"""
import json
import sys

import onnx
import onnx.shape_inference


def fail(msg):
    print(f"flops.py: {msg}", file=sys.stderr)
    sys.exit(1)


def shapes_at_batch(model, batch):
    g = model.graph
    inits = {t.name for t in g.initializer}
    for v in list(g.input) + list(g.output):
        if v.name in inits:
            continue
        dims = v.type.tensor_type.shape.dim
        if len(dims) and not dims[0].HasField("dim_value"):
            dims[0].dim_value = batch  # clears dim_param: the field is a oneof
    del g.value_info[:]  # the exporter's own entries may keep the symbol
    inferred = onnx.shape_inference.infer_shapes(model).graph
    shapes = {t.name: list(t.dims) for t in g.initializer}
    for v in list(inferred.input) + list(inferred.value_info) + list(inferred.output):
        d = v.type.tensor_type.shape.dim
        if all(x.HasField("dim_value") for x in d):
            shapes[v.name] = [x.dim_value for x in d]
    return shapes


def attr(node, name, default):
    for a in node.attribute:
        if a.name == name:
            return onnx.helper.get_attribute_value(a)
    return default


def count_macs(model, batch):
    shapes = shapes_at_batch(model, batch)
    alias = {n.output[0]: n.input[0] for n in model.graph.node if n.op_type == "Identity"}

    def shape(name, node):
        while name not in shapes and name in alias:
            name = alias[name]
        if name not in shapes:
            fail(f"node {node.name or node.op_type}: no static shape for '{name}' after shape inference")
        return shapes[name]

    macs = 0
    for n in model.graph.node:
        if n.op_type == "Conv":
            w, y = shape(n.input[1], n), shape(n.output[0], n)
            # each output element: (Cin / group) x kernel MACs = the weight's per-filter size
            per_out = 1
            for d in w[1:]:
                per_out *= d
            out = 1
            for d in y:
                out *= d
            macs += out * per_out
        elif n.op_type == "ConvTranspose":
            # each input element feeds (Cout / group) x kernel outputs: the weight is [Cin, Cout / group, k...]
            x, w = shape(n.input[0], n), shape(n.input[1], n)
            per_in = 1
            for d in w[1:]:
                per_in *= d
            inp = 1
            for d in x:
                inp *= d
            macs += inp * per_in
        elif n.op_type == "Gemm":
            a, b = shape(n.input[0], n), shape(n.input[1], n)
            m, k = (a[1], a[0]) if attr(n, "transA", 0) else (a[0], a[1])
            nn = b[0] if attr(n, "transB", 0) else b[1]
            macs += m * k * nn
        elif n.op_type == "MatMul":
            a, b, y = shape(n.input[0], n), shape(n.input[1], n), shape(n.output[0], n)
            k = a[-1]
            out = 1
            for d in y:
                out *= d
            macs += out * k
    return macs


def main():
    if len(sys.argv) != 3 or not sys.argv[2].isdigit() or int(sys.argv[2]) < 1:
        print("usage: flops.py MODEL.onnx BATCH", file=sys.stderr)
        sys.exit(2)
    path, batch = sys.argv[1], int(sys.argv[2])
    try:
        model = onnx.load(path)
    except Exception as e:  # onnx raises several types for a bad file
        fail(f"cannot read '{path}': {e}")
    macs = count_macs(model, batch)
    print(json.dumps({"model": path, "batch": batch, "macs": macs, "gflop": round(2 * macs / 1e9, 4)}))


if __name__ == "__main__":
    main()
