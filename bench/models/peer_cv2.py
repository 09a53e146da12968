#!/usr/bin/python3
"""peer_cv2.py - OpenCV DNN's side of the model benchmark (bench/models/run.sh).

    peer_cv2.py MODEL.onnx BATCH ITERATIONS WARMUP [--threads N] [--dump FILE] [--input-shape DIMS]

Reads the ONNX file with cv2.dnn.readNetFromONNX (timed as load_ms) and runs it on OpenCV's own CPU
backend with cv2.setNumThreads(N). OpenCV 4.6 cannot read Clip from opset 11 on, so run.sh gives it
MobileNetV2 exported at opset 10. OpenCV prepares its layers at the first forward(), which first_ms shows.

OpenCV 4.6 also refuses an Identity node whose input is an initializer ("inputs.size()" assertion), which
PyTorch 1.13's exporter can write for a weight (seen when exporting outside torch.no_grad()). Such nodes are replaced by a copy of the initializer
under the Identity's output name before OpenCV reads the model from memory: the same computation, and the
only change made to the file. load_ms then includes that rewrite (onnx.load and serialisation).
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_common  # noqa: E402

prog = "peer_cv2"
a = peer_common.parse_args(prog)

import cv2  # noqa: E402
import numpy as np  # noqa: E402

cv2.setNumThreads(a.threads)


def load(path):
    """cv2.dnn.readNetFromONNX, after rewriting Identity-of-initializer nodes if the file has any."""
    import onnx

    m = onnx.load(path)
    g = m.graph
    inits = {t.name: t for t in g.initializer}
    consts = [n for n in g.node if n.op_type == "Identity" and n.input[0] in inits]
    if not consts:
        return cv2.dnn.readNetFromONNX(path)
    for n in consts:
        t = onnx.TensorProto()
        t.CopyFrom(inits[n.input[0]])
        t.name = n.output[0]
        g.initializer.append(t)
        g.node.remove(n)
    return cv2.dnn.readNetFromONNX(np.frombuffer(m.SerializeToString(), np.uint8))

x = peer_common.input_array(a.batch, a.input_shape)
base_rss = peer_common.peak_rss_kib()
t0 = peer_common.now_ms()
try:
    net = load(a.model)
except cv2.error as e:
    print(f"{prog}: cv2.dnn.readNetFromONNX('{a.model}') failed: {e}", file=sys.stderr)
    sys.exit(1)
net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)
load_ms = peer_common.now_ms() - t0


def run():
    net.setInput(x)
    return net.forward()


try:
    peer_common.measure("cv2", a, cv2.getNumThreads(), load_ms, base_rss, run)
except cv2.error as e:
    print(f"{prog}: forward() of '{a.model}' at batch {a.batch} failed: {e}", file=sys.stderr)
    sys.exit(1)
