"""The ``classify`` recipe: JPEG/PNG pictures in, the top-k classes out.

The Python twin of ``openacl infer --recipe classify``
(tools/openacl/recipe_classify.c, docs/recipes.md): the same options, the
same checks and messages, the same preprocessing numbers (torchvision's
ImageNet evaluation transform: the shorter side scaled to size x 256 / 224
with Pillow's antialiased bilinear filter, the centre crop, ImageNet's
mean and std) and the same report, so both print the same top-5 for the
same picture.

For any image classifier with one float32 input [N,3,H,W] (NCHW) or
[N,H,W,3] (NHWC) and one output [N,classes] or [N,classes,1,1].
"""
from __future__ import annotations

import argparse
import math
import sys
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import Recipe, RecipeError, RecipeUsageError, register
from .image import ImageError, load_rgb, resize

__all__ = ["Classify"]


def _topk(value: str) -> int:
    if not value.isdigit() or not 1 <= int(value) <= 1000000:
        raise argparse.ArgumentTypeError(f"'{value}': expected a whole number of classes, at least 1")
    return int(value)


def _floats(positive: bool, example: str):
    def parse(value: str) -> Tuple[float, float, float]:
        parts = value.split(",")
        try:
            v = tuple(float(p) for p in parts)
            ok = len(v) == 3 and all(math.isfinite(x) for x in v)
        except ValueError:
            ok = False
        if not ok or (positive and min(v) <= 0):
            raise argparse.ArgumentTypeError(
                f"'{value}': expected three {'positive ' if positive else ''}numbers R,G,B for 0..1 pixel values, "
                f"e.g. {example}")
        return v  # type: ignore[return-value]

    return parse


def _resize(value: str) -> Tuple[int, int]:
    parts = value.split(",")
    if len(parts) in (1, 2) and all(p.isdigit() and 1 <= int(p) <= 65535 for p in parts):
        return int(parts[0]), int(parts[1]) if len(parts) == 2 else 0
    raise argparse.ArgumentTypeError(f"'{value}': expected N (shorter side) or H,W in pixels, e.g. 256 or 224,224")


def _layout(value: str) -> str:
    if value in ("NCHW", "nchw", "NHWC", "nhwc"):
        return value.upper()
    raise argparse.ArgumentTypeError(f"'{value}': expected NCHW or NHWC")


def _softmax(value: str) -> str:
    if value in ("auto", "yes", "no"):
        return value
    raise argparse.ArgumentTypeError(f"'{value}': expected yes, no or auto")


def _round(x: float) -> int:
    """C's lround for the non-negative values used here (half away from zero)."""
    return int(math.floor(x + 0.5))


def _shape_str(dims: Optional[Sequence[int]]) -> str:
    return "[" + ",".join(str(d) for d in (dims or ())) + "]"


