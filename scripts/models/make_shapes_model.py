#!/usr/bin/python3
"""make_shapes_model.py - trains the small image classifier shipped in
models/shapes/ (the README's first `openacl infer` command and the classify
recipe's tests use it), from synthetic pictures only: no network, no data set.

  /usr/bin/python3 scripts/models/make_shapes_model.py [--out models/shapes]
      [--train 4000] [--epochs 8] [--seed 7]

Each picture is one filled shape (circle, square, triangle, star, cross,
hexagon) in a random colour, size, position and rotation, on a plain or
gradient background, with pixel noise, at a random size between 64 and 160
pixels and a random aspect ratio.  The pictures go through exactly the
preprocessing the classify recipe applies by default (tools/openacl/
recipe_classify.c, docs/recipes.md): shorter side scaled to 64 * 256 / 224 =
73 pixels with a bilinear, antialiased filter, the centre 64 x 64 cut out,
pixel values / 255 normalised with ImageNet's mean and std, NCHW.  So the
recipe's defaults are right for this model and no flag is needed.

Writes (commit-ready; CI does not retrain):
  OUT/shapes.onnx     opset 13, input "image" [batch,3,64,64] float32,
                      output "logits" [batch,6] (no softmax: the recipe adds it)
  OUT/labels.txt      one class name per line, in output order
  OUT/images/*.png|jpg  sample pictures never seen in training, named
                      <class>_<n>.<ext>, PNG and JPEG
and prints the accuracy on a held-out set of fresh pictures.

Needs Debian's python3-torch, python3-onnx, python3-numpy and python3-pil.
Seeded (pictures, weights, batches), so a rerun on the same machine gives the
same files (checked: byte for byte); about 100 s on one core, one thread (two
threads were 5x slower on a busy machine).  The committed files are the reference:
CI does not retrain, and the tests check the tool's answers on them.
"""
import argparse
import math
import os
import sys
import time

try:
    import numpy as np
    import onnx
    import torch
    import torch.nn as nn
    from PIL import Image, ImageDraw
except ImportError as e:  # say what to install, not just the traceback
    sys.exit("make_shapes_model: %s; install python3-torch python3-onnx python3-numpy python3-pil "
             "and run with /usr/bin/python3" % e)

CLASSES = ["circle", "square", "triangle", "star", "cross", "hexagon"]
SIZE = 64                      # the model's input H and W
RESIZE = round(SIZE * 256 / 224)  # torchvision's Resize(256) / CenterCrop(224) ratio
MEAN = np.array([0.485, 0.456, 0.406], np.float32)
STD = np.array([0.229, 0.224, 0.225], np.float32)


def shape_points(kind, cx, cy, r, angle):
    """The outline of a polygonal shape as (x, y) points; circles are drawn
    as ellipses by the caller."""
    def poly(n, radii):
        pts = []
        for i in range(n * len(radii)):
            a = angle + 2 * math.pi * i / (n * len(radii))
            rr = r * radii[i % len(radii)]
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        return pts
    if kind == "square":
        return poly(4, [1.0])
    if kind == "triangle":
        return poly(3, [1.0])
    if kind == "hexagon":
        return poly(6, [1.0])
    if kind == "star":
        return poly(5, [1.0, 0.42])
    if kind == "cross":  # a plus sign: 12 corners, arms a third of the width
        t = r / 3
        base = [(-t, -r), (t, -r), (t, -t), (r, -t), (r, t), (t, t), (t, r), (-t, r), (-t, t), (-r, t), (-r, -t),
                (-t, -t)]
        c, s = math.cos(angle), math.sin(angle)
        return [(cx + x * c - y * s, cy + x * s + y * c) for x, y in base]
    raise ValueError(kind)


def random_colour(rng):
    return tuple(int(v) for v in rng.integers(0, 256, 3))


def contrasting(rng, bg):
    """A colour clearly different from the background, so every picture has
    a visible shape."""
    while True:
        c = random_colour(rng)
        if sum(abs(a - b) for a, b in zip(c, bg)) > 180:
            return c


def draw_picture(rng, kind):
    """One picture of `kind`, as a PIL RGB image of random size and aspect.
    The shape lies inside the centre crop the recipe keeps."""
    w = int(rng.integers(64, 161))
    h = int(np.clip(w * rng.uniform(0.75, 1.33), 64, 200))
    bg1, bg2 = random_colour(rng), random_colour(rng)
    img = Image.new("RGB", (w, h), bg1)
    if rng.random() < 0.5:  # a vertical or horizontal gradient
        arr = np.linspace(0, 1, h if rng.random() < 0.5 else w, dtype=np.float32)
        a = np.asarray(bg1, np.float32) * (1 - arr[:, None]) + np.asarray(bg2, np.float32) * arr[:, None]
        if len(arr) == h:
            a = np.repeat(a[:, None, :], w, axis=1)
        else:
            a = np.repeat(a[None, :, :], h, axis=0)
        img = Image.fromarray(a.astype(np.uint8), "RGB")
    mean_bg = tuple(int(v) for v in np.asarray(img, np.float32).reshape(-1, 3).mean(0))
    colour = contrasting(rng, mean_bg)
    # the region the recipe keeps: the centre square of side min(w, h) * 224 / 256
    keep = min(w, h) * 224 / 256
    r = keep * rng.uniform(0.16, 0.36)
    slack = keep / 2 - r * 1.05
    cx = w / 2 + rng.uniform(-slack, slack)
    cy = h / 2 + rng.uniform(-slack, slack)
    d = ImageDraw.Draw(img)
    if kind == "circle":
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=colour)
    else:
        d.polygon(shape_points(kind, cx, cy, r, rng.uniform(0, 2 * math.pi)), fill=colour)
    a = np.asarray(img, np.float32)
    a += rng.normal(0, rng.uniform(0, 14), a.shape)
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8), "RGB")


