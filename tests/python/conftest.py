"""conftest.py - what the Python-layer tests share (tests/python/*.py).

* The interpreter for subprocesses: Debian's /usr/bin/python3 (the one the acl
  extension is built for, and the one vendor scripts are run with), or
  OPENACL_TEST_PYTHON, or this interpreter when neither exists.  Subprocesses
  inherit this process's environment, so PYTHONPATH (the build's python dir,
  set by ctest) reaches them unchanged: nothing here names a build folder.
* run_python(): runs a script or a code string in a fresh interpreter and
  returns the CompletedProcess (output captured, decoded), failing the test
  with the output when the interpreter dies from a signal.
* The real-model exports: OPENACL_MODELS_DIR (default <repo>/build/models),
  manifest.tsv and the <model>.b<N>.{input,output}.bin references written by
  scripts/models/export_models.py; tests that need them skip when absent.
* Small generated ONNX models (onnx.helper, seeded, a few KB each), with numpy
  references: see SmallModels.
* compare(): the real-model tolerance of tests/models/real_models.c,
  |got - want| <= 5e-5 * max|want| + 1e-4 * |want|.
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
SAMPLES = HERE / "samples"
INVENTORY = HERE / "pyacl_inventory.tsv"

RTOL = 1e-4
ATOL_SCALE = 5e-5

# The stub docstring every not-implemented name carries (python/acl/args.c).
STUB_DOC = "not implemented by openacl yet: returns ACL_ERROR_API_NOT_SUPPORT (200001)"
ACL_ERROR_API_NOT_SUPPORT = 200001


def test_python():
    """The interpreter subprocesses run with."""
    env = os.environ.get("OPENACL_TEST_PYTHON")
    if env:
        return env
    if os.path.exists("/usr/bin/python3"):
        return "/usr/bin/python3"
    return sys.executable


test_python.__test__ = False  # not a test: pytest collects test_* functions


# scripts/test.sh preloads AddressSanitizer's runtime into the interpreter for
# the ASan build's run.  Two things mean something else there: RSS (freed
# memory waits in ASan's quarantine, hundreds of MB) and "mapped memory"
# (ASan maps its shadow, so a stray address such as 1 << 40 lands in it).
UNDER_ASAN = "libasan" in os.environ.get("LD_PRELOAD", "")


def run_python(script=None, args=(), *, code=None, env=None, timeout=120, cwd=None, check_signal=True):
    """Runs `script` (a path) or `code` (a string) with args in a new
    interpreter.  env: variables to set (None as a value removes one) on top
    of this process's environment.  Returns the CompletedProcess with text
    stdout/stderr.  A death by signal (a crash) fails the test at once."""
    cmd = [test_python()]
    if code is not None:
        cmd += ["-c", code]
    else:
        cmd.append(str(script))
    cmd += [str(a) for a in args]
    e = dict(os.environ)
    e.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    e.setdefault("PYTHONFAULTHANDLER", "1")  # a crash prints the Python stack
    for k, v in (env or {}).items():
        if v is None:
            e.pop(k, None)
        else:
            e[k] = str(v)
    try:
        p = subprocess.run(cmd, env=e, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired as t:
        out = (t.stdout or b"").decode(errors="replace")
        err = (t.stderr or b"").decode(errors="replace")
        pytest.fail("%s timed out after %ss\n--- stdout\n%s\n--- stderr\n%s"
                    % (cmd[1:3], timeout, out[-4000:], err[-4000:]))
    p = subprocess.CompletedProcess(p.args, p.returncode, p.stdout.decode(errors="replace"),
                                    p.stderr.decode(errors="replace"))
    if check_signal and p.returncode < 0:
        try:
            sig = signal.Signals(-p.returncode).name
        except ValueError:
            sig = str(-p.returncode)
        pytest.fail("the interpreter died from %s (a crash)\n--- stdout\n%s\n--- stderr\n%s" %
                    (sig, p.stdout[-4000:], p.stderr[-6000:]))
    return p


def openacl_tool():
    """The openacl C tool: OPENACL_TOOL, beside the build's python folder, build/openacl, or PATH."""
    env = os.environ.get("OPENACL_TOOL")
    if env:
        return env
    for p in os.environ.get("PYTHONPATH", "").split(os.pathsep):
        cand = Path(p).resolve().parent / "openacl" if p else None
        if cand and cand.is_file() and os.access(cand, os.X_OK):
            return str(cand)
    cand = REPO / "build" / "openacl"
    if cand.is_file():
        return str(cand)
    return shutil.which("openacl")


def need_tool():
    """openacl_tool(), or skip the test when it is not built."""
    t = openacl_tool()
    if not t:
        pytest.skip("the openacl tool is not built (set OPENACL_TOOL)")
    return t


