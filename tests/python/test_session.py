"""test_session.py - the pythonic `openacl` package: Session, AclError, explain(), devices().

What is checked:
  * Session describes the model (TensorInfo: names, shapes with -1 for open
    dimensions, numpy dtypes, formats) and runs it with a list, a tuple, a
    dict or one array; symbolic batch 1, 4 and 7 and an open height/width
    (buffers grown and reused as shapes change and come back); float16 and
    int64 inputs; outputs equal to numpy references, to `openacl infer`'s
    output files (the C tool, when built) and to the exported ResNet-18's
    references (when exported, batch 1 and 4);
  * every input error names the input and says what was expected and what
    was given: a wrong dtype (TypeError), a wrong rank or dimension, a wrong
    count, a missing or unknown name (ValueError), something not an array;
  * AclError from ACL failures: code, name, message, remedy, a readable
    str(), picklable; a missing model (FileNotFoundError), a folder, a file
    that is not ONNX, an invisible device, an execution that fails;
  * run_async: a Future with the same outputs, queued runs in order, errors
    in the future, input errors raised at the call, close() waiting for the
    queue; runs from several threads at once;
  * the context manager and close(): idempotent, a closed Session refuses
    to run with a clear error; two Sessions in one process;
  * ACL's initialisation shared with the program (fresh interpreters): a
    program's own acl.init is left alone, the last Session finalizes what
    the package initialised, a Session survives the program's acl.finalize,
    a Session left open at interpreter exit is closed cleanly;
  * explain() for codes and names in every form the C tool takes, errors
    for unknown ones; devices() and visible_device_count() under the
    visibility variables, against `openacl devices --json`.

Run: PYTHONPATH=build/python /usr/bin/python3 -m pytest -q tests/python/test_session.py
"""
import json
import os
import pickle
import subprocess
import threading
from pathlib import Path

import numpy as np
import pytest

from conftest import REPO, compare, describe, need_tool, openacl_tool, run_python

import openacl  # noqa: E402
from openacl import AclError, Session  # noqa: E402

SHAPES = REPO / "models" / "shapes" / "shapes.onnx"
GEAR_VARS = ("OPENACL_DYNAMIC_BATCH", "OPENACL_DYNAMIC_HW", "OPENACL_DYNAMIC_DIMS")
ACL_ERROR_PARSE_MODEL = 100013
ACL_ERROR_UNINITIALIZE = 100001
ACL_ERROR_RT_INVALID_DEVICEID = 107001


@pytest.fixture(autouse=True)
def no_gears(monkeypatch):
    for v in GEAR_VARS:
        monkeypatch.delenv(v, raising=False)


class Models:
    """Models of this file's own, written with onnx.helper."""

    def __init__(self, d):
        import onnx
        from onnx import TensorProto, helper

        self.dir = d

        def save(name, nodes, inputs, outputs, inits=(), check=True):
            g = helper.make_graph(nodes, name, inputs, outputs, list(inits))
            m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="openacl-tests")
            m.ir_version = 8
            if check:  # the checker wants declared shapes on graph inputs and outputs
                onnx.checker.check_model(m)
            path = d / (name + ".onnx")
            onnx.save(m, str(path))
            return path

        vi = helper.make_tensor_value_info
        I64, F = TensorProto.INT64, TensorProto.FLOAT
        two = helper.make_tensor("two", I64, [], [2])
        one = helper.make_tensor("one", I64, [], [1])
        # int64 in, int64 out: y = 2 * x + 1, symbolic batch
        self.int64 = save("int64", [helper.make_node("Mul", ["x", "two"], ["m"]),
                                    helper.make_node("Add", ["m", "one"], ["y"])],
                          [vi("x", I64, ["n", 3])], [vi("y", I64, ["n", 3])], [two, one])
        # two inputs sharing the symbol n: given different sizes, the execution fails (in Add)
        self.pair = save("pair", [helper.make_node("Add", ["a", "b"], ["y"])],
                         [vi("a", F, ["n", 4]), vi("b", F, ["n", 4])], [vi("y", F, ["n", 4])])
        # no declared shapes at all
        self.noshape = save("noshape", [helper.make_node("Relu", ["x"], ["y"])], [vi("x", F, None)],
                            [vi("y", F, None)], check=False)
        # a scalar in, a scalar out
        self.scalar = save("scalar", [helper.make_node("Relu", ["x"], ["y"])], [vi("x", F, [])], [vi("y", F, [])])
        # an output whose size depends on an input's values: its buffer must grow
        self.expand = save("expand", [helper.make_node("Expand", ["x", "shape"], ["y"])],
                           [vi("x", F, [1, 1]), vi("shape", I64, [2])], [vi("y", F, ["a", "b"])])
        # bfloat16, which numpy has no dtype for: its raw bits in and out
        self.bf16 = save("bf16", [helper.make_node("Cast", ["x"], ["y"], to=F),
                                  helper.make_node("Identity", ["x"], ["z"])],
                         [vi("x", TensorProto.BFLOAT16, [3])],
                         [vi("y", F, [3]), vi("z", TensorProto.BFLOAT16, [3])])
        # bool, uint8 and float64 tensors
        self.kinds = save("kinds", [helper.make_node("Not", ["b"], ["nb"]), helper.make_node("Neg", ["d"], ["nd"]),
                                    helper.make_node("Identity", ["u"], ["uo"])],
                          [vi("b", TensorProto.BOOL, [2]), vi("u", TensorProto.UINT8, [3]),
                           vi("d", TensorProto.DOUBLE, [1])],
                          [vi("nb", TensorProto.BOOL, [2]), vi("uo", TensorProto.UINT8, [3]),
                           vi("nd", TensorProto.DOUBLE, [1])])


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    pytest.importorskip("onnx", reason="python3-onnx is needed to write the test models")
    return Models(tmp_path_factory.mktemp("session_models"))


