"""Pictures for the image recipes: decoding to 8-bit RGB and the antialiased bilinear resize.

Both do what ``openacl infer --recipe classify`` does (tools/openacl/image.c),
so the Python runner feeds the model the same numbers:

- ``load_rgb``: JPEG or PNG, chosen by the file's first bytes, not its name;
  Pillow decodes (Debian's links the same libjpeg-turbo and libpng).
  Grayscale, palette, low-bit and 16-bit pictures (high byte kept) and
  alpha (dropped) all become RGB; CMYK JPEGs and truncated files are refused.
- ``resize``: Pillow's bilinear filter, a triangle widened by the scale
  factor when shrinking, computed in float32 without rounding to 8 bits
  between the two passes.  The taps are computed exactly as the C code does
  and accumulated in the same order, so the result is the same float32
  values, bit for bit.
"""
from __future__ import annotations

import math
import warnings
from typing import List, Tuple

import numpy as np

__all__ = ["ImageError", "load_rgb", "resize", "sniff"]

MAX_PIXELS = 256 * 1024 * 1024


class ImageError(ValueError):
    """A file that is not a picture the recipes read, with the reason."""


def sniff(head: bytes) -> str:
    """"jpeg", "png" or "" from a file's first bytes."""
    if head[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if head[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    return ""


def load_rgb(path: str) -> np.ndarray:
    """The picture at ``path`` as a (height, width, 3) uint8 array. Raises ImageError or OSError."""
    try:
        from PIL import Image
    except ImportError as exc:  # pragma: no cover - Pillow is a dependency of the recipes
        raise ImageError("decoding pictures needs Pillow (Debian: python3-pil)") from exc
    with open(path, "rb") as f:
        head = f.read(8)
    kind = sniff(head)
    if not kind:
        raise ImageError(f"not a JPEG or PNG file ({'empty' if not head else 'unknown first bytes'})")
    what = "JPEG" if kind == "jpeg" else "PNG"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # palette transparency notes, large-picture warnings
            with Image.open(path) as im:
                w, h = im.size
                if w <= 0 or h <= 0 or w * h > MAX_PIXELS:
                    raise ImageError(f"picture size {w}x{h} is empty or above the limit of {MAX_PIXELS} pixels")
                if im.mode in ("CMYK", "YCCK"):
                    raise ImageError("CMYK JPEGs are not supported; convert the picture to RGB")
                im.load()
                if im.mode in ("I", "I;16", "I;16B", "I;16L", "I;16N"):
                    # 16-bit grayscale: keep the high byte, as libpng's strip_16 does
                    g = (np.asarray(im).astype(np.uint32) >> 8).astype(np.uint8)
                    return np.repeat(g[..., None], 3, axis=2)
                rgb = np.asarray(im.convert("RGB"))
    except ImageError:
        raise
    except OSError as exc:
        if isinstance(exc, (FileNotFoundError, PermissionError, IsADirectoryError)):
            raise
        raise ImageError(f"corrupt or unsupported {what}: {exc}") from None
    except (ValueError, SyntaxError, EOFError) as exc:
        raise ImageError(f"corrupt or unsupported {what}: {exc}") from None
    return np.ascontiguousarray(rgb, dtype=np.uint8)


def _taps(n_in: int, n_out: int) -> Tuple[np.ndarray, np.ndarray]:
    """(first, weights): output i reads inputs first[i] + j with weights[i, j]
    (zero past the filter's count, whose inputs are clamped into range)."""
    scale = n_in / n_out
    fscale = scale if scale > 1 else 1.0
    support = fscale
    max_taps = int(math.ceil(support)) * 2 + 1
    first = np.zeros(n_out, np.intp)
    weights = np.zeros((n_out, max_taps), np.float32)
    f32 = np.float32
    for i in range(n_out):
        centre = (i + 0.5) * scale
        lo, hi = int(centre - support + 0.5), int(centre + support + 0.5)  # C casts truncate toward zero
        lo = max(lo, 0)
        hi = min(hi, n_in)
        if hi - lo > max_taps:
            hi = lo + max_taps
        w: List[np.float32] = []
        total = 0.0
        for x in range(lo, hi):
            d = abs((x - centre + 0.5) / fscale)
            wx = f32(1 - d if d < 1 else 0)
            w.append(wx)
            total += float(wx)
        for k in range(hi - lo):
            weights[i, k] = f32(float(w[k]) / total) if total > 0 else f32(0)
        first[i] = lo
    return first, weights


def resize(rgb: np.ndarray, width: int, height: int) -> np.ndarray:
    """``rgb`` (h, w, 3) uint8 resized to (height, width, 3) float32 values in 0..255."""
    src_h, src_w = rgb.shape[:2]
    fx, wx = _taps(src_w, width)
    fy, wy = _taps(src_h, height)
    src = rgb.astype(np.float32)
    # horizontal pass: tmp[y, x] = sum_j wx[x, j] * src[y, fx[x] + j], taps in order
    tmp = np.zeros((src_h, width, 3), np.float32)
    for j in range(wx.shape[1]):
        cols = np.minimum(fx + j, src_w - 1)
        tmp += wx[:, j][None, :, None] * src[:, cols, :]
    # vertical pass
    out = np.zeros((height, width, 3), np.float32)
    for j in range(wy.shape[1]):
        rows = np.minimum(fy + j, src_h - 1)
        out += wy[:, j][:, None, None] * tmp[rows, :, :]
    return out