def describe(p):
    """The output of a CompletedProcess, for assertion messages."""
    return "exit status %s\n--- stdout\n%s\n--- stderr\n%s" % (p.returncode, p.stdout[-6000:], p.stderr[-6000:])


def compare(got, want, what, rtol=RTOL, atol_scale=ATOL_SCALE):
    """Asserts |got - want| <= atol_scale * max|want| + rtol * |want| element
    by element (NaN counts as a failure); shapes must match exactly."""
    import numpy as np

    got = np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, "%s: shape %s, want %s" % (what, got.shape, want.shape)
    g = got.astype(np.float64)
    w = want.astype(np.float64)
    scale = float(np.max(np.abs(w))) if w.size else 0.0
    atol = atol_scale * scale
    err = np.abs(g - w)
    err[np.isnan(err)] = np.inf
    bad = err > atol + rtol * np.abs(w)
    if bad.any():
        i = int(np.argmax(err - (atol + rtol * np.abs(w))))
        pytest.fail("%s: %d of %d values outside %g + %g x |want| (max |want| %.4g); "
                    "worst element %d: got %.9g want %.9g"
                    % (what, int(bad.sum()), w.size, atol, rtol, scale, i, g.flat[i], w.flat[i]))


# ---- the real-model exports ------------------------------------------------------------


def models_dir_path():
    d = os.environ.get("OPENACL_MODELS_DIR")
    return Path(d) if d else REPO / "build" / "models"


def read_manifest(d):
    """[(model file, batch, input shape, output shape)] from d/manifest.tsv."""
    cases = []
    for line in (d / "manifest.tsv").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split("\t")
        assert len(f) == 4, "manifest.tsv: bad line %r" % line
        shape = lambda s: tuple(int(x) for x in s.split(","))
        cases.append((f[0], int(f[1]), shape(f[2]), shape(f[3])))
    return cases


class RealModels:
    """The export directory: cases, reference arrays."""

    def __init__(self, d):
        self.dir = d
        self.cases = read_manifest(d)

    def models(self):
        seen = []
        for c in self.cases:
            if c[0] not in seen:
                seen.append(c[0])
        return seen

    def path(self, model):
        return self.dir / model

    def ref(self, model, batch, what, shape):
        import numpy as np

        stem = model[:-5] if model.endswith(".onnx") else model
        a = np.fromfile(self.dir / ("%s.b%d.%s.bin" % (stem, batch, what)), dtype="<f4")
        return a.reshape(shape)

    def ref_file(self, model, batch, what):
        stem = model[:-5] if model.endswith(".onnx") else model
        return self.dir / ("%s.b%d.%s.bin" % (stem, batch, what))


@pytest.fixture(scope="session")
def real_models():
    d = models_dir_path()
    if not (d / "manifest.tsv").is_file():
        pytest.skip("no model exports in %s (set OPENACL_MODELS_DIR, or run "
                    "/usr/bin/python3 scripts/models/export_models.py --out build/models --refs)" % d)
    pytest.importorskip("numpy")
    return RealModels(d)


# ---- small generated models ---------------------------------------------------------------


