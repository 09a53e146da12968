#!/usr/bin/python3
"""export_models.py - exports real network architectures from PyTorch to ONNX,
with PyTorch's outputs as references, for openacl's real-model tests
(tests/models/real_models.c) and benchmarks.  No network: the weights are
torchvision's default random initialisation under fixed seeds, with batch-norm
statistics measured on seeded random images so that activations have a
realistic spread (see docs/model-tests.md).

  /usr/bin/python3 scripts/models/export_models.py --out DIR [--opset 13]
      [--models a,b,...] [--batches 1,8] [--refs]

Writes DIR/<model>.onnx (input "input", output "output", the batch axis
symbolic, named "batch"): the image models take [batch,3,224,224] and give
[batch,1000]; the BERT-shaped encoders take token embeddings
[batch,128,768] and give the last hidden states [batch,128,768].  Without
--models, the models of the real-model tests (TEST_MODELS); the others
(bert_base: 340 MB of weights) only on request.  With --refs, for
each batch size N: DIR/<model>.b<N>.input.bin and DIR/<model>.b<N>.output.bin
(raw little-endian float32, C order) and one line in DIR/manifest.tsv:
  <model file> TAB <N> TAB <input shape> TAB <output shape>
shapes written as comma-separated dimensions, e.g. 8,3,224,224.

Needs Debian's python3-torch, python3-torchvision, python3-onnx and
python3-numpy (scripts/install-deps.sh installs them).
"""
import argparse
import copy
import math
import os
import sys
import time
import warnings

try:
    import numpy as np
    import onnx
    import torch
    import torch.nn as nn
    import torchvision
except ImportError as e:  # say what to install, not just the traceback
    sys.exit("export_models: %s; install python3-torch python3-torchvision python3-onnx "
             "python3-numpy (scripts/install-deps.sh) and run with /usr/bin/python3" % e)

PROG = "export_models"


