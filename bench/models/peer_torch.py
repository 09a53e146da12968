#!/usr/bin/python3
"""peer_torch.py - PyTorch's side of the model benchmark (bench/models/run.sh).

    peer_torch.py MODEL.onnx BATCH ITERATIONS WARMUP [--threads N] [--dump FILE] [--input-shape DIMS]
                  [--arch NAME]

Runs the model of the same architecture (NAME, default the file's stem) in eager mode on the CPU with
torch.set_num_threads(N). A torchvision model whose layers are all Conv + BatchNorm pairs and Linear
(resnet18, resnet50, mobilenet_v2, shufflenet_v2_x1_0, resnext50_32x4d) is built from torchvision and
given the ONNX file's weights. Any other model of scripts/models/export_models.py (those with Conv layers
that have no BatchNorm, BatchNorms before their Conv, LayerNorms, or that are defined in that script:
efficientnet_b0, densenet121, convnext_tiny, mobilenet_v3_large, regnet_y_400mf, tiny_transformer,
bert_base, ...) is rebuilt the way the export script builds it (export_models.build: the same seed, the
batch norms calibrated on the same seeded images), which gives the file's weights up to the rounding of
the calibration; load_ms then includes that calibration.

Why the ONNX weights rather than rebuilding the model with the export script's seed: the timing only
needs the same architecture (weight values do not change the work of a dense CPU model), but the same
weights make the three sides' outputs comparable, which run.sh checks, and they do not depend on how the
export script seeds and calibrates its models. The exporter folds each BatchNorm into the preceding Conv,
so the Conv takes the folded weight and the BatchNorm becomes "add the folded bias" (weight 1, mean 0,
variance 1 - eps); torch still runs every BatchNorm layer, as a torchvision user's model does. An ONNX file
that keeps its BatchNormalization nodes is loaded as is. load_ms covers reading the ONNX file, building
the module and copying the weights.
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_common  # noqa: E402

prog = "peer_torch"
a = peer_common.parse_args(prog, lambda p: p.add_argument("--arch", help="torchvision model name"))

import numpy as np  # noqa: E402
import onnx  # noqa: E402
import onnx.numpy_helper  # noqa: E402
import torch  # noqa: E402
import torchvision  # noqa: E402

torch.set_num_threads(a.threads)


def fail(msg):
    print(f"{prog}: {msg}", file=sys.stderr)
    sys.exit(1)


def onnx_layers(path):
    """The Conv and Gemm nodes in graph order with their weights (Identity chains resolved)."""
    g = onnx.load(path).graph
    values = {t.name: onnx.numpy_helper.to_array(t) for t in g.initializer}
    alias, consumers = {}, {}
    for n in g.node:
        if n.op_type == "Identity":
            alias[n.output[0]] = n.input[0]
        if n.op_type == "Constant":
            for at in n.attribute:
                if at.name == "value":
                    values[n.output[0]] = onnx.numpy_helper.to_array(at.t)
        for i in n.input:
            consumers.setdefault(i, []).append(n)

    def value(name):
        while name in alias:
            name = alias[name]
        if name not in values:
            fail(f"{path}: tensor '{name}' is not a constant; cannot copy it into the torch model")
        return values[name]

    convs, gemms = [], []
    for n in g.node:
        if n.op_type == "Conv":
            bn = None
            nxt = consumers.get(n.output[0], [])
            if len(nxt) == 1 and nxt[0].op_type == "BatchNormalization":
                b = nxt[0]
                eps = next((at.f for at in b.attribute if at.name == "epsilon"), 1e-5)
                bn = [value(x) for x in b.input[1:5]] + [eps]
            convs.append((value(n.input[1]), value(n.input[2]) if len(n.input) > 2 and n.input[2] else None, bn))
        elif n.op_type == "Gemm":
            tb = next((at.i for at in n.attribute if at.name == "transB"), 0)
            w = value(n.input[1])
            gemms.append((w if tb else w.T, value(n.input[2]) if len(n.input) > 2 else None))
    return convs, gemms


def copy(dst, src, what):
    src = torch.from_numpy(np.array(src, dtype=np.float32))  # a writable copy
    if tuple(dst.shape) != tuple(src.shape):
        fail(f"{what}: the torch model has shape {tuple(dst.shape)}, the ONNX file {tuple(src.shape)}; "
             f"is --arch the file's architecture?")
    dst.copy_(src)


def load(path, arch):
    """torchvision's ARCH with the file's weights, or None if its layers are not Conv + BatchNorm pairs and
    Linear layers matching the file's Conv and Gemm nodes one to one."""
    model = getattr(torchvision.models, arch)(weights=None).eval()
    mods = list(model.modules())
    tconvs = [m for m in mods if isinstance(m, torch.nn.Conv2d)]
    tbns = [m for m in mods if isinstance(m, torch.nn.BatchNorm2d)]
    tfcs = [m for m in mods if isinstance(m, torch.nn.Linear)]
    others = [m for m in mods if isinstance(m, (torch.nn.LayerNorm, torch.nn.modules.batchnorm._BatchNorm))
              and not isinstance(m, torch.nn.BatchNorm2d)]
    if len(tbns) != len(tconvs) or others:
        return None
    convs, gemms = onnx_layers(path)
    if len(tconvs) != len(convs) or len(tfcs) != len(gemms):
        fail(f"{path}: {len(convs)} Conv and {len(gemms)} Gemm nodes, but torchvision's {arch} has "
             f"{len(tconvs)} Conv2d, {len(tbns)} BatchNorm2d and {len(tfcs)} Linear layers; pass --arch")
    with torch.no_grad():
        # Modules register in the order the exporter traced them, so the k-th Conv node is the k-th Conv2d
        # and each Conv2d of these models is followed by its BatchNorm2d; copy() checks every shape.
        for k, ((w, b, bn), conv, norm) in enumerate(zip(convs, tconvs, tbns)):
            copy(conv.weight, w, f"Conv {k} weight")
            if conv.bias is not None:
                copy(conv.bias, b if b is not None else np.zeros(w.shape[0], np.float32), f"Conv {k} bias")
            elif b is not None and bn is not None:
                fail(f"Conv {k} has a bias and a BatchNormalization; torchvision's {arch} does not")
            if bn is not None:
                scale, shift, mean, var, eps = bn
                copy(norm.weight, scale, f"BatchNorm {k} scale")
                copy(norm.bias, shift, f"BatchNorm {k} bias")
                copy(norm.running_mean, mean, f"BatchNorm {k} mean")
                copy(norm.running_var, var, f"BatchNorm {k} variance")
                norm.eps = float(eps)
            else:  # folded: y = conv(x) + b, written as a BatchNorm with unit scale
                n = w.shape[0]
                copy(norm.weight, np.ones(n, np.float32), f"BatchNorm {k} scale")
                copy(norm.bias, b if b is not None else np.zeros(n, np.float32), f"BatchNorm {k} bias")
                copy(norm.running_mean, np.zeros(n, np.float32), f"BatchNorm {k} mean")
                copy(norm.running_var, np.full(n, 1.0 - norm.eps, np.float32), f"BatchNorm {k} variance")
        for k, ((w, b), fc) in enumerate(zip(gemms, tfcs)):
            copy(fc.weight, w, f"Gemm {k} weight")
            copy(fc.bias, b, f"Gemm {k} bias")
    return model


def rebuild(arch):
    """The model as scripts/models/export_models.py builds it, or None if that script does not have it."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "models"))
    import export_models

    if arch not in export_models.MODELS:
        return None
    model, _ = export_models.build(arch)
    return model


arch = a.arch or os.path.splitext(os.path.basename(a.model))[0]
x = torch.from_numpy(peer_common.input_array(a.batch, a.input_shape))
base_rss = peer_common.peak_rss_kib()
t0 = peer_common.now_ms()
model = load(a.model, arch) if hasattr(torchvision.models, arch) else None
if model is None:
    with torch.no_grad():
        model = rebuild(arch)
if model is None:
    fail(f"neither torchvision nor scripts/models/export_models.py has a model '{arch}'; pass --arch NAME")
load_ms = peer_common.now_ms() - t0


def run():
    with torch.inference_mode():
        return model(x).numpy()


peer_common.measure("torch", a, torch.get_num_threads(), load_ms, base_rss, run)
