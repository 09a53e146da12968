#!/usr/bin/python3
"""flops.py - the work in an ONNX model at a batch size, for the benchmark's GFLOP/s column.

    flops.py MODEL.onnx BATCH        prints {"model": ..., "batch": ..., "macs": ..., "gflop": ...}

Counts the multiply-accumulates of Conv, ConvTranspose, Gemm and MatMul (x2 for FLOPs) with the shapes from
ONNX shape inference after the symbolic batch axis of every input is set to BATCH, and after the shape
arithmetic in the graph (Shape of a tensor of known shape, Gather, Unsqueeze, Concat, Cast, ... as the exporter
writes for ShuffleNet's channel shuffle and the transformers' reshapes) is folded into constants, which ONNX
1.12's shape inference cannot see through. Everything else (ReLU,
Add, pooling, BatchNorm) is left out: it is a fraction of a percent of these models' FLOPs and runs at
memory speed, not FMA speed, so it does not belong in a comparison with the FMA peak.
"""
import json
import sys

import numpy as np
import onnx
import onnx.numpy_helper
import onnx.shape_inference


def fail(msg):
    print(f"flops.py: {msg}", file=sys.stderr)
    sys.exit(1)


def fold_shape_arithmetic(model):
    """Replaces the nodes that compute shapes (Shape of a tensor whose shape is known, and the small integer
    arithmetic on it: Gather, Unsqueeze, Concat, Cast, ...) by constants, so that shape inference can follow
    them into Reshape and Expand. Returns whether anything changed."""
    g = model.graph
    inferred = onnx.shape_inference.infer_shapes(model).graph
    known = {}
    for v in list(inferred.input) + list(inferred.value_info):
        t = v.type.tensor_type
        if t.HasField("shape") and all(x.HasField("dim_value") for x in t.shape.dim):
            known[v.name] = [x.dim_value for x in t.shape.dim]
    consts = {t.name: onnx.numpy_helper.to_array(t) for t in g.initializer}

    def fold(n, x):
        a = {at.name: onnx.helper.get_attribute_value(at) for at in n.attribute}
        op = n.op_type
        if op == "Constant":
            return onnx.numpy_helper.to_array(a["value"])
        if op == "Shape":
            return np.array(known[n.input[0]], np.int64)
        if op == "Gather":
            return np.take(x[0], x[1], axis=a.get("axis", 0))
        if op == "Unsqueeze":
            axes = a["axes"] if "axes" in a else list(x[1])
            y = x[0]
            for ax in sorted(int(v) % (y.ndim + len(axes)) for v in axes):
                y = np.expand_dims(y, ax)
            return y
        if op == "Squeeze":
            axes = a["axes"] if "axes" in a else (list(x[1]) if len(x) > 1 else None)
            return np.squeeze(x[0], axis=tuple(axes) if axes is not None else None)
        if op == "Concat":
            return np.concatenate(x, axis=a["axis"])
        if op == "Cast":
            return x[0].astype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[a["to"]])
        if op in ("Add", "Sub", "Mul", "Equal"):
            return {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Equal": np.equal}[op](x[0], x[1])
        if op == "Div":
            return x[0] // x[1] if np.issubdtype(x[0].dtype, np.integer) else x[0] / x[1]
        if op == "Where":
            return np.where(x[0], x[1], x[2])
        if op == "ConstantOfShape":
            v = onnx.numpy_helper.to_array(a["value"]) if "value" in a else np.zeros(1, np.float32)
            return np.full(tuple(x[0]), v.reshape(-1)[0], v.dtype)
        if op == "Slice":
            sl = [slice(None)] * x[0].ndim
            axes = list(x[3]) if len(x) > 3 else list(range(len(x[1])))
            steps = list(x[4]) if len(x) > 4 else [1] * len(axes)
            for ax, st, en, sp in zip(axes, x[1], x[2], steps):
                sl[int(ax)] = slice(int(st), int(en), int(sp))
            return x[0][tuple(sl)]
        return None

    changed = False
    for n in list(g.node):
        if n.op_type == "Shape" and n.input[0] in known:
            ins = []
        elif n.op_type != "Shape" and all(i in consts for i in n.input if i):
            ins = [consts[i] for i in n.input if i]
            if n.op_type not in ("Constant", "ConstantOfShape") and (not ins or max(v.size for v in ins) > 64):
                continue  # weights and their arithmetic are no shapes
        else:
            continue
        try:
            y = fold(n, ins)
        except Exception:
            y = None
        if y is None or len(n.output) != 1:
            continue
        y = np.asarray(y)
        consts[n.output[0]] = y
        g.initializer.append(onnx.numpy_helper.from_array(y, n.output[0]))
        g.node.remove(n)
        changed = True
    return changed


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
    for _ in range(50):
        if not fold_shape_arithmetic(model):
            break
        del g.value_info[:]
    inferred = onnx.shape_inference.infer_shapes(model).graph
    shapes = {t.name: list(t.dims) for t in g.initializer}
    for v in list(inferred.input) + list(inferred.value_info) + list(inferred.output):
        if not v.type.tensor_type.HasField("shape"):
            continue  # rank unknown
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
            # M x N from the output, K from the weight: Y [M, N] = A [M, K] B [K, N] (B transposed: [N, K])
            b, y = shape(n.input[1], n), shape(n.output[0], n)
            k = b[1] if attr(n, "transB", 0) else b[0]
            macs += y[0] * y[1] * k
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