@pytest.fixture(scope="module")
def shapes():
    with Session(SHAPES) as s:
        yield s


def picture(seed, n=1):
    return np.random.default_rng(seed).standard_normal((n, 3, 64, 64)).astype(np.float32)


# ---- description -------------------------------------------------------------------------------


def test_describes_the_model(shapes):
    (i,) = shapes.inputs
    (o,) = shapes.outputs
    assert (i.name, i.index, i.shape, i.dtype, i.acl_dtype, i.format, i.size) == \
        ("image", 0, (-1, 3, 64, 64), np.dtype(np.float32), 0, "NCHW", 0)
    assert i.dynamic and o.dynamic
    assert (o.name, o.shape, o.dtype) == ("logits", (-1, 6), np.dtype(np.float32))
    assert str(i) == "image: float32 [?, 3, 64, 64]"
    assert shapes.model_id > 0 and shapes.context and shapes.device == 0 and not shapes.closed
    assert "shapes.onnx" in repr(shapes) and "device=0" in repr(shapes)


def test_static_model_description(small_models):
    with Session(small_models.affine) as s:
        assert [(t.name, t.shape, t.size, t.dynamic) for t in s.inputs] == \
            [("x", (2, 3), 24, False), ("z", (2, 3), 24, False)]
        assert [(t.name, t.shape, t.size) for t in s.outputs] == [("y", (2, 3), 24)]


# ---- running -----------------------------------------------------------------------------------


def test_run_takes_list_tuple_dict_and_one_array(shapes):
    x = picture(1)
    want = shapes.run([x])
    assert len(want) == 1 and want[0].shape == (1, 6) and want[0].dtype == np.float32
    for inputs in ((x,), {"image": x}, x):
        got = shapes.run(inputs)
        assert len(got) == 1 and np.array_equal(got[0], want[0])
    # lists and scalars are converted to the input's dtype (no array, no dtype to check)
    got = shapes.run([x.tolist()])
    assert np.array_equal(got[0], want[0])
    # a non-contiguous view is copied, not misread
    big = np.ascontiguousarray(np.repeat(x, 2, axis=3))
    assert np.array_equal(shapes.run([big[:, :, :, ::2]])[0], want[0])


def test_symbolic_batch_1_4_7(shapes):
    x = picture(2, 7)
    singles = np.concatenate([shapes.run([x[k:k + 1]])[0] for k in range(7)])
    for n in (4, 1, 7, 4):  # grows, shrinks and comes back to a shape seen before
        (y,) = shapes.run([x[:n]])
        assert y.shape == (n, 6)
        compare(y, singles[:n], "batch %d" % n)