class Block(nn.Module):
    """A pre-norm transformer encoder layer written out op by op, so that the
    export shows LayerNorm, MatMul, Softmax, Transpose and GELU (Erf) rather
    than one fused attention operator."""

    def __init__(self, width, heads, mlp):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.norm2 = nn.LayerNorm(width)
        self.fc1 = nn.Linear(width, mlp)
        self.act = nn.GELU()  # exact GELU: exported with Erf
        self.fc2 = nn.Linear(mlp, width)

    def forward(self, x):
        b, t, c = x.shape
        h = self.heads
        qkv = self.qkv(self.norm1(x)).reshape(b, t, 3, h, c // h).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]  # each [b, h, t, c/h]
        att = torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(c // h))
        att = att.softmax(dim=-1)
        y = torch.matmul(att, v).transpose(1, 2).reshape(b, t, c)
        x = x + self.proj(y)
        return x + self.fc2(self.act(self.fc1(self.norm2(x))))


class TinyTransformer(nn.Module):
    """A small ViT-style classifier: 16x16 patch embedding by a strided
    convolution, a class token concatenated in front, learned position
    embeddings, 4 pre-norm layers of width 192 with 3 heads, a linear head on
    the class token."""

    def __init__(self, image=224, patch=16, width=192, depth=4, heads=3, mlp=768, classes=1000):
        super().__init__()
        tokens = (image // patch) ** 2 + 1
        self.embed = nn.Conv2d(3, width, patch, stride=patch)
        self.cls = nn.Parameter(torch.zeros(1, 1, width))
        self.pos = nn.Parameter(torch.zeros(1, tokens, width))
        nn.init.trunc_normal_(self.cls, std=0.02)
        nn.init.trunc_normal_(self.pos, std=0.02)
        self.blocks = nn.Sequential(*[Block(width, heads, mlp) for _ in range(depth)])
        self.norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, classes)

    def forward(self, x):
        x = self.embed(x).flatten(2).transpose(1, 2)  # [b, patches, width]
        cls = self.cls.expand(x.shape[0], -1, -1)
        x = torch.cat([cls, x], dim=1) + self.pos
        x = self.norm(self.blocks(x))
        return self.head(x[:, 0])


class BertLayer(nn.Module):
    """A post-norm BERT encoder layer written out op by op: separate query,
    key and value projections, scaled dot-product attention over all tokens
    (no mask), the output projection, residual + LayerNorm, then a GELU
    (exact, Erf) feed-forward block, residual + LayerNorm."""

    def __init__(self, width, heads, mlp):
        super().__init__()
        self.heads = heads
        self.q = nn.Linear(width, width)
        self.k = nn.Linear(width, width)
        self.v = nn.Linear(width, width)
        self.out = nn.Linear(width, width)
        self.norm1 = nn.LayerNorm(width, eps=1e-12)
        self.fc1 = nn.Linear(width, mlp)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(mlp, width)
        self.norm2 = nn.LayerNorm(width, eps=1e-12)

    def forward(self, x):
        b, t, c = x.shape
        h = self.heads

        def split(y):  # [b, t, c] -> [b, h, t, c/h]
            return y.reshape(b, t, h, c // h).permute(0, 2, 1, 3)

        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        att = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(c // h)
        att = att.softmax(dim=-1)
        y = torch.matmul(att, v).permute(0, 2, 1, 3).reshape(b, t, c)
        x = self.norm1(x + self.out(y))
        return self.norm2(x + self.fc2(self.act(self.fc1(x))))


class BertEncoder(nn.Module):
    """BERT-base's encoder (hidden 768, 12 heads, intermediate 3072, GELU)
    with DEPTH layers, fed the sum of the token, position and segment
    embeddings [batch, tokens, 768] (the embedding lookup, a Gather, is left
    to the caller: its input would be integer ids): the embeddings'
    LayerNorm, then the layers; the output is the last hidden states."""

    def __init__(self, depth=12, width=768, heads=12, mlp=3072):
        super().__init__()
        self.norm = nn.LayerNorm(width, eps=1e-12)
        self.layers = nn.Sequential(*[BertLayer(width, heads, mlp) for _ in range(depth)])

    def forward(self, x):
        return self.layers(self.norm(x))


def convnext_tiny():
    """torchvision's ConvNeXt-T with its layer scales at 0.1 instead of
    torchvision's initial 1e-6: at 1e-6 every block's contribution would sit
    below the tests' tolerance and the blocks would go untested (trained
    ConvNeXt-T layer scales are of order 0.1 to 1)."""
    m = torchvision.models.convnext_tiny(weights=None)
    with torch.no_grad():
        for blk in m.modules():
            if hasattr(blk, "layer_scale"):
                blk.layer_scale.fill_(0.1)
    return m


# name -> (constructor, input): input "image" ([batch,3,224,224], ImageNet-
# normalised seeded images) or "tokens" ([batch,128,768], seeded token
# embeddings).  torchvision 0.14 takes weights=None for "random
# initialisation, download nothing".
MODELS = {
    "resnet18": (lambda: torchvision.models.resnet18(weights=None), "image"),
    "resnet50": (lambda: torchvision.models.resnet50(weights=None), "image"),
    "mobilenet_v2": (lambda: torchvision.models.mobilenet_v2(weights=None), "image"),
    "efficientnet_b0": (lambda: torchvision.models.efficientnet_b0(weights=None), "image"),
    "shufflenet_v2_x1_0": (lambda: torchvision.models.shufflenet_v2_x1_0(weights=None), "image"),
    "tiny_transformer": (lambda: TinyTransformer(), "image"),
    "densenet121": (lambda: torchvision.models.densenet121(weights=None), "image"),
    "convnext_tiny": (convnext_tiny, "image"),
    "mobilenet_v3_large": (lambda: torchvision.models.mobilenet_v3_large(weights=None), "image"),
    "regnet_y_400mf": (lambda: torchvision.models.regnet_y_400mf(weights=None), "image"),
    "resnext50_32x4d": (lambda: torchvision.models.resnext50_32x4d(weights=None), "image"),
    # BERT-base at sequence length 128: 85 M parameters, 340 MB; for the benchmark
    "bert_base": (lambda: BertEncoder(depth=12), "tokens"),
    # the same layers, two of them (57 MB): what the real-model tests run
    "bert_base_l2": (lambda: BertEncoder(depth=2), "tokens"),
}

# The models exported when --models is not given: those of the real-model
# tests (tests/models/real_models.c, run by scripts/test.sh in CI).
TEST_MODELS = [m for m in MODELS if m != "bert_base"]

IMAGE_SIZE = 224
TOKENS, WIDTH = 128, 768

# ImageNet normalisation: the references are fed images as a real
# preprocessing pipeline would give them.
MEAN = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
STD = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)

# 2 x 4 images give each batch norm at least 8 x 7 x 7 = 392 values per
# channel, plenty for a mean and a variance, and keep ResNet-50's calibration
# to seconds on a loaded two-core machine.
CALIBRATION_BATCHES = 2
CALIBRATION_SIZE = 4


def images(n, size, seed):
    """n seeded random images, ImageNet-normalised: smooth colour blobs
    (noise upsampled from 7x7) plus a little pixel noise, so that values span
    roughly [-2, 2.6] per channel as normalised photographs do."""
    g = torch.Generator().manual_seed(seed)
    coarse = torch.rand(n, 3, 7, 7, generator=g)
    x = nn.functional.interpolate(coarse, size=(size, size), mode="bilinear", align_corners=False)
    x = (x + 0.1 * torch.randn(n, 3, size, size, generator=g)).clamp(0.0, 1.0)
    return ((x - MEAN) / STD).contiguous()


def tokens(n, seed):
    """n seeded sequences of token embeddings [n, 128, 768]: what the sum of
    BERT's word, position and segment embeddings looks like (normal, standard
    deviation 0.5 per element, a different offset per sequence)."""
    g = torch.Generator().manual_seed(seed)
    x = 0.5 * torch.randn(n, TOKENS, WIDTH, generator=g) + 0.1 * torch.randn(n, 1, WIDTH, generator=g)
    return x.contiguous()


def inputs(kind, n, seed):
    """The model's input for n images or sequences."""
    return images(n, IMAGE_SIZE, seed) if kind == "image" else tokens(n, seed)


def build(name):
    """The model NAME exactly as it is exported: seeded initialisation, batch
    norms calibrated, eval mode.  bench/models/peer_torch.py rebuilds the
    models it cannot fill from the ONNX file's weights with this."""
    ctor, kind = MODELS[name]
    torch.manual_seed(0)
    model = ctor()
    n_bn = calibrate(model, kind, seed=100)
    return model, n_bn


def calibrate(model, kind, seed):
    """Measures batch-norm statistics on seeded random images: momentum None
    makes the running statistics the plain average over all batches."""
    bns = [m for m in model.modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]
    for m in bns:
        m.reset_running_stats()
        m.momentum = None
    if bns:
        model.train()
        with torch.no_grad():
            for i in range(CALIBRATION_BATCHES):
                model(inputs(kind, CALIBRATION_SIZE, seed + i))
    model.eval()
    return len(bns)


def check_outputs(name, y):
    """Fails loudly on degenerate outputs: a reference that is NaN, constant,
    or the same for every image would let a broken executor pass."""
    a = y.detach().double().numpy()
    problems = []
    if not np.isfinite(a).all():
        problems.append("non-finite values")
    else:
        spread = a.std()
        scale = np.abs(a).max()
        if scale == 0 or spread < 1e-3 * scale or spread < 1e-4:
            problems.append("almost constant (std %.3g, max |y| %.3g)" % (spread, scale))
        if a.shape[0] > 1:
            flat = a.reshape(a.shape[0], -1)
            per_image = np.abs(flat - flat[0:1]).max(axis=1)[1:]
            if per_image.min() < 1e-3 * max(scale, 1e-30):
                problems.append("two images give the same output (difference %.3g)" % per_image.min())
    if problems:
        sys.exit("%s: %s: degenerate outputs: %s; the references would not test anything"
                 % (PROG, name, "; ".join(problems)))
    return a


def float64_reference(name, n, model, x, a):
    """The model's output computed in float64 (for --fp64), after printing
    how far PyTorch's own float32 output a is from it: the rounding error of
    a float32 engine, the scale the tests' tolerance must allow.  Testing
    against this reference shows openacl's own rounding error
    (docs/model-tests.md)."""
    exact = copy.deepcopy(model).double()(x.double()).numpy()
    err = np.abs(a - exact)
    scale = np.abs(exact).max()
    print("  %s batch %d: PyTorch float32 vs float64: max abs error %.3g (%.3g x max |y|)"
          % (name, n, err.max(), err.max() / scale))
    return exact


def shape_text(shape):
    return ",".join(str(d) for d in shape)


def check_onnx(path, opset):
    """The exported file is valid ONNX with the interface the tests rely on."""
    m = onnx.load(path)
    onnx.checker.check_model(m)
    g = m.graph
    inputs = [i for i in g.input if i.name not in {t.name for t in g.initializer}]
    if [i.name for i in inputs] != ["input"] or [o.name for o in g.output] != ["output"]:
        sys.exit("%s: %s: expected one input \"input\" and one output \"output\", got %s -> %s"
                 % (PROG, path, [i.name for i in inputs], [o.name for o in g.output]))
    for v in (inputs[0], g.output[0]):
        d0 = v.type.tensor_type.shape.dim[0]
        if d0.dim_param != "batch":
            sys.exit("%s: %s: the first dimension of %s is not the symbol \"batch\"" % (PROG, path, v.name))
    got = [o.version for o in m.opset_import if o.domain in ("", "ai.onnx")]
    if got != [opset]:
        sys.exit("%s: %s: opset %s, asked for %d" % (PROG, path, got, opset))
    return sorted({n.op_type for n in g.node})


def export(name, out, opset, batches, refs, fp64, manifest):
    """Builds, calibrates and exports one model; with refs, writes its
    inputs and outputs for each batch size and appends their manifest lines."""
    kind = MODELS[name][1]
    t0 = time.time()
    model, n_bn = build(name)
    t_cal = time.time() - t0

    path = os.path.join(out, name + ".onnx")
    example = inputs(kind, 2, seed=7)
    check_outputs(name + " (after calibration)", model(example))
    with torch.no_grad():
        torch.onnx.export(model, example, path, opset_version=opset, do_constant_folding=True,
                          input_names=["input"], output_names=["output"],
                          dynamic_axes={"input": {0: "batch"}, "output": {0: "batch"}})
    ops = check_onnx(path, opset)
    t_exp = time.time() - t0 - t_cal

    lines = []
    if refs:
        for n in batches:
            x = inputs(kind, n, seed=1000 + n)
            with torch.no_grad():
                y = model(x)
            a = check_outputs("%s batch %d" % (name, n), y)
            if fp64:
                a = float64_reference(name, n, model, x, a)
            stem = os.path.join(out, "%s.b%d" % (name, n))
            x.numpy().astype("<f4").tofile(stem + ".input.bin")
            a.astype("<f4").tofile(stem + ".output.bin")
            lines.append("%s\t%d\t%s\t%s\n" % (os.path.basename(path), n, shape_text(x.shape), shape_text(y.shape)))
            top = (", top classes " + " ".join(str(c) for c in a.argmax(axis=1)[:8])) if a.ndim == 2 else ""
            print("  %s batch %d: output %s, |y| <= %.3g, std %.3g%s"
                  % (name, n, shape_text(y.shape), np.abs(a).max(), a.std(), top))
    manifest.extend(lines)
    t_all = time.time() - t0
    print("%s: %s: opset %d, %d batch norms calibrated, %d operator types (%s); %.1f MB; "
          "calibration %.1fs, export %.1fs, total %.1fs"
          % (PROG, path, opset, n_bn, len(ops), " ".join(ops), os.path.getsize(path) / 1e6,
             t_cal, t_exp, t_all))


def main():
    p = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="output directory (created if missing)")
    p.add_argument("--opset", type=int, default=13, help="ONNX opset (default 13; 10 works for resnet*, mobilenet_v2)")
    p.add_argument("--models", default=",".join(TEST_MODELS),
                   help="comma-separated, from: %s (default: all but bert_base)" % ", ".join(MODELS))
    p.add_argument("--batches", default="1,8", help="batch sizes of the references (default 1,8)")
    p.add_argument("--refs", action="store_true", help="also write inputs, PyTorch outputs and manifest.tsv")
    p.add_argument("--fp64", action="store_true",
                   help="with --refs: references computed in float64 (rounded to float32), and how far "
                   "PyTorch's float32 outputs are from them (slow; for judging tolerances)")
    a = p.parse_args()

    names = [m for m in a.models.split(",") if m]
    unknown = [m for m in names if m not in MODELS]
    if unknown or not names:
        p.error("unknown model(s) %s; choose from %s" % (", ".join(unknown) or "(none)", ", ".join(MODELS)))
    try:
        batches = [int(b) for b in a.batches.split(",") if b]
        if not batches or min(batches) < 1:
            raise ValueError
    except ValueError:
        p.error("--batches takes positive integers separated by commas, e.g. 1,8; got %r" % a.batches)

    os.makedirs(a.out, exist_ok=True)
    # the tracer warns about every Python int taken from a shape (export
    # still records the shape arithmetic as ONNX nodes): noise here
    warnings.filterwarnings("ignore", category=torch.jit.TracerWarning)
    warnings.filterwarnings("ignore", category=UserWarning, module="torch.onnx")
    start = time.time()
    torch.set_grad_enabled(False)
    manifest = []
    for name in names:
        export(name, a.out, a.opset, batches, a.refs, a.fp64, manifest)
    if a.refs:
        with open(os.path.join(a.out, "manifest.tsv"), "w") as f:
            f.write("# model\tbatch\tinput shape\toutput shape (written by scripts/models/export_models.py)\n")
            f.writelines(manifest)
        print("%s: wrote %s (%d cases)" % (PROG, os.path.join(a.out, "manifest.tsv"), len(manifest)))
    print("%s: %d model(s) in %.1fs (torch %s, torchvision %s, onnx %s, %d thread(s))"
          % (PROG, len(names), time.time() - start, torch.__version__, torchvision.__version__,
             onnx.__version__, torch.get_num_threads()))


if __name__ == "__main__":
    main()