@register
class Classify(Recipe):
    name = "classify"
    summary = "image classification: JPEG/PNG pictures in, the top-k classes out"
    extensions = (".jpg", ".jpeg", ".png")

    @classmethod
    def add_arguments(cls, parser: argparse.ArgumentParser) -> None:
        g = parser.add_argument_group("recipe classify")
        g.add_argument("--labels", metavar="FILE", help="class names, one per line in output order "
                       "(default: class_<index>)")
        g.add_argument("--topk", metavar="N", type=_topk, default=5, help="classes printed per picture (default 5)")
        g.add_argument("--mean", metavar="R,G,B", type=_floats(False, "0.485,0.456,0.406"),
                       default=(0.485, 0.456, 0.406), help="subtracted from 0..1 pixel values (default ImageNet's)")
        g.add_argument("--std", metavar="R,G,B", type=_floats(True, "0.229,0.224,0.225"),
                       default=(0.229, 0.224, 0.225), help="then divided by (default ImageNet's)")
        g.add_argument("--resize", metavar="N|H,W", type=_resize, default=(0, 0),
                       help="scale the shorter side to N, or the picture to H x W, before the centre crop "
                       "(default: shorter side to size x 256 / 224)")
        g.add_argument("--layout", metavar="NCHW|NHWC", type=_layout, default=None,
                       help="where the 3 channels are (default: from the input's shape)")
        g.add_argument("--softmax", metavar="auto|yes|no", type=_softmax, default="auto",
                       help="probabilities from the scores (auto: unless they already sum to 1)")

    def __init__(self, options: Optional[argparse.Namespace] = None, **kw: Any) -> None:
        super().__init__(options)
        o = vars(self.options) if options is not None else {}
        o = {**o, **kw}
        self.labels_path: Optional[str] = o.get("labels")
        self.topk: int = o.get("topk", 5)
        mean = o.get("mean", (0.485, 0.456, 0.406))
        std = o.get("std", (0.229, 0.224, 0.225))
        self.resize_h, self.resize_w = o.get("resize", (0, 0))
        self.layout: str = o.get("layout") or "AUTO"
        self.softmax: str = o.get("softmax", "auto")
        self.labels: Optional[List[str]] = None
        f32 = np.float32
        # (v / 255 - mean) / std == v * scale + shift, in float32 as the C recipe computes it
        self.scale = np.array([f32(1.0) / (f32(255.0) * f32(s)) for s in std], np.float32)
        self.shift = np.array([-f32(m) / f32(s) for m, s in zip(mean, std)], np.float32)
        self.h = self.w = 0
        self.input_name = self.output_name = ""

    # --- the model ---------------------------------------------------------

    def load_model(self, session: Any) -> None:
        ins, outs = session.inputs, session.outputs
        if len(ins) != 1 or len(outs) < 1:
            raise RecipeError(f"recipe classify needs a model with one image input and a class-score output; this "
                              f"one has {len(ins)} inputs and {len(outs)} outputs")
        i, o = ins[0], outs[0]
        self.input_name, self.output_name = i.name, o.name
        dims = list(i.shape) if i.shape is not None else []
        if i.acl_dtype != 0:
            raise RecipeError(f"recipe classify: input '{i.name}' is {i.type_name}, expected float32 (an image tensor)")
        chw = len(dims) == 4 and dims[1] in (3, -1)
        hwc = len(dims) == 4 and dims[3] in (3, -1)
        layout = self.layout
        if layout == "AUTO":
            layout = "NCHW" if len(dims) == 4 and dims[1] == 3 else "NHWC" if len(dims) == 4 and dims[3] == 3 else ""
        if not layout or (layout == "NCHW" and not chw) or (layout == "NHWC" and not hwc):
            asked = "" if self.layout == "AUTO" else f" for --layout {self.layout}"
            raise RecipeError(f"recipe classify: input '{i.name}' has shape {_shape_str(dims)}, expected an RGB image "
                              f"batch [N,3,H,W] (NCHW) or [N,H,W,3] (NHWC){asked}")
        self.layout = layout
        h, w = (dims[1], dims[2]) if layout == "NHWC" else (dims[2], dims[3])
        if self.resize_h > 0 and h > 0 and w > 0 and (
                (self.resize_h < h or self.resize_w < w) if self.resize_w > 0 else self.resize_h < max(h, w)):
            size = f"{self.resize_h},{self.resize_w}" if self.resize_w > 0 else f"{self.resize_h}"
            raise RecipeUsageError(f"--resize {size} is smaller than the model's image size {h}x{w} (H x W): "
                                   "nothing to crop")
        # an open size: the one --resize gives, else ImageNet's 224 x 224 (the C recipe's input_shape hook)
        self.h = h if h > 0 else (self.resize_h if self.resize_h > 0 else 224)
        self.w = w if w > 0 else (self.resize_w if self.resize_w > 0 else self.resize_h if self.resize_h > 0 else 224)
        classes = self._classes(o.shape)
        if classes < 0 or o.acl_dtype not in (0, -1):
            raise RecipeError(f"recipe classify: output '{o.name}' is {o.type_name} {_shape_str(o.shape)}, expected "
                              "float32 class scores [N,classes] or [N,classes,1,1]")
        if self.labels_path is not None:
            self._load_labels(classes)

    @staticmethod
    def _classes(dims: Optional[Sequence[int]]) -> int:
        """Classes from an output's dims [N,C] or [N,C,1,1]; 0 when unknown, -1 when not a classifier's."""
        if not dims:
            return 0
        if len(dims) == 2 or (len(dims) == 4 and dims[2] in (1, -1) and dims[3] in (1, -1)):
            return dims[1] if dims[1] > 0 else 0
        return -1

    def _load_labels(self, classes: int) -> None:
        path = self.labels_path
        try:
            with open(path, "rb") as f:  # type: ignore[arg-type]
                data = f.read()
        except OSError as exc:
            raise RecipeError(f"--labels {path}: cannot open: {exc.strerror or exc}") from None
        lines = data.decode("utf-8", "surrogateescape").split("\n")
        if lines and lines[-1] == "":
            lines.pop()  # the end of the last line
        labels = [line.rstrip("\r\n ") for line in lines]
        while labels and labels[-1] == "":
            labels.pop()
        if not labels:
            raise RecipeError(f"--labels {path}: the file has no labels (expected one class name per line)")
        if classes > 0 and len(labels) < classes:
            raise RecipeError(f"--labels {path}: {len(labels)} labels for {classes} classes (output "
                              f"'{self.output_name}'); expected one line per class")
        if classes > 0 and len(labels) > classes:
            print(f"openacl.infer: warning: --labels {path}: {len(labels)} labels for {classes} classes; the extra "
                  "lines are not used", file=sys.stderr)
        self.labels = labels

    # --- one picture -------------------------------------------------------

    def _scaled_size(self, iw: int, ih: int) -> Tuple[int, int]:
        h, w = self.h, self.w
        if self.resize_h > 0 and self.resize_w > 0:
            return self.resize_w, self.resize_h
        side = self.resize_h if self.resize_h > 0 else _round(max(h, w) * 256.0 / 224.0)
        s = side / min(iw, ih)
        sw, sh = _round(iw * s), _round(ih * s)
        # rounding may leave the longer side of a near-square picture a pixel short of a non-square model's size
        if sw < w and side >= w:
            sw = w
        if sh < h and side >= h:
            sh = h
        return sw, sh

    def preprocess(self, path: str) -> np.ndarray:
        h, w = self.h, self.w
        try:
            rgb = load_rgb(path)
        except (ImageError, OSError) as exc:
            reason = f"cannot open: {exc.strerror}" if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise RecipeError(f"{path}: {reason}") from None
        ih, iw = rgb.shape[:2]
        sw, sh = self._scaled_size(iw, ih)
        if sw < w or sh < h:
            raise RecipeUsageError(f"--resize: {path} scaled to {sh}x{sw} (H x W) is smaller than the model's image "
                                   f"size {h}x{w}: nothing to crop")
        scaled = resize(rgb, sw, sh)
        x0, y0 = (sw - w) // 2, (sh - h) // 2
        crop = scaled[y0:y0 + h, x0:x0 + w, :]
        v = crop * self.scale + self.shift  # float32, as C
        return np.ascontiguousarray(v if self.layout == "NHWC" else v.transpose(2, 0, 1))

    def postprocess(self, path: str, outputs: List[np.ndarray]) -> Dict[str, Any]:
        out = np.asarray(outputs[0])
        dims = out.shape
        if len(dims) == 1 or (len(dims) == 3 and dims[1] == 1 and dims[2] == 1):
            n = int(dims[0])
        else:
            n = 0
        if n <= 0:
            raise RecipeError(f"recipe classify: output '{self.output_name}' has shape {_shape_str((-1,) + dims)}, "
                              "expected [N,classes] or [N,classes,1,1]")
        if self.labels is not None and len(self.labels) < n:
            raise RecipeError(f"--labels {self.labels_path}: {len(self.labels)} labels for {n} classes (output "
                              f"'{self.output_name}'); expected one line per class")
        v = [float(x) for x in out.reshape(n).astype(np.float32)]
        soft = self.softmax == "yes" or (self.softmax == "auto" and not _is_distribution(v))
        if soft:
            top = max(v)
            p = [math.exp(x - top) for x in v]
            total = 0.0
            for x in p:  # in order, as C sums
                total += x
            p = [x / total for x in p]
        else:
            p = v
        k = min(self.topk, n)
        order = sorted(range(n), key=lambda c: (-p[c], c))[:k]
        return {
            "file": path,
            "softmax": soft,
            "classes": n,
            "top": [{"rank": r + 1, "class": c, "label": self._label(c), ("prob" if soft else "score"): p[c]}
                    for r, c in enumerate(order)],
        }

    def _label(self, c: int) -> str:
        return self.labels[c] if self.labels is not None else f"class_{c}"

    def report(self, path: str, answer: Dict[str, Any]) -> str:
        soft = answer["softmax"]
        top = answer["top"]
        lines = [f"{path}: top-{len(top)} of {answer['classes']} classes "
                 f"({'softmax of the output' if soft else 'output as is'})",
                 f"  rank  {'prob' if soft else 'score':<8}  class"]
        key = "prob" if soft else "score"
        for t in top:
            label = f"{t['label']} ({t['class']})" if self.labels is not None else t["label"]
            lines.append(f"  {t['rank']:4d}  {t[key]:8.4f}  {label}")
        return "\n".join(lines)


def _is_distribution(v: List[float]) -> bool:
    """Every score in [0, 1] and a sum within 1e-3 of 1 (a model that ends in Softmax)."""
    total = 0.0
    for x in v:
        if not 0.0 <= x <= 1.0:
            return False
        total += x
    return abs(total - 1.0) <= 1e-3