def preprocess(img):
    """What the classify recipe does by default: shorter side to RESIZE
    (bilinear, antialiased when shrinking), centre SIZE x SIZE, /255,
    ImageNet mean/std, HWC -> CHW."""
    w, h = img.size
    s = RESIZE / min(w, h)
    nw, nh = max(SIZE, round(w * s)), max(SIZE, round(h * s))
    img = img.resize((nw, nh), Image.BILINEAR)
    x0, y0 = (nw - SIZE) // 2, (nh - SIZE) // 2
    img = img.crop((x0, y0, x0 + SIZE, y0 + SIZE))
    a = (np.asarray(img, np.float32) / 255 - MEAN) / STD
    return a.transpose(2, 0, 1)


def make_set(rng, n):
    x = np.empty((n, 3, SIZE, SIZE), np.float32)
    y = np.empty(n, np.int64)
    for i in range(n):
        y[i] = i % len(CLASSES)
        x[i] = preprocess(draw_picture(rng, CLASSES[y[i]]))
    return torch.from_numpy(x), torch.from_numpy(y)


class ShapesNet(nn.Module):
    """Per-picture standardisation, four conv/BN/ReLU/max-pool stages (64 ->
    4 pixels), one more conv and global average pooling: about 100 k
    parameters, ~400 KB of ONNX.

    The standardisation (each channel minus its mean over the picture,
    divided by its RMS) is part of the model, after the recipe's ImageNet
    normalisation: it removes the background's colour and brightness, which
    otherwise dominate the first epochs (a plain CNN stayed at chance level
    for minutes on two cores); the shape's outline is what is left."""

    def __init__(self, classes):
        super().__init__()
        layers, cin = [], 3
        for cout in [16, 32, 64, 64]:
            layers += [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
                       nn.MaxPool2d(2)]
            cin = cout
        self.features = nn.Sequential(*layers, nn.Conv2d(cin, 64, 3, padding=1), nn.ReLU())
        self.head = nn.Linear(64, classes)

    def forward(self, x):
        x = x - x.mean(dim=(2, 3), keepdim=True)
        x = x / torch.sqrt((x * x).mean(dim=(2, 3), keepdim=True) + 1e-3)
        return self.head(self.features(x).mean(dim=(2, 3)))


def accuracy(model, x, y):
    model.eval()
    with torch.no_grad():
        return (model(x).argmax(1) == y).float().mean().item()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "..", "models", "shapes"))
    ap.add_argument("--train", type=int, default=4000)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)  # two threads crawl when the cores are busy (OpenMP spinning)
    rng = np.random.default_rng(args.seed)
    t0 = time.time()
    xtr, ytr = make_set(rng, args.train)
    xte, yte = make_set(np.random.default_rng(args.seed + 1000), 1200)  # held out: another generator
    print("make_shapes_model: %d training and %d held-out pictures in %.1f s" % (len(ytr), len(yte),
                                                                                time.time() - t0))

    model = ShapesNet(len(CLASSES))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    steps = args.epochs * ((len(ytr) + 31) // 32)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(ytr))
        for i in range(0, len(ytr), 32):
            idx = perm[i:i + 32]
            xb = xtr[idx]
            if torch.rand(()) < 0.5:  # mirror images are the same shapes
                xb = xb.flip(3)
            opt.zero_grad()
            loss = loss_fn(model(xb), ytr[idx])
            loss.backward()
            opt.step()
            sched.step()
        print("make_shapes_model: epoch %d loss %.3f held-out accuracy %.3f (%.0f s)" %
              (epoch + 1, loss.item(), accuracy(model, xte, yte), time.time() - t0))
    acc = accuracy(model, xte, yte)
    print("make_shapes_model: held-out accuracy %.4f on %d fresh pictures" % (acc, len(yte)))

    os.makedirs(os.path.join(args.out, "images"), exist_ok=True)
    path = os.path.join(args.out, "shapes.onnx")
    model.eval()
    torch.onnx.export(model, torch.zeros(1, 3, SIZE, SIZE), path, opset_version=13, input_names=["image"],
                      output_names=["logits"], dynamic_axes={"image": {0: "batch"}, "logits": {0: "batch"}})
    onnx.checker.check_model(onnx.load(path))
    with open(os.path.join(args.out, "labels.txt"), "w") as f:
        f.write("\n".join(CLASSES) + "\n")

    # Sample pictures from a third generator, checked before they are kept:
    # the tests assert the tool's top-1 on them, so each must be one the
    # model gets right under the same preprocessing (recorded, not hidden:
    # the count of rejected candidates is printed).
    srng = np.random.default_rng(args.seed + 2000)
    rejected = 0
    for ci, kind in enumerate(CLASSES):
        for n, ext in enumerate(["png", "jpg"]):
            for attempt in range(100):
                img = draw_picture(srng, kind)
                tmp = os.path.join(args.out, "images", "%s_%d.%s" % (kind, n + 1, ext))
                img.save(tmp, quality=92) if ext == "jpg" else img.save(tmp, optimize=True)
                with torch.no_grad():
                    got = model(torch.from_numpy(preprocess(Image.open(tmp).convert("RGB"))[None])).argmax(1).item()
                if got == ci:
                    break
                rejected += 1
            else:
                sys.exit("make_shapes_model: the model gets no picture of %s right; train longer" % kind)
    print("make_shapes_model: wrote %s (%d bytes), labels.txt, %d sample images (%d candidates rejected)" %
          (path, os.path.getsize(path), 2 * len(CLASSES), rejected))


if __name__ == "__main__":
    main()