class SmallModels:
    """Small ONNX models written with onnx.helper into a session folder.

    affine   x:float[2,3], z:float[2,3] -> y = 2*x + z  (static; two inputs)
    dyn      x:float[batch,4] -> y = relu(x @ W + b):float[batch,3]  (symbolic batch)
    dynhw    x:float[1,3,h,w] -> y = relu(x - 0.5):float[1,3,h,w]  (symbolic height and width)
    fp16     x:float16[1,3,8,8] -> y = relu(conv3x3(x, W, b, pad 1)):float16[1,4,8,8], W and b float16
    slow     x:float[1024,1024] -> 24 x (MatMul by one shared W, then Tanh): 50 GFLOP, an
             execution long enough (a tenth of a second and more) for two threads to overlap
    """

    def __init__(self, d):
        import numpy as np
        import onnx
        from onnx import TensorProto, helper, numpy_helper

        self.dir = d
        self.np = np
        rng = np.random.default_rng(20240611)
        self.W = rng.standard_normal((4, 3)).astype(np.float32)
        self.b = rng.standard_normal(3).astype(np.float32)
        self.cw = (rng.standard_normal((4, 3, 3, 3)) * 0.3).astype(np.float16)
        self.cb = (rng.standard_normal(4) * 0.1).astype(np.float16)
        self.sw = (rng.standard_normal((1024, 1024)) / 32.0).astype(np.float32)

        def save(name, nodes, inputs, outputs, inits=()):
            g = helper.make_graph(nodes, name, inputs, outputs, list(inits))
            m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="openacl-tests")
            m.ir_version = 8
            onnx.checker.check_model(m)
            path = d / (name + ".onnx")
            onnx.save(m, str(path))
            return path

        F, H = TensorProto.FLOAT, TensorProto.FLOAT16
        vi = helper.make_tensor_value_info
        self.affine = save("affine", [
            helper.make_node("Mul", ["x", "two"], ["x2"]),
            helper.make_node("Add", ["x2", "z"], ["y"]),
        ], [vi("x", F, [2, 3]), vi("z", F, [2, 3])], [vi("y", F, [2, 3])],
            [numpy_helper.from_array(np.array(2.0, np.float32), "two")])
        self.dyn = save("dyn", [
            helper.make_node("MatMul", ["x", "W"], ["m"]),
            helper.make_node("Add", ["m", "b"], ["a"]),
            helper.make_node("Relu", ["a"], ["y"]),
        ], [vi("x", F, ["batch", 4])], [vi("y", F, ["batch", 3])],
            [numpy_helper.from_array(self.W, "W"), numpy_helper.from_array(self.b, "b")])
        self.dynhw = save("dynhw", [
            helper.make_node("Sub", ["x", "half"], ["s"]),
            helper.make_node("Relu", ["s"], ["y"]),
        ], [vi("x", F, [1, 3, "h", "w"])], [vi("y", F, [1, 3, "h", "w"])],
            [numpy_helper.from_array(np.array(0.5, np.float32), "half")])
        self.fp16 = save("fp16", [
            helper.make_node("Conv", ["x", "cw", "cb"], ["c"], pads=[1, 1, 1, 1]),
            helper.make_node("Relu", ["c"], ["y"]),
        ], [vi("x", H, [1, 3, 8, 8])], [vi("y", H, [1, 4, 8, 8])],
            [numpy_helper.from_array(self.cw, "cw"), numpy_helper.from_array(self.cb, "cb")])
        nodes, prev = [], "x"
        for i in range(24):
            out = "y" if i == 23 else "t%d" % i
            nodes.append(helper.make_node("MatMul", [prev, "sw"], ["m%d" % i]))
            nodes.append(helper.make_node("Tanh", ["m%d" % i], [out]))
            prev = out
        self.slow = save("slow", nodes, [vi("x", F, [1024, 1024])], [vi("y", F, [1024, 1024])],
                         [numpy_helper.from_array(self.sw, "sw")])

    # numpy references
    def affine_ref(self, x, z):
        return (2 * x + z).astype(self.np.float32)

    def dyn_ref(self, x):
        return self.np.maximum(x @ self.W + self.b, 0).astype(self.np.float32)

    def dynhw_ref(self, x):
        return self.np.maximum(x - 0.5, 0).astype(self.np.float32)

    def fp16_ref(self, x):
        """conv3x3 pad 1 + relu computed in float64 from the float16 values."""
        np = self.np
        xd = x.astype(np.float64)
        w = self.cw.astype(np.float64)
        n, c, h, wd = xd.shape
        p = np.zeros((n, c, h + 2, wd + 2))
        p[:, :, 1:-1, 1:-1] = xd
        y = np.zeros((n, w.shape[0], h, wd))
        for i in range(3):
            for j in range(3):
                y += np.einsum("nchw,oc->nohw", p[:, :, i:i + h, j:j + wd], w[:, :, i, j])
        y += self.cb.astype(np.float64)[None, :, None, None]
        return np.maximum(y, 0)

    def slow_ref(self, x):
        np = self.np
        y = x.astype(np.float32)
        for _ in range(24):
            y = np.tanh(y @ self.sw)
        return y


def _tempdir(prefix):
    return Path(tempfile.mkdtemp(prefix="openacl-tests-%s-" % prefix))


@pytest.fixture
def workdir():
    """A scratch folder for one test, removed afterwards (model copies and
    inputs of the real networks are megabytes)."""
    d = _tempdir("work")
    yield d
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(scope="session")
def small_models():
    pytest.importorskip("numpy")
    pytest.importorskip("onnx", reason="python3-onnx is needed to write the test models")
    d = _tempdir("models")
    try:
        yield SmallModels(d)
    finally:
        shutil.rmtree(d, ignore_errors=True)


# ---- a kernel binary for acl.rt's binary and launch functions ---------------------------------