def test_outputs_equal_the_tool(shapes, tmp_path):
    t = need_tool()
    x = picture(3, 2)
    np.save(tmp_path / "x.npy", x)
    p = subprocess.run([t, "infer", "--model", str(SHAPES), "--input", str(tmp_path / "x.npy"), "--output",
                        str(tmp_path / "out"), "--outfmt", "NPY", "--quiet"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    want = np.load(tmp_path / "out" / "x_logits.npy")
    (got,) = shapes.run([x])
    assert got.shape == want.shape == (2, 6)
    assert np.array_equal(got, want)


def test_small_models_against_numpy(small_models):
    sm = small_models
    rng = np.random.default_rng(5)
    with Session(sm.affine) as s:
        x, z = rng.standard_normal((2, 2, 3)).astype(np.float32)
        compare(s.run([x, z])[0], sm.affine_ref(x, z), "affine, list")
        compare(s.run({"z": z, "x": x})[0], sm.affine_ref(x, z), "affine, dict in another order")
    with Session(sm.dyn) as s:
        for n in (1, 4, 7, 1, 64):
            x = rng.standard_normal((n, 4)).astype(np.float32)
            (y,) = s.run([x])
            assert y.shape == (n, 3)
            compare(y, sm.dyn_ref(x), "dyn batch %d" % n)


def test_open_height_and_width(small_models):
    rng = np.random.default_rng(6)
    with Session(small_models.dynhw) as s:
        assert s.inputs[0].shape == (1, 3, -1, -1)
        for h, w in ((8, 8), (5, 17), (40, 3), (8, 8), (1, 1)):
            x = rng.random((1, 3, h, w), dtype=np.float32)
            (y,) = s.run([x])
            assert y.shape == (1, 3, h, w)
            compare(y, small_models.dynhw_ref(x), "%dx%d" % (h, w))
        with pytest.raises(ValueError, match=r"input 'x' expects shape \[1, 3, \?, \?\], got \(2, 3, 8, 8\): "
                                             r"dimension 0 must be 1, not 2"):
            s.run([np.zeros((2, 3, 8, 8), np.float32)])


def test_float16_input(small_models):
    with Session(small_models.fp16) as s:
        assert s.inputs[0].dtype == np.float16 and s.outputs[0].dtype == np.float16
        x = np.random.default_rng(7).standard_normal((1, 3, 8, 8)).astype(np.float16)
        (y,) = s.run([x])
        assert y.dtype == np.float16 and y.shape == (1, 4, 8, 8)
        ref = small_models.fp16_ref(x)
        assert np.abs(y.astype(np.float64) - ref).max() <= 2e-2 * max(1.0, np.abs(ref).max())
        with pytest.raises(TypeError) as e:
            s.run([x.astype(np.float32)])
        assert str(e.value) == ("input 'x' expects float16, got a float32 array "
                                "(convert it with .astype(numpy.float16))")


def test_int64_input(models):
    with Session(models.int64) as s:
        assert s.inputs[0].dtype == np.int64 and s.outputs[0].dtype == np.int64
        x = np.arange(-6, 6, dtype=np.int64).reshape(4, 3) * (1 << 40)
        (y,) = s.run([x])
        assert y.dtype == np.int64 and np.array_equal(y, 2 * x + 1)
        for wrong in (np.int32, np.float32, np.uint64):
            with pytest.raises(TypeError, match="input 'x' expects int64, got a %s array" % np.dtype(wrong)):
                s.run([x.astype(wrong)])
        # plain Python integers are converted
        assert np.array_equal(s.run([[[1, 2, 3]]])[0], [[3, 5, 7]])
        with pytest.raises(TypeError, match="input 'x' expects int64 data; list could not be converted"):
            s.run([[["a", "b", "c"]]])


def test_undeclared_shapes_scalars_and_other_types(models):
    rng = np.random.default_rng(14)
    with Session(models.noshape) as s:
        assert s.inputs[0].shape is None and s.inputs[0].dynamic and str(s.inputs[0]) == "x: float32 [any shape]"
        for shape in ((3,), (2, 5), (), (4, 1, 2), (3,)):
            x = np.asarray(rng.standard_normal(shape), np.float32)
            (y,) = s.run([x])
            assert y.shape == shape and np.array_equal(y, np.maximum(x, 0)), shape
    with Session(models.scalar) as s:
        assert s.inputs[0].shape == () and s.inputs[0].size == 4 and not s.inputs[0].dynamic
        assert s.run([np.float32(-3)])[0] == 0 and s.run([np.array(2.5, np.float32)])[0] == 2.5
        with pytest.raises(ValueError, match=r"input 'x' expects 0 dimensions \[\], got 1: shape \(1,\)"):
            s.run([np.zeros(1, np.float32)])
    with Session(models.expand) as s:
        one = np.ones((1, 1), np.float32)
        for shape in ((300, 700), (2, 3), (3000, 3000), (1, 1)):
            (y,) = s.run([one, np.array(shape, np.int64)])
            assert y.shape == shape and y.dtype == np.float32 and float(y.sum()) == shape[0] * shape[1]
    with Session(models.kinds) as s:
        assert [str(t) for t in s.inputs] == ["b: bool [2]", "u: uint8 [3]", "d: float64 [1]"]
        nb, uo, nd = s.run([np.array([True, False]), np.array([1, 2, 255], np.uint8), np.array([1.5])])
        assert nb.tolist() == [False, True] and uo.dtype == np.uint8 and uo.tolist() == [1, 2, 255]
        assert nd.dtype == np.float64 and nd.tolist() == [-1.5]
        with pytest.raises(TypeError, match="input 'b' expects bool, got a uint8 array"):
            s.run([np.array([1, 0], np.uint8), np.zeros(3, np.uint8), np.zeros(1)])


def test_bfloat16_as_raw_bits(models):
    with Session(models.bf16) as s:
        (x,) = s.inputs
        assert x.dtype is None and x.acl_dtype == 27 and x.type_name == "bfloat16" and str(x) == "x: bfloat16 [3]"
        bits = (np.array([1.0, -2.0, 0.5], np.float32).view(np.uint32) >> 16).astype(np.uint16)
        y, z = s.run([bits])
        assert y.tolist() == [1.0, -2.0, 0.5] and z.dtype == np.uint16 and np.array_equal(z, bits)
        assert np.array_equal(s.run([bits.view(np.int16)])[1], bits)  # any 2-byte type carries the bits
        for bad in (np.array([1.0, 2, 3]), np.array([1, 2, 3], np.float32)):  # float64 too (== None in numpy)
            with pytest.raises(TypeError, match="input 'x' expects bfloat16 .its raw bits as uint16 or another "
                                                "2-byte type., got a %s array" % bad.dtype):
                s.run([bad])
        with pytest.raises(TypeError, match="input 'x' is bfloat16: pass a numpy array of 2-byte items"):
            s.run([[1, 2, 3]])


# ---- input errors ------------------------------------------------------------------------------


def test_input_errors_name_the_input(shapes, small_models):
    x = picture(8)
    cases = [
        ([x, x], ValueError, "2 inputs given, but model '.*shapes.onnx' has 1 input "
                             r"\(image: float32 \[\?, 3, 64, 64\]\)"),
        ([], ValueError, "0 inputs given, but model .* has 1 input"),
        ({"img": x}, ValueError, r"unknown input 'img': model .* has 1 input \(image: float32"),
        ({}, ValueError, "missing input 'image'"),
        ([x[0]], ValueError, r"input 'image' expects 4 dimensions \[\?, 3, 64, 64\], got 3: shape \(3, 64, 64\)"),
        ([x[None]], ValueError, "input 'image' expects 4 dimensions .* got 5"),
        ([np.zeros((1, 4, 64, 64), np.float32)], ValueError,
         r"input 'image' expects shape \[\?, 3, 64, 64\], got \(1, 4, 64, 64\): dimension 1 must be 3, not 4"),
        ([np.zeros((1, 3, 64, 32), np.float32)], ValueError, "dimension 3 must be 64, not 32"),
        ([x.astype(np.float64)], TypeError, r"input 'image' expects float32, got a float64 array \(convert it with "
                                            r"\.astype\(numpy\.float32\)\)"),
        ([x.astype(np.float16)], TypeError, "input 'image' expects float32, got a float16 array"),
        ([x.astype(">f4")], TypeError, "input 'image' expects float32, got a >f4 array"),
        (5, TypeError, "run.. takes a list of arrays in the model's input order, a dict .* not int"),
        ("image", TypeError, "not str"),
    ]
    for inputs, exc, msg in cases:
        with pytest.raises(exc, match=msg):
            shapes.run(inputs)
        with pytest.raises(exc, match=msg):  # run_async checks at the call, before queueing
            shapes.run_async(inputs)
    with Session(small_models.affine) as s:
        a = np.zeros((2, 3), np.float32)
        with pytest.raises(ValueError, match="model .*affine.onnx' has 2 inputs .*; pass a list of arrays"):
            s.run(a)
        with pytest.raises(ValueError, match="missing input 'z'"):
            s.run({"x": a})
        with pytest.raises(ValueError, match=r"unknown input 'w', 'v'"):
            s.run({"x": a, "z": a, "w": a, "v": a})
        with pytest.raises(ValueError, match=r"input 'z' expects shape \[2, 3\], got \(3, 2\)"):
            s.run([a, a.T.copy()])
    # after all these refusals the Session still runs
    assert shapes.run([x])[0].shape == (1, 6)


# ---- ACL errors --------------------------------------------------------------------------------


def test_missing_model_folder_and_garbage(tmp_path):
    with pytest.raises(FileNotFoundError, match="model file not found") as e:
        Session(tmp_path / "nothere.onnx")
    assert e.value.filename == str(tmp_path / "nothere.onnx")
    with pytest.raises(IsADirectoryError):
        Session(tmp_path)
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"this is not a protobuf at all \xff\xff\xff")
    with pytest.raises(AclError) as e:
        Session(bad)
    err = e.value
    assert err.code == ACL_ERROR_PARSE_MODEL and err.name == "ACL_ERROR_PARSE_MODEL"
    assert err.api == "aclmdlLoadFromFile" and "bad.onnx" in err.context
    assert err.message and err.remedy and err.meaning
    assert str(err).startswith("loading model '%s': aclmdlLoadFromFile failed: ACL_ERROR_PARSE_MODEL (100013): "
                               % bad)
    with pytest.raises(TypeError, match="device must be an int"):
        Session(SHAPES, device="0")


def test_invisible_device():
    with pytest.raises(AclError) as e:
        Session(SHAPES, device=7)
    err = e.value
    assert err.code == ACL_ERROR_RT_INVALID_DEVICEID and err.name == "ACL_ERROR_RT_INVALID_DEVICEID"
    assert err.api == "aclrtSetDevice" and err.context == "opening device 7"
    assert "7" in err.message and err.remedy
    assert "opening device 7: aclrtSetDevice failed: ACL_ERROR_RT_INVALID_DEVICEID (107001)" in str(err)
    # the failed Session released what it had made: a new one opens and runs
    with Session(SHAPES) as s:
        assert s.run([picture(9)])[0].shape == (1, 6)


def test_execution_failure_is_an_acl_error(models):
    with Session(models.pair) as s:
        a = np.ones((2, 4), np.float32)
        (y,) = s.run([a, a])
        assert np.array_equal(y, 2 * a)
        with pytest.raises(AclError) as e:
            s.run([a, np.ones((3, 4), np.float32)])
        err = e.value
        assert err.api == "aclmdlExecute" and "pair.onnx" in err.context and err.code != 0
        assert err.name.startswith("ACL_ERROR") and err.message
        fut = s.run_async([a, np.ones((3, 4), np.float32)])
        with pytest.raises(AclError) as e2:
            fut.result(timeout=60)
        assert e2.value.code == err.code
        # and the Session still runs after failures
        assert np.array_equal(s.run([a, a])[0], 2 * a)


def test_acl_error_fields():
    e = AclError(107002, "aclrtGetDevice", "aclrtGetDevice failed: ACL_ERROR_RT_CONTEXT_NULL (107002): no context "
                                           "on this thread. Remedy: set a device")
    assert (e.code, e.name, e.api) == (107002, "ACL_ERROR_RT_CONTEXT_NULL", "aclrtGetDevice")
    assert e.remedy == openacl.explain(107002).remedy and e.meaning == "no current context"
    assert str(e) == ("aclrtGetDevice failed: ACL_ERROR_RT_CONTEXT_NULL (107002): no context on this thread. "
                      "Remedy: set a device")
    bare = AclError(107002, message="")
    assert str(bare) == "ACL_ERROR_RT_CONTEXT_NULL (107002): no current context. Remedy: " + bare.remedy
    unknown = AclError(123456789, "aclX", message="")
    assert unknown.name == "UNKNOWN_ERROR" and unknown.remedy == "" and "aclX failed: UNKNOWN_ERROR" in str(unknown)
    copy = pickle.loads(pickle.dumps(e))
    assert isinstance(copy, AclError) and (copy.code, copy.api, copy.message, str(copy)) == \
        (e.code, e.api, e.message, str(e))
    assert isinstance(e, Exception)


# ---- run_async and threads ---------------------------------------------------------------------


def test_run_async(shapes):
    xs = [picture(20 + k, 1 + k % 3) for k in range(6)]
    want = [shapes.run([x])[0] for x in xs]
    futs = [shapes.run_async([x]) for x in xs]
    for f, w in zip(futs, want):
        (y,) = f.result(timeout=60)
        assert np.array_equal(y, w)
    done = threading.Event()
    f = shapes.run_async({"image": xs[0]})
    f.add_done_callback(lambda _: done.set())
    assert done.wait(60) and np.array_equal(f.result()[0], want[0])


def test_close_waits_for_queued_runs(small_models):
    s = Session(small_models.dyn)
    xs = [np.full((n, 4), n, np.float32) for n in range(1, 9)]
    futs = [s.run_async([x]) for x in xs]
    s.close()
    for f, x in zip(futs, xs):
        compare(f.result(timeout=0)[0], small_models.dyn_ref(x), "queued before close")
    with pytest.raises(RuntimeError, match="closed"):
        s.run_async([xs[0]])


def test_threads_share_a_session(shapes):
    xs = [picture(40 + k) for k in range(4)]
    want = [shapes.run([x])[0] for x in xs]
    errors = []

    def worker(k):
        try:
            for _ in range(10):
                assert np.array_equal(shapes.run([xs[k]])[0], want[k])
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors


# ---- closing -----------------------------------------------------------------------------------


def test_context_manager_releases(small_models):
    with Session(small_models.dyn) as s:
        assert s.run([np.zeros((1, 4), np.float32)])[0].shape == (1, 3)
    assert s.closed and s.model_id == 0 and s.context == 0
    with pytest.raises(RuntimeError, match="this Session of '.*dyn.onnx' is closed; create a new Session"):
        s.run([np.zeros((1, 4), np.float32)])
    with pytest.raises(RuntimeError, match="closed"):
        s.run_async([np.zeros((1, 4), np.float32)])
    s.close()  # again: nothing happens
    assert "closed" in repr(s)
    with pytest.raises(ZeroDivisionError):
        with Session(small_models.dyn) as s2:
            1 / 0
    assert s2.closed


def test_two_sessions_in_one_process(small_models):
    rng = np.random.default_rng(11)
    a = Session(SHAPES)
    b = Session(small_models.dyn)
    try:
        assert a.context != b.context and a.model_id != b.model_id
        x, v = picture(12), rng.standard_normal((3, 4)).astype(np.float32)
        ya = a.run([x])[0]
        for _ in range(3):  # interleaved: each run makes its own context current
            compare(b.run([v])[0], small_models.dyn_ref(v), "b")
            assert np.array_equal(a.run([x])[0], ya)
        fa, fb = a.run_async([x]), b.run_async([v])
        assert np.array_equal(fa.result(60)[0], ya)
        a.close()
        compare(fb.result(60)[0], small_models.dyn_ref(v), "b after a closed")
        compare(b.run([v])[0], small_models.dyn_ref(v), "b after a closed")
    finally:
        a.close()
        b.close()


def test_gear_models_are_refused(monkeypatch):
    monkeypatch.setenv("OPENACL_DYNAMIC_BATCH", "1,4")
    with pytest.raises(ValueError, match="loaded with gears .*unset the variable"):
        Session(SHAPES)
    monkeypatch.delenv("OPENACL_DYNAMIC_BATCH")
    with Session(SHAPES) as s:
        assert s.run([picture(13)])[0].shape == (1, 6)


def test_resnet18_against_references(real_models):
    if "resnet18.onnx" not in real_models.models():
        pytest.skip("no resnet18.onnx export")
    cases = {b: (i, o) for m, b, i, o in real_models.cases if m == "resnet18.onnx"}
    with Session(real_models.path("resnet18.onnx")) as s:
        assert s.inputs[0].shape[0] == -1  # the symbolic batch
        if 1 in cases:
            i, o = cases[1]
            x = real_models.ref("resnet18.onnx", 1, "input", i)
            compare(s.run([x])[0], real_models.ref("resnet18.onnx", 1, "output", o), "resnet18 batch 1")
        big = max(cases)
        if big >= 4:
            i, o = cases[big]
            x = real_models.ref("resnet18.onnx", big, "input", i)
            want = real_models.ref("resnet18.onnx", big, "output", o)
            (y,) = s.run([x[:4]])
            assert y.shape == (4,) + tuple(o[1:])
            compare(y, want[:4], "resnet18 batch 4 (the first 4 of batch %d)" % big)


# ---- ACL's initialisation, in fresh interpreters ------------------------------------------------

PRELUDE = "import acl, numpy as np, openacl\nM = %r\nX = np.zeros((1, 3, 64, 64), np.float32)\n" % str(SHAPES)


def py(code, env=None):
    p = run_python(code=PRELUDE + code, env=env, timeout=120)
    assert p.returncode == 0, describe(p)
    return p


def test_the_programs_own_init_is_left_alone():
    p = py("""
assert acl.init() == 0
with openacl.Session(M) as s:
    s.run([X])
count, ret = acl.rt.get_device_count()
assert ret == 0, ret             # still initialised: the package did not finalize the program's init
assert acl.finalize() == 0       # the program's own finalize works
print("ok")
""")
    assert p.stdout.strip() == "ok"


def test_init_warnings_become_python_warnings(tmp_path):
    # The library keeps configuration warnings off stderr at the default log
    # level; the package turns them into RuntimeWarnings.
    cfg = tmp_path / "acl.json"
    cfg.write_text('{"dumpp": {}}')
    p = py("""
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    with openacl.Session(M, config=%r) as s:
        s.run([X])
msgs = [str(x.message) for x in w if issubclass(x.category, RuntimeWarning)]
print(len(msgs))
print(msgs[0] if msgs else "")
""" % str(cfg), env={"ASCEND_GLOBAL_LOG_LEVEL": "3"})
    count, first = p.stdout.strip().splitlines()
    assert count == "1", describe(p)
    assert "dumpp: unknown key, ignored" in first and first.startswith("openacl: warning "), first
    assert "dumpp" not in p.stderr, p.stderr


def test_the_last_session_finalizes():
    py("""
a = openacl.Session(M)
b = openacl.Session(M)
a.close()
assert acl.rt.get_device_count()[1] == 0, "still initialised while b is open"
b.run([X])
b.close()
assert acl.rt.get_device_count()[1] == 100001, "finalized after the last Session"
with openacl.Session(M) as c:    # and initialised again for a new one
    c.run([X])
assert acl.rt.get_device_count()[1] == 100001
""")


def test_config_file(tmp_path):
    (tmp_path / "acl.json").write_text("{}")
    (tmp_path / "bad.json").write_text("{")
    py("""
import warnings
with openacl.Session(M, config=%r) as s:
    s.run([X])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with openacl.Session(M, config=%r) as t:  # ACL is initialised already: the file is ignored, with a warning
            t.run([X])
    assert any("already initialised" in str(x.message) for x in w), [str(x.message) for x in w]
try:
    openacl.Session(M, config=%r)
except openacl.AclError as e:
    assert e.api == "aclInit" and e.context.startswith("initialising ACL with"), e
else:
    raise AssertionError("a bad acl.json should fail")
assert acl.rt.get_device_count()[1] == 100001   # nothing left initialised
""" % (str(tmp_path / "acl.json"), str(tmp_path / "bad.json"), str(tmp_path / "bad.json")))


def test_device_out_of_memory(models):
    p = py("""
s = openacl.Session(%r)
try:
    s.run([np.zeros(1 << 20, np.float32)])    # 4 MiB on a 1 MiB device
except openacl.AclError as e:
    assert e.code == 207001 and e.name == "ACL_ERROR_RT_MEMORY_ALLOCATION" and e.api == "aclrtMalloc", e
    assert "input 'x'" in e.context and "OPENACL_DEVICE_MEMORY" in str(e), e
else:
    raise AssertionError("should not fit")
assert s.run([np.ones(1000, np.float32)])[0].sum() == 1000   # still runs
t = openacl.Session(%r)
try:
    t.run([np.ones((1, 1), np.float32), np.array([1000, 1000])])  # an output that cannot grow enough
except openacl.AclError as e:
    assert e.code == 207001 and "output 'y'" in e.context, e
else:
    raise AssertionError("should not fit")
assert t.run([np.ones((1, 1), np.float32), np.array([100, 100])])[0].shape == (100, 100)
print("ok")
""" % (str(models.noshape), str(models.expand)), {"OPENACL_DEVICE_MEMORY": "1M"})
    assert p.stdout == "ok\n"


def test_session_survives_the_programs_finalize():
    py("""
s = openacl.Session(M)
assert acl.finalize() == 0        # the program tears ACL down under the Session
try:
    s.run([X])
except openacl.AclError as e:
    assert e.code == 100001 and e.name == "ACL_ERROR_UNINITIALIZE", e
    assert str(e).count("ACL_ERROR_UNINITIALIZE") == 1, str(e)
else:
    raise AssertionError("run after acl.finalize should fail")
s.close()                          # no exception, no crash
s.close()
with openacl.Session(M) as t:      # a new Session initialises again
    t.run([X])
print("ok")
""")


def test_open_sessions_at_interpreter_exit():
    p = py("""
s = openacl.Session(M)
t = openacl.Session(M)
f = t.run_async([X])
s.run([X])
import sys
sys.stdout.write("leaving\\n")
""")
    assert p.stdout == "leaving\n" and "Traceback" not in p.stderr and "Exception ignored" not in p.stderr, describe(p)
    p = py("""
import gc
s = openacl.Session(M)
s.run([X])
del s
gc.collect()
assert acl.rt.get_device_count()[1] == 100001, "the dropped Session should have released ACL"
""")


# ---- explain -----------------------------------------------------------------------------------


def test_explain_codes_and_names():
    i = openacl.explain(107002)
    assert (i.name, i.code) == ("ACL_ERROR_RT_CONTEXT_NULL", 107002)
    assert i.meaning and i.causes and i.remedy
    for form in ("107002", " 107002 ", "0x1a1fa", "0X1A1FA", "ACL_ERROR_RT_CONTEXT_NULL", "acl_error_rt_context_null",
                 "context_null", "CONTEXT-NULL", "rt_context_null", "error_rt_context_null", "context null"):
        assert openacl.explain(form) == i, form
    assert openacl.explain("success").code == 0
    assert openacl.explain("ACL_ERROR_INVALID_PARAM").code == 100000
    assert str(i).startswith("ACL_ERROR_RT_CONTEXT_NULL (107002)\n  meaning: ")
    full = openacl.error_list()
    assert len(full) > 100 and any(e.code == 107002 for e in full)


def test_explain_errors():
    with pytest.raises(ValueError,
                       match="no error code is named 'contxt_null'; did you mean ACL_ERROR_RT_CONTEXT_NULL"):
        openacl.explain("contxt_null")
    with pytest.raises(ValueError, match="no error code is named 'zzzzzzzzzz'"):
        openacl.explain("zzzzzzzzzz")
    with pytest.raises(ValueError, match="107999 is not a code in openacl's error table; the nearest known codes are"):
        openacl.explain(107999)
    with pytest.raises(ValueError, match="out of the range"):
        openacl.explain(1 << 40)
    with pytest.raises(ValueError, match="empty"):
        openacl.explain("  ")
    for bad in (None, 1.5, True, [107002]):
        with pytest.raises(TypeError):
            openacl.explain(bad)


def test_explain_matches_the_tool():
    t = need_tool()
    for arg in ("107002", "context_null", "100000", "ACL_ERROR_PARSE_MODEL"):
        p = subprocess.run([t, "explain", "--json", arg], capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        (want,) = json.loads(p.stdout)
        got = openacl.explain(arg)
        assert (got.name, got.code, got.meaning, got.causes, got.remedy) == \
            (want["name"], want["code"], want["meaning"], want["causes"], want["remedy"])
        assert list(got.aliases) == want.get("aliases", list(got.aliases))


# ---- devices -----------------------------------------------------------------------------------


def test_devices():
    devs = openacl.devices()  # as ACL sees them now (another test module may have left it initialised)
    import acl

    assert len(devs) >= 1 and [d.id for d in devs] == list(range(len(devs)))
    d = devs[0]
    assert d.memory_total > 0 and d.executor_threads >= 1 and d.soc_name and d.backend in ("cpu", "null")
    assert d.memory_free is None
    f = openacl.devices(free_memory=True)[0]
    assert 0 < f.memory_free <= f.memory_total
    with Session(SHAPES) as s:
        openacl.devices(free_memory=True)
        assert acl.rt.get_context() == (s.context, 0)
        assert s.run([picture(15)])[0].shape == (1, 6)
    out = json.loads(py(DEVICES, {"OPENACL_DEVICE_COUNT": None, "ASCEND_VISIBLE_DEVICES": None,
                                  "ASCEND_RT_VISIBLE_DEVICES": None}).stdout)
    assert [r["id"] for r in out["rows"]] == [0] and out["visible"] == 1


DEVICES = """
import json
rows = [vars(d) for d in openacl.devices()]
try:
    n = openacl.visible_device_count()
except ValueError as e:
    n = "ValueError: %s" % e
print(json.dumps({"rows": rows, "visible": n}))
"""


@pytest.mark.parametrize("env, ids, physical", [
    ({"OPENACL_DEVICE_COUNT": "3"}, [0, 1, 2], [0, 1, 2]),
    ({"OPENACL_DEVICE_COUNT": "3", "ASCEND_RT_VISIBLE_DEVICES": "2,0"}, [0, 1], [2, 0]),
    ({"OPENACL_DEVICE_COUNT": "4", "ASCEND_VISIBLE_DEVICES": "1-3", "ASCEND_RT_VISIBLE_DEVICES": "2"}, [0], [3]),
    ({"OPENACL_DEVICE_COUNT": "x"}, [0], [0]),  # a bad count warns and keeps the default, 1
])
def test_devices_under_visibility_variables(env, ids, physical):
    env = {"OPENACL_DEVICE_COUNT": None, "ASCEND_VISIBLE_DEVICES": None, "ASCEND_RT_VISIBLE_DEVICES": None, **env}
    out = json.loads(py(DEVICES, env).stdout)
    assert [r["id"] for r in out["rows"]] == ids and out["visible"] == len(ids)
    assert [r["physical_id"] for r in out["rows"]] == physical
    t = openacl_tool()
    if t:
        e = {k: v for k, v in os.environ.items()}
        for k, v in env.items():
            if v is None:
                e.pop(k, None)
            else:
                e[k] = v
        p = subprocess.run([t, "devices", "--json"], capture_output=True, text=True, env=e)
        assert p.returncode == 0, p.stderr
        # the tool also lists the processes using each device (not the Python API's business)
        want = [{k: v for k, v in w.items() if k != "processes"} for w in json.loads(p.stdout)]
        got = [{"id": r["id"], "physical_id": r["physical_id"], "backend": r["backend"], "soc_name": r["soc_name"],
                "memory_bytes": r["memory_total"], "executor_threads": r["executor_threads"],
                "ai_cores": r["ai_cores"], "vector_cores": r["vector_cores"]} for r in out["rows"]]
        assert got == want


@pytest.mark.parametrize("var, value, why", [
    ("ASCEND_RT_VISIBLE_DEVICES", "x", "token 1 ('x') is not a device id"),
    ("ASCEND_RT_VISIBLE_DEVICES", "0,5", "device 5 does not exist (1 visible)"),
    ("ASCEND_RT_VISIBLE_DEVICES", "0,0", "device id 0 is listed twice"),
    ("ASCEND_RT_VISIBLE_DEVICES", "0,", "the list ends with a comma"),
    ("ASCEND_VISIBLE_DEVICES", "0-2", "device 1 does not exist (there are 1)"),
    ("ASCEND_VISIBLE_DEVICES", "", "the list is empty"),
])
def test_malformed_visibility(var, value, why):
    code = """
try:
    openacl.devices()
except openacl.AclError as e:
    assert e.code == 107001, e
    print("AclError", e.message)
try:
    openacl.visible_device_count()
except ValueError as e:
    print("ValueError", e)
"""
    env = {"OPENACL_DEVICE_COUNT": None, "ASCEND_VISIBLE_DEVICES": None, "ASCEND_RT_VISIBLE_DEVICES": None,
           var: value}
    out = py(code, env).stdout
    assert "AclError" in out and var in out, out
    assert "ValueError %s='%s' is invalid: %s" % (var, value, why) in out, out


def test_visibility_rule_matches_the_library():
    """visible_device_count() works the count out without acl.init; acl.init + acl.rt.get_device_count is
    the library's answer, for many settings of the three variables (one interpreter, init/finalize each)."""
    combos = [(c, v, r) for c in (None, "1", "3", "4", "0", "65", " 2", "+2", "2x")
              for v in (None, "", "0", "1", "0-2", "1-3", "2,0", "0,0", "3-1", "x", "0,", "0-64", "1-")
              for r in (None, "0", "1", "1,0", "2", "0,,1", "00001", "1-2", "0" * 40)]
    p = py("""
import json, os
combos = json.loads(%r)
bad = []
for c, v, r in combos:
    for k, x in (("OPENACL_DEVICE_COUNT", c), ("ASCEND_VISIBLE_DEVICES", v), ("ASCEND_RT_VISIBLE_DEVICES", r)):
        if x is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = x
    try:
        mine = openacl.visible_device_count()
    except ValueError:
        mine = None
    assert acl.init() == 0
    n, ret = acl.rt.get_device_count()
    lib = n if ret == 0 else None
    acl.get_recent_err_msg()
    assert acl.finalize() == 0
    if mine != lib:
        bad.append(((c, v, r), mine, lib))
print(json.dumps(bad))
""" % json.dumps(combos), {"OPENACL_LOG_LEVEL": None, "ASCEND_GLOBAL_LOG_LEVEL": "3"})
    assert json.loads(p.stdout) == []


def test_import_has_no_side_effects():
    p = py("""
import sys
assert acl.rt.get_device_count()[1] == 100001, "importing openacl must not initialise ACL"
assert "openacl.infer" not in sys.modules
print(sorted(openacl.__all__))
""")
    assert "Session" in p.stdout


def test_typing_marker():
    pkg = Path(openacl.__file__).resolve().parent
    assert (pkg / "py.typed").is_file()
    import typing
    hints = typing.get_type_hints(Session.run)
    assert "inputs" in hints and "return" in hints

