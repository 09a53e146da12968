"""test_infer_runner.py - `python3 -m openacl.infer`, the recipe runner, and the classify recipe.

What is checked:
  * the classify recipe prints the same top-5 (labels and probabilities, as
    printed) as `openacl infer --recipe classify` for every picture of
    models/shapes/images, one file and a folder, batches of 1 and 4, with
    options (--topk, --softmax, --mean/--std, --resize, --layout with an NHWC
    copy of the model, a model with open height and width); its
    preprocessing is bit for bit the C recipe's (tests/openacl_recipe_driver,
    when built); pictures of every PNG colour type and depth decode as
    libpng does; corrupt, truncated and non-picture files are refused;
  * --output writes each file's answer and outputs, and results.json;
  * batching: --batch N, a short last batch, a model with a fixed batch
    (padded), a model without a batch axis, a model with two inputs;
  * a user recipe from this test module: as MODULE:CLASS, registered by name
    with --recipe-module, and through main() in-process; the registry's
    errors;
  * the device id is checked before acl.init (acl.init is never called for
    an invisible id or a malformed visibility variable) with a clear message
    and exit status 2;
  * every refusal: missing model, missing input, a folder with nothing to
    read, a file the recipe does not read, an unknown recipe, a module that
    does not import, bad option values, a model that is not a classifier,
    bad labels files; each with its message and exit status;
  * Ctrl-C (SIGINT to a running runner): the release sequence runs in full,
    in the documented order, and the exit status is 130; also when a recipe
    fails after the model is loaded.

Run: PYTHONPATH=build/python /usr/bin/python3 -m pytest -q tests/python/test_infer_runner.py
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from conftest import REPO, describe, need_tool, openacl_tool, test_python

import openacl.infer  # noqa: E402
import openacl.recipes  # noqa: E402
from openacl.recipes import Recipe, RecipeError, register  # noqa: E402
from openacl.recipes.image import ImageError, load_rgb  # noqa: E402

HERE = Path(__file__).resolve().parent
SHAPES = REPO / "models" / "shapes"
MODEL = SHAPES / "shapes.onnx"
IMAGES = SHAPES / "images"
LABELS = SHAPES / "labels.txt"
PICTURES = sorted(p.name for p in IMAGES.iterdir())
RELEASE = [  # --verbose, in this order
    "released: datasets and device buffers",
    "released: model 1 unloaded",
    "released: model description",
    "released: context",
    "released: device 0 reset",
    "released: acl.finalize done",
]


# ---- user recipes, found by the runner in this module -------------------------------------------


@register
class NpyArgmax(Recipe):
    """Raw float32 .npy pictures [3,64,64] in, the arg-max of output 0 out."""

    name = "test-npy-argmax"
    summary = "tests: .npy in, arg-max out"
    extensions = (".npy",)

    @classmethod
    def add_arguments(cls, parser):
        parser.add_argument("--scale", type=float, default=1.0)

    def load_model(self, session):
        self.seen_inputs = [i.name for i in session.inputs]

    def preprocess(self, path):
        return np.load(path).astype(np.float32) * np.float32(self.options.scale)

    def postprocess(self, path, outputs):
        return {"argmax": int(np.argmax(outputs[0])), "shape": list(outputs[0].shape)}


class PairRecipe(Recipe):
    """Two inputs from one .npy file [2,2,3] (affine: y = 2x + z, no batch axis); the answer is y."""

    name = "test-pair"
    extensions = (".npy",)

    def preprocess(self, path):
        a = np.load(path)
        return [a[0], a[1]]

    def postprocess(self, path, outputs):
        return outputs[0].tolist()


class SlowRecipe(NpyArgmax):
    """Says it started, then waits: the test interrupts it (SIGINT)."""

    name = "test-slow"

    def preprocess(self, path):
        print("slow: preprocessing", file=sys.stderr, flush=True)
        time.sleep(120)
        return super().preprocess(path)


class FailingRecipe(NpyArgmax):
    name = "test-failing"

    def postprocess(self, path, outputs):
        raise RecipeError("%s: this recipe always fails" % os.path.basename(path))


# ---- helpers -----------------------------------------------------------------------------------


def env_with(extra=None):
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join(p for p in (str(HERE), e.get("PYTHONPATH", "")) if p)
    e.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    for k in ("OPENACL_DEVICE_COUNT", "ASCEND_VISIBLE_DEVICES", "ASCEND_RT_VISIBLE_DEVICES", "OPENACL_DYNAMIC_BATCH",
              "OPENACL_DYNAMIC_HW", "OPENACL_DYNAMIC_DIMS"):
        e.pop(k, None)
    for k, v in (extra or {}).items():
        if v is None:
            e.pop(k, None)
        else:
            e[k] = str(v)
    return e


def runner(*args, env=None, cwd=None, timeout=180):
    """python3 -m openacl.infer ARGS; the CompletedProcess (text)."""
    cmd = [test_python(), "-m", "openacl.infer"] + [str(a) for a in args]
    p = subprocess.run(cmd, env=env_with(env), cwd=cwd or REPO, capture_output=True, text=True, timeout=timeout)
    assert p.returncode >= 0, "killed by a signal\n" + describe(p)
    return p


def classify(*args, **kw):
    return runner("--model_path", MODEL, *args, **kw)


def c_classify(*args, model=MODEL):
    p = subprocess.run([need_tool(), "infer", "--model", str(model), "--recipe", "classify", "--quiet"] +
                       [str(a) for a in args], capture_output=True, text=True, cwd=REPO)
    assert p.returncode == 0, describe(p)
    return p.stdout


def expect(p, code, *texts, stream="stderr"):
    out = getattr(p, stream)
    assert p.returncode == code, "want exit status %d\n%s" % (code, describe(p))
    for t in texts:
        assert t in out, "%r not in %s\n%s" % (t, stream, describe(p))


def top1(report):
    """{file name: top-1 label} from classify reports."""
    got, path = {}, None
    for line in report.splitlines():
        if ": top-" in line:
            path = line.split(": top-")[0]
        elif line.strip().startswith("1 ") and path:
            got[os.path.basename(path)] = line.split()[2]
            path = None
    return got


# ---- classify against the C tool ---------------------------------------------------------------


def test_folder_equals_the_tool_and_the_file_names():
    p = classify("--input_path", "models/shapes/images", "--device_id", "0", "--labels", LABELS)
    expect(p, 0, "openacl.infer: 12 files in 12 executions on device 0")
    answers = top1(p.stdout)
    assert sorted(answers) == PICTURES
    for name, label in answers.items():
        assert name.split("_")[0] == label, (name, label)  # every sample is classified correctly
    if openacl_tool():
        assert p.stdout == c_classify("--input", "models/shapes/images", "--labels", LABELS)


def test_every_picture_alone_equals_the_tool():
    need_tool()
    for name in PICTURES:
        path = "models/shapes/images/" + name
        p = classify("--input_path", path, "--labels", LABELS, "--quiet")
        expect(p, 0)
        assert p.stdout == c_classify("--input", path, "--labels", LABELS), name
        assert p.stderr == ""


def test_batches_of_four_and_options():
    base = classify("--input_path", "models/shapes/images", "--labels", LABELS, "--quiet")
    p = classify("--input_path", "models/shapes/images", "--labels", LABELS, "--batch", 4)
    expect(p, 0, "12 files in 3 executions")
    assert p.stdout == base.stdout
    p = classify("--input_path", "models/shapes/images", "--labels", LABELS, "--batch", 5, "--quiet")
    assert p.stdout == base.stdout  # a short last batch
    if not openacl_tool():
        return
    for opts in (["--topk", "3"], ["--topk", "50"], ["--softmax", "no", "--topk", "6"], ["--softmax", "yes"],
                 ["--mean", "0.5,0.5,0.5", "--std", "0.5,0.5,0.5"], ["--resize", "100,70"], ["--resize", "80"],
                 []):
        p = classify("--input_path", "models/shapes/images", "--quiet", *opts)
        expect(p, 0)
        assert p.stdout == c_classify("--input", "models/shapes/images", *opts), opts


def test_nhwc_and_open_size_models(tmp_path):
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    m = onnx.load(str(MODEL))
    g = m.graph
    old = g.input[0].name
    g.node.insert(0, helper.make_node("Transpose", ["nhwc"], [old], perm=[0, 3, 1, 2]))
    del g.input[0]
    g.input.insert(0, helper.make_tensor_value_info("nhwc", TensorProto.FLOAT, ["batch", 64, 64, 3]))
    onnx.save(m, str(tmp_path / "nhwc.onnx"))
    m = onnx.load(str(MODEL))
    d = m.graph.input[0].type.tensor_type.shape.dim
    d[2].dim_param, d[3].dim_param = "height", "width"
    onnx.save(m, str(tmp_path / "open_hw.onnx"))
    m = onnx.load(str(MODEL))
    m.graph.input[0].type.tensor_type.shape.dim[0].dim_value = 5  # a fixed batch of 5
    m.graph.output[0].type.tensor_type.shape.dim[0].dim_value = 5
    onnx.save(m, str(tmp_path / "fixed5.onnx"))

    nchw = classify("--input_path", "models/shapes/images", "--labels", LABELS, "--quiet")
    p = runner("--model_path", tmp_path / "nhwc.onnx", "--input_path", "models/shapes/images", "--labels", LABELS,
               "--quiet")
    expect(p, 0)
    assert top1(p.stdout) == top1(nchw.stdout)
    p = runner("--model_path", tmp_path / "nhwc.onnx", "--input", IMAGES / "star_1.png", "--layout", "NCHW")
    expect(p, 1, "recipe classify: input 'nhwc' has shape [-1,64,64,3], expected an RGB image batch [N,3,H,W] "
                 "(NCHW) or [N,H,W,3] (NHWC) for --layout NCHW")
    p = runner("--model_path", tmp_path / "open_hw.onnx", "--input_path", "models/shapes/images", "--labels", LABELS,
               "--resize", "64,64", "--quiet")
    expect(p, 0)
    static = classify("--input_path", "models/shapes/images", "--labels", LABELS, "--resize", "64,64", "--quiet")
    assert p.stdout == static.stdout
    # a fixed batch: 12 files in 3 executions of 5, the last one padded
    p = runner("--model_path", tmp_path / "fixed5.onnx", "--input_path", "models/shapes/images", "--labels", LABELS)
    expect(p, 0, "12 files in 3 executions")
    assert p.stdout == nchw.stdout
    p = runner("--model_path", tmp_path / "fixed5.onnx", "--input_path", "models/shapes/images", "--batch", "4")
    expect(p, 2, "--batch 4: model '%s' takes batches of exactly 5" % (tmp_path / "fixed5.onnx"))
    if openacl_tool():
        for model in (tmp_path / "nhwc.onnx", tmp_path / "open_hw.onnx"):
            p = runner("--model_path", model, "--input_path", "models/shapes/images", "--labels", LABELS, "--quiet")
            expect(p, 0)
            assert p.stdout == c_classify("--input", "models/shapes/images", "--labels", LABELS, model=model)


def test_preprocessing_is_the_c_recipes_bit_for_bit(tmp_path):
    drv = None
    for cand in (os.environ.get("OPENACL_RECIPE_DRIVER"), str(Path(openacl_tool() or "/nonexistent").parent / "tests" /
                                                              "openacl_recipe_driver"),
                 str(REPO / "build" / "tests" / "openacl_recipe_driver")):
        if cand and os.path.isfile(cand):
            drv = cand
            break
    if drv is None:
        pytest.skip("tests/openacl_recipe_driver is not built (set OPENACL_RECIPE_DRIVER)")
    from openacl.recipes.classify import Classify

    cases = [("1,3,64,64", [], {}), ("1,64,64,3", [], {"layout": "NHWC"}), ("1,3,224,224", [], {}),
             ("1,3,40,50", ["--resize", "100,63"], {"resize": (100, 63)}),
             ("1,3,64,64", ["--resize", "80"], {"resize": (80, 0)}),
             ("1,3,64,64", ["--mean", "0.5,0.25,0", "--std", "0.5,0.5,2"],
              {"mean": (0.5, 0.25, 0), "std": (0.5, 0.5, 2)})]
    for dims, copt, popt in cases:
        d = [int(x) for x in dims.split(",")]
        for name in PICTURES:
            f = str(IMAGES / name)
            p = subprocess.run([drv, "preprocess", f, dims, "0", str(tmp_path / "got.f32")] + copt,
                               capture_output=True, text=True)
            assert p.returncode == 0, p.stderr
            c = Classify(None, **popt)
            c.layout = popt.get("layout", "NCHW")
            c.h, c.w = (d[1], d[2]) if c.layout == "NHWC" else (d[2], d[3])
            mine = c.preprocess(f)
            want = np.fromfile(tmp_path / "got.f32", np.float32).reshape(mine.shape)
            assert np.array_equal(mine, want), (dims, copt, name, float(np.abs(mine - want).max()))


# ---- pictures ----------------------------------------------------------------------------------


def write_png(name, a, ctype, depth, plte=None, trns=None):
    """A PNG written by hand (numpy + zlib) in any colour type and depth."""
    import struct
    import zlib

    h, w = a.shape[:2]
    if depth < 8:
        per = 8 // depth
        rows = []
        for r in a.reshape(h, w):
            r = np.concatenate([r, np.zeros((-w) % per, r.dtype)]).reshape(-1, per)
            rows.append(sum(r[:, i].astype(np.uint8) << (8 - depth * (i + 1))
                            for i in range(per)).astype(np.uint8).tobytes())
    else:
        rows = [r.astype(">u2" if depth == 16 else np.uint8).tobytes() for r in a.reshape(h, -1)]
    raw = b"".join(b"\0" + r for r in rows)

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))

    s = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, 0))
    if plte is not None:
        s += chunk(b"PLTE", plte.astype(np.uint8).tobytes())
    if trns is not None:
        s += chunk(b"tRNS", trns)
    Path(name).write_bytes(s + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def test_png_kinds_decode_as_libpng(tmp_path):
    pytest.importorskip("PIL")
    r = np.random.default_rng(3)
    rgb = r.integers(0, 256, (23, 37, 3))
    gray = r.integers(0, 256, (23, 37))
    alpha = r.integers(0, 256, (23, 37, 1))
    pal = r.integers(0, 256, (16, 3))
    idx = r.integers(0, 16, (23, 37))
    g4 = r.integers(0, 16, (23, 37))
    g1 = r.integers(0, 2, (23, 37))
    w16 = r.integers(0, 65536, (23, 37, 3))
    a16 = r.integers(0, 65536, (23, 37, 1))
    g16 = r.integers(0, 65536, (23, 37))
    rep = lambda g: np.repeat(g[..., None], 3, 2)  # noqa: E731
    cases = {
        "rgb8": (rgb, 2, 8, None, None, rgb),
        "rgba8": (np.concatenate([rgb, alpha], 2), 6, 8, None, None, rgb),
        "gray8": (gray, 0, 8, None, None, rep(gray)),
        "graya8": (np.stack([gray, alpha[..., 0]], 2), 4, 8, None, None, rep(gray)),
        "gray4": (g4, 0, 4, None, None, rep(g4 * 17)),
        "gray1": (g1, 0, 1, None, None, rep(g1 * 255)),
        "pal4": (idx, 3, 4, pal, None, pal[idx]),
        "pal8trns": (idx, 3, 8, pal, bytes([0, 128]), pal[idx]),
        "rgb16": (w16, 2, 16, None, None, w16 >> 8),
        "rgba16": (np.concatenate([w16, a16], 2), 6, 16, None, None, w16 >> 8),
        "gray16": (g16, 0, 16, None, None, rep(g16 >> 8)),
        "graya16": (np.stack([g16, a16[..., 0]], 2), 4, 16, None, None, rep(g16 >> 8)),
        "rgb8trns": (rgb, 2, 8, None, bytes([0, 7, 0, 8, 0, 9]), rgb),
    }
    for k, (a, ct, d, p, t, want) in cases.items():
        f = tmp_path / (k + ".png")
        write_png(f, a, ct, d, p, t)
        got = load_rgb(str(f))
        assert got.dtype == np.uint8 and got.shape == (23, 37, 3), k
        assert np.array_equal(got, want.astype(np.uint8)), k


def test_bad_pictures(tmp_path):
    pytest.importorskip("PIL")
    png = (IMAGES / "star_1.png").read_bytes()
    jpg = (IMAGES / "star_2.jpg").read_bytes()
    (tmp_path / "cut.jpg").write_bytes(jpg[:len(jpg) // 2])
    (tmp_path / "cut.png").write_bytes(png[:len(png) // 2])
    bad = bytearray(png)
    bad[len(bad) // 2:len(bad) // 2 + 64] = b"\0" * 64
    (tmp_path / "corrupt.png").write_bytes(bytes(bad))
    (tmp_path / "text.png").write_text("not a picture")
    (tmp_path / "empty.jpg").write_bytes(b"")
    from PIL import Image

    Image.new("RGB", (8, 8)).save(tmp_path / "bmp.png", format="BMP")  # a BMP named .png
    Image.new("CMYK", (8, 8)).save(tmp_path / "cmyk.jpg", format="JPEG")
    want = {"cut.jpg": "corrupt or unsupported JPEG", "cut.png": "corrupt or unsupported PNG",
            "corrupt.png": "corrupt or unsupported PNG", "text.png": "not a JPEG or PNG file (unknown first bytes)",
            "empty.jpg": "not a JPEG or PNG file (empty)", "bmp.png": "not a JPEG or PNG file",
            "cmyk.jpg": "CMYK JPEGs are not supported"}
    for name, msg in want.items():
        with pytest.raises(ImageError, match=msg.replace("(", r"\(").replace(")", r"\)")):
            load_rgb(str(tmp_path / name))
    with pytest.raises(FileNotFoundError):
        load_rgb(str(tmp_path / "nothere.png"))
    p = classify("--input_path", tmp_path / "cut.jpg", "--verbose")
    expect(p, 1, "openacl.infer: error: %s: corrupt or unsupported JPEG" % (tmp_path / "cut.jpg"), *RELEASE)


# ---- --output ----------------------------------------------------------------------------------


def test_output_files(tmp_path):
    out = tmp_path / "res" / "deeper"
    p = classify("--input_path", "models/shapes/images", "--labels", LABELS, "--output", out, "--topk", "2",
                 "--quiet")
    expect(p, 0)
    results = json.loads((out / "results.json").read_text())
    assert [os.path.basename(r["file"]) for r in results] == PICTURES
    for name, r in zip(PICTURES, results):
        one = json.loads((out / (name + ".json")).read_text())
        assert one == r
        assert one["softmax"] is True and one["classes"] == 6 and len(one["top"]) == 2
        assert one["top"][0]["label"] == name.split("_")[0]
        scores = np.load(out / (name + ".out0.npy"))
        assert scores.shape == (6,) and scores.dtype == np.float32
        assert int(np.argmax(scores)) == one["top"][0]["class"]
        line = "     1    %.4f  %s (%d)" % (one["top"][0]["prob"], one["top"][0]["label"], one["top"][0]["class"])
        assert line in p.stdout


# ---- user recipes ------------------------------------------------------------------------------


@pytest.fixture()
def npy_pictures(tmp_path):
    from openacl.recipes.classify import Classify

    c = Classify(None)
    c.layout, c.h, c.w = "NCHW", 64, 64
    d = tmp_path / "npy"
    d.mkdir()
    for name in PICTURES[:4]:
        np.save(d / (name.split(".")[0] + ".npy"), c.preprocess(str(IMAGES / name)))
    (d / "notes.txt").write_text("skipped: not .npy")
    return d


def test_user_recipe_as_module_class(npy_pictures, tmp_path):
    p = runner("--model_path", MODEL, "--input_path", npy_pictures, "--recipe", "test_infer_runner:NpyArgmax",
               "--output", tmp_path / "o", "--batch", 2)
    expect(p, 0, "4 files in 2 executions")
    want = {"circle": 0, "cross": 4, "hexagon": 5, "square": 1}
    lines = p.stdout.splitlines()
    assert len(lines) == 4
    for line in lines:
        path, _, answer = line.partition(": ")
        assert json.loads(answer) == {"argmax": want[Path(path).stem.split("_")[0]], "shape": [6]}, line
    assert len(json.loads((tmp_path / "o" / "results.json").read_text())) == 4
    # the recipe's own option, and a registered name after --recipe-module
    p = runner("--model_path", MODEL, "--input_path", npy_pictures, "--recipe-module", "test_infer_runner",
               "--recipe", "test-npy-argmax", "--scale", "1.0", "--quiet")
    expect(p, 0)
    assert p.stdout.splitlines() == lines
    p = runner("--model_path", MODEL, "--input_path", npy_pictures, "--recipe", "test_infer_runner:test-npy-argmax",
               "--quiet")
    expect(p, 0)
    assert p.stdout.splitlines() == lines
    p = runner("--model_path", MODEL, "--input_path", npy_pictures / "notes.txt", "--recipe",
               "test_infer_runner:NpyArgmax")
    expect(p, 1, "recipe 'test-npy-argmax' does not read '%s'" % (npy_pictures / "notes.txt"))


def test_user_recipe_in_process(npy_pictures, capsys):
    @register(name="test-inline")
    class Inline(NpyArgmax):
        calls = []

        def load_model(self, session):
            Inline.calls.append(("load_model", [t.name for t in session.inputs]))

        def infer(self, session, batch):
            Inline.calls.append(("infer", batch[0].shape))
            return session.run(batch)

        def report(self, path, answer):
            return "%s -> %d" % (os.path.basename(path), answer["argmax"])

        def close(self):
            Inline.calls.append(("close",))

    assert "test-inline" in openacl.recipes.names() and "classify" in openacl.recipes.names()
    assert openacl.recipes.get("test-inline") is Inline
    code = openacl.infer.main(["--model_path", str(MODEL), "--input_path", str(npy_pictures), "--recipe",
                               "test-inline", "--batch", "3", "--quiet"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.splitlines() == ["circle_1.npy -> 0", "circle_2.npy -> 0", "cross_1.npy -> 4", "cross_2.npy -> 4"]
    assert Inline.calls == [("load_model", ["image"]), ("infer", (3, 3, 64, 64)), ("infer", (1, 3, 64, 64)),
                            ("close",)]


def test_models_without_a_batch_axis_and_two_inputs(small_models, tmp_path):
    d = tmp_path / "pairs"
    d.mkdir()
    rng = np.random.default_rng(4)
    pairs = {}
    for k in range(3):
        a = rng.standard_normal((2, 2, 3)).astype(np.float32)
        np.save(d / ("p%d.npy" % k), a)
        pairs["p%d.npy" % k] = small_models.affine_ref(a[0], a[1])
    p = runner("--model_path", small_models.affine, "--input_path", d, "--recipe", "test_infer_runner:PairRecipe")
    expect(p, 0, "3 files in 3 executions")
    for line in p.stdout.splitlines():
        path, _, answer = line.partition(": ")
        assert np.allclose(json.loads(answer), pairs[os.path.basename(path)], rtol=1e-6), line
    p = runner("--model_path", small_models.affine, "--input_path", d, "--recipe", "test_infer_runner:PairRecipe",
               "--batch", "2")
    expect(p, 2, "--batch 2: input x: float32 [2, 3] has no batch axis, so each file is one execution")


def test_registry_errors():
    with pytest.raises(ValueError, match="has no name"):
        register(type("Nameless", (Recipe,), {}))
    with pytest.raises(TypeError, match="takes a recipe class"):
        register(name="x")(42)
    with pytest.raises(TypeError, match="has no postprocess"):
        register(type("Half", (), {"name": "half", "preprocess": lambda self, p: p}))
    with pytest.raises(KeyError, match="no recipe is named 'nope' .known: .*classify"):
        openacl.recipes.get("nope")
    with pytest.raises(ImportError, match="cannot import module 'no_such_module_xyz'"):
        openacl.recipes.resolve("no_such_module_xyz:Thing")
    with pytest.raises(KeyError, match="has no recipe class 'Nope'"):
        openacl.recipes.resolve("test_infer_runner:Nope")
    with pytest.raises(KeyError, match="expected NAME, MODULE:CLASS"):
        openacl.recipes.resolve(":x")
    assert openacl.recipes.resolve("classify").name == "classify"
    # the default hooks
    r = Recipe(argparse.Namespace())
    assert r.accepts("anything") and r.report("f", {"a": np.float32(1.5), "b": np.arange(2)}) == \
        'f: {"a": 1.5, "b": [0, 1]}'
    with pytest.raises(NotImplementedError):
        r.preprocess("f")


# ---- refusals before acl.init ------------------------------------------------------------------


def test_bad_device_id_before_init(monkeypatch, capsys):
    p = classify("--input_path", IMAGES / "star_1.png", "--device_id", "3")
    expect(p, 2, "openacl.infer: error: --device_id 3: device 3 is not visible: this process sees 1 device (0)")
    assert p.stdout == ""
    p = classify("--input_path", IMAGES / "star_1.png", "--device_id", "1",
                 env={"OPENACL_DEVICE_COUNT": 4, "ASCEND_RT_VISIBLE_DEVICES": "3"})
    expect(p, 2, "device 1 is not visible: this process sees 1 device (0) (OPENACL_DEVICE_COUNT='4', "
                 "ASCEND_RT_VISIBLE_DEVICES='3')")
    p = classify("--input_path", IMAGES / "star_1.png", "--device_id", "0", env={"ASCEND_RT_VISIBLE_DEVICES": "0,x"})
    expect(p, 2, "device 0 cannot be used: ASCEND_RT_VISIBLE_DEVICES='0,x' is invalid: token 2 ('x') is not a "
                 "device id")
    p = classify("--input_path", IMAGES / "star_1.png", "--device_id", "-1")
    expect(p, 2, "device -1 is not visible")
    # a visible one among several works
    p = classify("--input_path", IMAGES / "star_1.png", "--device_id", "2", "--quiet",
                 env={"OPENACL_DEVICE_COUNT": 3})
    expect(p, 0)
    assert "     1    1.0000  class_3" in p.stdout
    # in-process: acl.init is never reached
    import acl

    calls = []
    monkeypatch.setattr(acl, "init", lambda *a: calls.append(a) or 0)
    monkeypatch.setenv("OPENACL_DEVICE_COUNT", "2")
    assert openacl.infer.main(["--model_path", str(MODEL), "--input_path", str(IMAGES), "--device_id", "2"]) == 2
    assert calls == []
    assert "device 2 is not visible: this process sees 2 devices (0, 1)" in capsys.readouterr().err


def test_refusals():
    cases = [
        (["--model_path", "nothere.onnx", "--input_path", IMAGES], 1,
         "openacl.infer: error: --model_path 'nothere.onnx': model file not found"),
        (["--model_path", IMAGES, "--input_path", IMAGES], 1, "is a folder, not an ONNX file"),
        (["--model_path", MODEL, "--input_path", "nothere"], 1, "--input_path 'nothere': no such file or folder"),
        (["--model_path", MODEL, "--input_path", SHAPES / "labels.txt"], 1,
         "recipe 'classify' does not read '%s'" % (SHAPES / "labels.txt")),
        (["--model_path", MODEL, "--input_path", REPO / "docs"], 1,
         "the folder holds no files recipe 'classify' reads"),
        (["--model_path", MODEL, "--input_path", IMAGES, "--recipe", "nope"], 2,
         "openacl.infer: error: no recipe is named 'nope' (known: classify"),
        (["--model_path", MODEL, "--input_path", IMAGES, "--recipe", "no_such_module_xyz:Thing"], 2,
         "cannot import module 'no_such_module_xyz'"),
        (["--model_path", MODEL, "--input_path", IMAGES, "--recipe-module", "no_such_module_xyz"], 2,
         "--recipe-module no_such_module_xyz: cannot import it"),
        (["--model_path", MODEL, "--input_path", IMAGES, "--topk", "0"], 2,
         "argument --topk: '0': expected a whole number of classes, at least 1"),
        (["--model_path", MODEL, "--input_path", IMAGES, "--mean", "1,2"], 2, "argument --mean: '1,2': expected three"),
        (["--model_path", MODEL, "--input_path", IMAGES, "--std", "0,1,1"], 2, "three positive numbers"),
        (["--model_path", MODEL, "--input_path", IMAGES, "--layout", "NCWH"], 2, "expected NCHW or NHWC"),
        (["--model_path", MODEL, "--input_path", IMAGES, "--softmax", "maybe"], 2, "expected yes, no or auto"),
        (["--model_path", MODEL, "--input_path", IMAGES, "--resize", "10,x"], 2, "expected N (shorter side) or H,W"),
        (["--model_path", MODEL, "--input_path", IMAGES, "--resize", "32"], 2,
         "--resize 32 is smaller than the model's image size 64x64 (H x W): nothing to crop"),
        (["--model_path", MODEL, "--input_path", IMAGES, "--resize", "100,63"], 2,
         "--resize 100,63 is smaller than the model's image size 64x64 (H x W): nothing to crop"),
        (["--model_path", MODEL, "--input_path", IMAGES, "--batch", "0"], 2, "--batch 0: expected at least 1"),
        (["--model_path", MODEL, "--input_path", IMAGES, "--labelz", LABELS], 2, "unrecognized arguments: --labelz"),
        (["--input_path", IMAGES], 2, "the following arguments are required: --model_path"),
        (["--model_path", MODEL, "--input_path", IMAGES, "--labels", "nothere.txt"], 1,
         "--labels nothere.txt: cannot open: No such file or directory"),
        (["--model_path", MODEL, "--input_path", IMAGES, "--config", "nothere.json"], 1,
         "openacl.infer: error: initialising ACL with 'nothere.json': aclInit failed: ACL_ERROR_INVALID_FILE (100003)"),
    ]
    for args, code, msg in cases:
        p = runner(*args)
        expect(p, code, msg)
        assert p.stdout == "", args


def test_labels_files(tmp_path):
    (tmp_path / "short.txt").write_text("a\nb\nc\nd\n")
    (tmp_path / "empty.txt").write_text("\n\n")
    (tmp_path / "more.txt").write_text("circle\r\nsquare  \ntriangle\nstar\ncross\nhexagon\nextra\n\n")
    p = classify("--input_path", IMAGES / "star_1.png", "--labels", tmp_path / "short.txt")
    expect(p, 1, "--labels %s: 4 labels for 6 classes (output 'logits'); expected one line per class"
           % (tmp_path / "short.txt"))
    p = classify("--input_path", IMAGES / "star_1.png", "--labels", tmp_path / "empty.txt")
    expect(p, 1, "the file has no labels (expected one class name per line)")
    p = classify("--input_path", IMAGES / "star_1.png", "--labels", tmp_path / "more.txt", "--quiet")
    expect(p, 0, "warning: --labels %s: 7 labels for 6 classes; the extra lines are not used"
           % (tmp_path / "more.txt"))
    assert "1.0000  star (3)" in p.stdout
    if openacl_tool():
        assert p.stdout == c_classify("--input", IMAGES / "star_1.png", "--labels", tmp_path / "more.txt")


def test_not_an_image_classifier(small_models):
    p = runner("--model_path", small_models.dyn, "--input_path", IMAGES / "star_1.png", "--verbose")
    expect(p, 1, "recipe classify: input 'x' has shape [-1,4], expected an RGB image batch [N,3,H,W] (NCHW) or "
                 "[N,H,W,3] (NHWC)", *RELEASE)
    p = runner("--model_path", small_models.fp16, "--input_path", IMAGES / "star_1.png")
    expect(p, 1, "recipe classify: input 'x' is float16, expected float32 (an image tensor)")
    p = runner("--model_path", small_models.affine, "--input_path", IMAGES / "star_1.png")
    expect(p, 1, "recipe classify needs a model with one image input and a class-score output; this one has 2 "
                 "inputs and 1 outputs")


def test_help():
    p = runner("--help")
    expect(p, 0, "--model_path", "--input_path", "--device_id", "--recipe", "--labels", "--topk", "Exit status",
           stream="stdout")
    p = runner("--recipe", "test_infer_runner:NpyArgmax", "--help")
    expect(p, 0, "--scale", stream="stdout")


# ---- release: errors and Ctrl-C ----------------------------------------------------------------


def release_lines(stderr):
    return [line.split("openacl.infer: ", 1)[1] for line in stderr.splitlines()
            if line.startswith("openacl.infer: released: ")]


def check_release(stderr):
    got = release_lines(stderr)
    assert [g.split(" (")[0] for g in got] == RELEASE, stderr


def test_release_after_a_recipe_failure(npy_pictures):
    p = runner("--model_path", MODEL, "--input_path", npy_pictures, "--recipe", "test_infer_runner:FailingRecipe",
               "--verbose")
    expect(p, 1, "openacl.infer: error: circle_1.npy: this recipe always fails")
    check_release(p.stderr)


@pytest.mark.skipif(not hasattr(signal, "SIGINT"), reason="no SIGINT")
def test_ctrl_c_releases_in_order(npy_pictures):
    import threading

    cmd = [test_python(), "-m", "openacl.infer", "--model_path", str(MODEL), "--input_path", str(npy_pictures),
           "--recipe", "test_infer_runner:SlowRecipe", "--verbose"]
    proc = subprocess.Popen(cmd, env=env_with(), cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    lines, started = [], threading.Event()

    def read_stderr():
        for line in proc.stderr:
            lines.append(line)
            if "slow: preprocessing" in line:
                started.set()

    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()
    try:
        assert started.wait(120), "the runner did not reach preprocess\n" + "".join(lines)
        assert any("model 1 loaded" in line for line in lines), "".join(lines)
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            raise AssertionError("no exit within 120 s of SIGINT; stderr so far:\n" + "".join(lines)) from None
        reader.join(30)
        out = proc.stdout.read()  # a few bytes at most: the pipe cannot have filled
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        reader.join(30)
        proc.stdout.close()
        proc.stderr.close()
    err = "".join(lines)
    assert proc.returncode == 130, "exit status %s\n%s" % (proc.returncode, err)
    assert "openacl.infer: error: interrupted (Ctrl-C); releasing the model, context and device" in err
    check_release(err)
    assert "Traceback" not in err and out == ""