@pytest.fixture(scope="session")
def vadd_kernel():
    """examples/kernels/vadd_kernel.c built as a shared object (docs/kernels.md);
    skips when no C compiler is found."""
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    src = REPO / "examples" / "kernels" / "vadd_kernel.c"
    if not cc or not src.is_file():
        pytest.skip("no C compiler or no examples/kernels/vadd_kernel.c for the kernel tests")
    d = _tempdir("kernel")
    out = d / "libvadd_kernel.so"
    p = subprocess.run([cc, "-O1", "-fPIC", "-shared", "-fvisibility=hidden", "-I", str(REPO / "include"),
                        "-o", str(out), str(src)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        shutil.rmtree(d, ignore_errors=True)
        pytest.skip("cannot build the kernel: %s" % p.stdout.decode(errors="replace"))
    yield out
    shutil.rmtree(d, ignore_errors=True)


# ---- the inventory ------------------------------------------------------------------------


class Entry:
    """One row of pyacl_inventory.tsv."""

    def __init__(self, module, name, args, returns, c_name, flags):
        self.module = module
        self.name = name
        self.args_text = args
        self.returns = returns
        self.c_name = c_name
        self.flags = set() if flags == "-" else set(flags.split(","))
        self.args = parse_args(args)  # [(name, type, optional)]

    @property
    def dotted(self):
        return "%s.%s" % (self.module, self.name)

    @property
    def stub(self):
        return "STUB" in self.flags

    @property
    def min_args(self):
        return sum(1 for a in self.args if not a[2])

    @property
    def max_args(self):
        return len(self.args)

    def __repr__(self):
        return self.dotted


def split_top(text, sep=","):
    """Splits text on sep outside brackets."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == sep and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse_args(text):
    """'(a:p, b:sz)' / '[path:str]' / '([fn:callable|None])' -> [(name, type, optional)]."""
    t = text.strip()
    if t.startswith("(") and t.endswith(")"):
        t = t[1:-1]
    args = []
    for part in split_top(t):
        opt = part.startswith("[") and part.endswith("]")
        if opt:
            part = part[1:-1]
        name, _, typ = part.partition(":")
        args.append((name.strip(), typ.strip(), opt))
    return args


def parse_returns(text):
    """The returns column -> ('tuple', [element types]) or ('bare', type).
    Element types are the text after ':' ('p', 'int', 'dict', ...) or 'ret'."""
    t = text.strip()
    if t.startswith("(") and t.endswith(")"):
        items = []
        for part in split_top(t[1:-1]):
            if part == "ret":
                items.append("ret")
            elif part.startswith("{"):
                items.append("dict")
            else:
                items.append(part.partition(":")[2].strip())
        return "tuple", items
    if t == "ret":
        return "bare", "ret"
    if ":" in t:
        t = t.partition(":")[2].strip()
    if t.startswith("int"):
        t = "int"
    return "bare", t


def load_inventory():
    rows = []
    for line in INVENTORY.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#") or line.startswith("module\t"):
            continue
        f = line.split("\t")
        assert len(f) == 6, "pyacl_inventory.tsv: bad line %r" % line
        rows.append(Entry(*f))
    return rows


def check_value(value, typ, what):
    """Asserts that value has the inventory type typ ('int', 'p', 'str | None', ...)."""
    def is_int(v):
        return isinstance(v, int) and not isinstance(v, bool)

    alts = [a.strip() for a in typ.split("|")] if not typ.startswith("list[") or "] |" in typ else [typ]
    ok = False
    for a in alts:
        if a in ("ret", "int", "p"):
            ok = ok or (is_int(value) and (a != "p" or value >= 0))
        elif a == "float":
            ok = ok or isinstance(value, float)
        elif a == "str":
            ok = ok or isinstance(value, str)
        elif a == "None":
            ok = ok or value is None
        elif a == "bytes":
            ok = ok or isinstance(value, bytes)
        elif a == "dict":
            ok = ok or isinstance(value, dict)
        elif a.startswith("list"):
            ok = ok or isinstance(value, list)
        elif a.startswith("numpy"):
            ok = ok or type(value).__name__ == "ndarray"
        else:
            raise AssertionError("unknown inventory type %r" % a)
    assert ok, "%s: %r is not %s" % (what, value, typ)
    return value


def check_shape(entry, result):
    """Asserts that result has the inventory's return shape; returns the ret
    (the last element of a tuple ending in ret, or a bare ret), else None."""
    kind, t = parse_returns(entry.returns)
    if kind == "tuple":
        assert isinstance(result, tuple), "%s returned %r, want a %d-tuple %s" % (
            entry.dotted, result, len(t), entry.returns)
        assert len(result) == len(t), "%s returned %r, want %s" % (entry.dotted, result, entry.returns)
        for i, (v, et) in enumerate(zip(result, t)):
            check_value(v, et, "%s result[%d]" % (entry.dotted, i))
        return result[-1] if t[-1] == "ret" else None
    check_value(result, t, entry.dotted)
    return result if t == "ret" else None
