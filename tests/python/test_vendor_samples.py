"""test_vendor_samples.py - scripts written as the vendor's pyACL samples are
(tests/python/samples/) run unchanged, each in its own /usr/bin/python3,
and their outputs compared with references.

Real networks (OPENACL_MODELS_DIR, default build/models; skipped when
absent): the exports of scripts/models/export_models.py against PyTorch's
outputs with the tolerance of tests/models/real_models.c:
* acl_net.py, the synchronous sample, on a copy of each model with its batch
  axis made static (an .om model is static), at every batch of the manifest;
  once more with the numpy_to_ptr / ptr_to_numpy fallback path;
* dynamic_desc.py: the symbolic batch given by tensor descriptors;
* dynamic_batch.py (googlenet dynamic-batch sample) and the acllite flow
  with gears from OPENACL_DYNAMIC_BATCH;
* acl_net_async.py: the report-thread sample, eight images one by one.

Small generated models (always): two inputs, float16, symbolic batch,
gears, the async flow, two threads executing at once (GIL released), and a
callback that raises.
"""
import json
import os
import shutil
import tempfile

import pytest

from conftest import SAMPLES, compare, describe, models_dir_path, read_manifest, run_python

np = pytest.importorskip("numpy")

GEARS = "1,2,4,8"


def run_sample(name, args, env=None, timeout=300):
    p = run_python(SAMPLES / name, args, env=env, timeout=timeout)
    assert p.returncode == 0, describe(p)
    return p


def last_json(p):
    for line in reversed(p.stdout.splitlines()):
        if line.startswith("{") or line.startswith("["):
            return json.loads(line)
    pytest.fail("no JSON line in the output\n" + describe(p))


def save(tmp, name, a):
    path = tmp / name
    np.save(path, a)
    return path


# ---- real models ----------------------------------------------------------------------------

try:
    _MANIFEST = read_manifest(models_dir_path()) if (models_dir_path() / "manifest.tsv").is_file() else []
except Exception:  # a broken manifest fails in the real_models fixture
    _MANIFEST = []
REAL_CASES = [(c[0], c[1]) for c in _MANIFEST] or [("no-models", 0)]
REAL_MODELS = list(dict.fromkeys(c[0] for c in _MANIFEST)) or ["no-models"]


def case_shapes(real_models, model, batch):
    for c in real_models.cases:
        if c[0] == model and c[1] == batch:
            return c[2], c[3]
    pytest.fail("%s batch %d is not in the manifest" % (model, batch))


@pytest.fixture(scope="module")
def static_copy(real_models):
    """static_copy(model, batch): the model with its symbolic batch axis set
    to `batch` in the graph's inputs and outputs, as an .om model would be
    (written once, removed after the module)."""
    onnx = pytest.importorskip("onnx")
    d = tempfile.mkdtemp(prefix="openacl-tests-static-")
    cache = {}

    def get(model, batch):
        if (model, batch) not in cache:
            m = onnx.load(str(real_models.path(model)))
            for v in list(m.graph.input) + list(m.graph.output):
                dims = v.type.tensor_type.shape.dim
                if dims and not dims[0].HasField("dim_value"):
                    dims[0].Clear()
                    dims[0].dim_value = batch
            out = os.path.join(d, "%s.b%d.onnx" % (model[:-5], batch))
            onnx.save(m, out)
            cache[(model, batch)] = out
        return cache[(model, batch)]
    yield get
    shutil.rmtree(d, ignore_errors=True)


def ref_io(real_models, model, batch):
    in_shape, out_shape = case_shapes(real_models, model, batch)
    return (real_models.ref(model, batch, "input", in_shape), real_models.ref(model, batch, "output", out_shape))


@pytest.mark.parametrize("model,batch", REAL_CASES, ids=["%s-b%d" % c for c in REAL_CASES])
def test_real_model_sync(real_models, model, batch, workdir, static_copy):
    x, want = ref_io(real_models, model, batch)
    path = static_copy(model, batch)
    p = run_sample("acl_net.py", [path, workdir, save(workdir, "input.npy", x)])
    assert "top5" in p.stdout and "Resources released successfully." in p.stdout, describe(p)
    got = np.load(workdir / "output_0.npy")
    assert got.dtype == np.float32
    compare(got, want, "%s batch %d (acl_net.py)" % (model, batch))


def test_real_model_numpy_fallback(real_models, workdir, static_copy):
    """The samples' path for a pyACL without bytes_to_ptr / ptr_to_bytes:
    numpy_to_ptr in, ptr_to_numpy out (the script unchanged, the two names
    removed from acl.util before it runs)."""
    model, batch = real_models.cases[0][0], real_models.cases[0][1]
    x, want = ref_io(real_models, model, batch)
    path = static_copy(model, batch)
    code = ("import sys, runpy, warnings, acl; sys.path.insert(0, %r); del acl.util.bytes_to_ptr; "
            "del acl.util.ptr_to_bytes; sys.argv = sys.argv[1:]; "
            "runpy.run_path(sys.argv[0], run_name='__main__')" % str(SAMPLES))
    p = run_python(code=code, args=[SAMPLES / "acl_net.py", path, workdir, save(workdir, "input.npy", x)])
    assert p.returncode == 0, describe(p)
    assert "Warning" in p.stderr, "numpy_to_ptr / ptr_to_numpy should warn (pyACL §3.5)\n" + describe(p)
    compare(np.load(workdir / "output_0.npy"), want, "%s batch %d (numpy path)" % (model, batch))


@pytest.mark.parametrize("model", REAL_MODELS)
def test_real_model_dynamic_desc(real_models, model, workdir):
    batches = [c[1] for c in real_models.cases if c[0] == model]
    inputs, wants = [], []
    for k, b in enumerate(batches):
        x, want = ref_io(real_models, model, b)
        inputs.append(save(workdir, "input_%d.npy" % k, x))
        wants.append(want)
    p = run_sample("dynamic_desc.py", [real_models.path(model), workdir] + inputs)
    facts = last_json(p)
    for k, (b, want) in enumerate(zip(batches, wants)):
        assert facts[k]["declared_input_dims"][0] == -1 and facts[k]["declared_input_size"] == 0
        assert facts[k]["output_shape"] == list(want.shape)
        compare(np.load(workdir / ("output_%d.npy" % k)), want, "%s batch %d (tensor descriptor)" % (model, b))


@pytest.mark.parametrize("model", REAL_MODELS)
def test_real_model_gears(real_models, model, workdir):
    batches = [c[1] for c in real_models.cases if c[0] == model]
    if any(str(b) not in GEARS.split(",") for b in batches):
        pytest.skip("a manifest batch is not one of the gears %s" % GEARS)
    inputs, wants = [], []
    for k, b in enumerate(batches):
        x, want = ref_io(real_models, model, b)
        inputs.append(save(workdir, "input_%d.npy" % k, x))
        wants.append(want)
    p = run_sample("dynamic_batch.py", [real_models.path(model), workdir] + inputs,
                   env={"OPENACL_DYNAMIC_BATCH": GEARS})
    facts = last_json(p)
    for k, (b, want) in enumerate(zip(batches, wants)):
        assert facts[k]["num_inputs"] == 2 and facts[k]["index"] == 1
        assert facts[k]["batch"] == {"batchCount": 4, "batch": [1, 2, 4, 8]}
        assert facts[k]["cur_dims"] == list(want.shape)
        assert facts[k]["largest_dims"] == [8] + list(want.shape[1:])
        compare(np.load(workdir / ("output_%d.npy" % k)), want, "%s batch %d (gears)" % (model, b))


def test_real_model_acllite(real_models, workdir):
    model = real_models.models()[0]
    batches = [c[1] for c in real_models.cases if c[0] == model]
    inputs, wants = [], []
    for k, b in enumerate(batches):
        x, want = ref_io(real_models, model, b)
        inputs.append(save(workdir, "input_%d.npy" % k, x))
        wants.append(want)
    p = run_sample("acllite_dynamic.py", [real_models.path(model), workdir] + inputs,
                   env={"OPENACL_DYNAMIC_BATCH": GEARS})
    assert "done" in p.stdout
    for k, (b, want) in enumerate(zip(batches, wants)):
        got = np.load(workdir / ("output_%d.npy" % k))
        assert got.shape == (8,) + want.shape[1:]  # shaped as the largest gear
        compare(got[:b], want, "%s batch %d (acllite)" % (model, b))


def test_real_model_async(real_models, workdir, static_copy):
    """The async sample on the batch-1 model, the images of the largest batch
    one by one (each row of PyTorch's batch output is one image's result)."""
    model = real_models.models()[0]
    big = max(c[1] for c in real_models.cases if c[0] == model)
    x, want = ref_io(real_models, model, big)
    path = static_copy(model, 1)
    in_dir = workdir / "in"
    in_dir.mkdir()
    for k in range(big):
        np.save(in_dir / ("input_%d_0.npy" % k), x[k:k + 1])
    p = run_sample("acl_net_async.py", [path, workdir, in_dir])
    facts = last_json(p)
    assert facts["images"] == big and facts["callback_threads"] == [facts["tid"]], facts
    for k in range(big):
        compare(np.load(workdir / ("output_%d_0.npy" % k)), want[k:k + 1], "%s image %d (async)" % (model, k))


# ---- small generated models --------------------------------------------------------------------


def rng(seed=7):
    return np.random.default_rng(seed)


def test_sync_two_inputs(small_models, workdir):
    x = rng().standard_normal((2, 3)).astype(np.float32)
    z = rng(8).standard_normal((2, 3)).astype(np.float32)
    run_sample("acl_net.py", [small_models.affine, workdir, save(workdir, "x.npy", x), save(workdir, "z.npy", z)])
    got = np.load(workdir / "output_0.npy")
    assert got.shape == (2, 3) and np.array_equal(got, small_models.affine_ref(x, z))


def test_float16_model(small_models, workdir):
    """float16 input and output through the sync sample: the output dtype is
    read with get_output_data_type (ACL_FLOAT16) and the bytes reinterpreted."""
    x = (rng().standard_normal((1, 3, 8, 8))).astype(np.float16)
    run_sample("acl_net.py", [small_models.fp16, workdir, save(workdir, "x.npy", x)])
    got = np.load(workdir / "output_0.npy")
    assert got.dtype == np.float16 and got.shape == (1, 4, 8, 8)
    want = small_models.fp16_ref(x)
    # float16 keeps 11 significant bits: a result rounded once is within
    # 2^-11 relative; allow for float16 accumulation too
    compare(got, want, "fp16 conv", rtol=4e-3, atol_scale=4e-3)


def test_float16_numpy_fallback(small_models, workdir):
    x = (rng(3).standard_normal((1, 3, 8, 8))).astype(np.float16)
    code = ("import sys, runpy, acl; sys.path.insert(0, %r); del acl.util.bytes_to_ptr; "
            "del acl.util.ptr_to_bytes; sys.argv = sys.argv[1:]; "
            "runpy.run_path(sys.argv[0], run_name='__main__')" % str(SAMPLES))
    p = run_python(code=code, args=[SAMPLES / "acl_net.py", small_models.fp16, workdir, save(workdir, "x.npy", x)])
    assert p.returncode == 0, describe(p)
    got = np.load(workdir / "output_0.npy")
    assert got.dtype == np.float16
    compare(got, small_models.fp16_ref(x), "fp16 conv (numpy path)", rtol=4e-3, atol_scale=4e-3)


def test_dynamic_batch_tensor_desc(small_models, workdir):
    batches = [1, 3, 8, 5]
    xs = [rng(b).standard_normal((b, 4)).astype(np.float32) for b in batches]
    p = run_sample("dynamic_desc.py", [small_models.dyn, workdir] +
                   [save(workdir, "x%d.npy" % k, x) for k, x in enumerate(xs)])
    facts = last_json(p)
    for k, x in enumerate(xs):
        assert facts[k]["declared_input_dims"] == [-1, 4] and facts[k]["declared_input_size"] == 0
        assert facts[k]["output_shape"] == [len(x), 3]
        compare(np.load(workdir / ("output_%d.npy" % k)), small_models.dyn_ref(x), "dyn batch %d" % len(x))


def test_dynamic_batch_gears(small_models, workdir):
    batches = [2, 8, 1, 4]
    xs = [rng(b).standard_normal((b, 4)).astype(np.float32) for b in batches]
    p = run_sample("dynamic_batch.py", [small_models.dyn, workdir] +
                   [save(workdir, "x%d.npy" % k, x) for k, x in enumerate(xs)], env={"OPENACL_DYNAMIC_BATCH": GEARS})
    facts = last_json(p)
    for k, x in enumerate(xs):
        assert facts[k]["num_inputs"] == 2 and facts[k]["index"] == 1
        assert facts[k]["batch"] == {"batchCount": 4, "batch": [1, 2, 4, 8]}
        assert facts[k]["cur_dims"] == [len(x), 3] and facts[k]["largest_dims"] == [8, 3]
        compare(np.load(workdir / ("output_%d.npy" % k)), small_models.dyn_ref(x), "gear batch %d" % len(x))


def test_dynamic_batch_gear_refused(small_models, workdir):
    """A batch that is not a gear: the sample's own check (batch in
    get_dynamic_batch()['batch']) stops it, and set_dynamic_batch_size
    refuses it; without gears the symbolic input has size 0 and the sample's
    malloc fails.  Error codes, no crash."""
    x = rng().standard_normal((3, 4)).astype(np.float32)
    p = run_python(SAMPLES / "dynamic_batch.py", [small_models.dyn, workdir, save(workdir, "x.npy", x)],
                   env={"OPENACL_DYNAMIC_BATCH": GEARS})
    assert p.returncode == 1 and "is not one of the model's gears" in p.stderr, describe(p)
    code = ("import os, sys, acl; os.environ['OPENACL_DYNAMIC_BATCH'] = '1,2,4,8'; acl.init(); acl.rt.set_device(0); "
            "mid, r = acl.mdl.load_from_file(sys.argv[1]); d = acl.mdl.create_desc(); acl.mdl.get_desc(d, mid); "
            "ds = acl.mdl.create_dataset(); bufs = []\n"
            "for i in range(acl.mdl.get_num_inputs(d)):\n"
            "    n = acl.mdl.get_input_size_by_index(d, i); p, _ = acl.rt.malloc(n, 0)\n"
            "    acl.mdl.add_dataset_buffer(ds, acl.create_data_buffer(p, n))\n"
            "print(acl.mdl.set_dynamic_batch_size(mid, ds, 1, 3), acl.mdl.set_dynamic_batch_size(mid, ds, 1, 4))")
    p = run_python(code=code, args=[small_models.dyn])
    assert p.returncode == 0, describe(p)
    bad, good = p.stdout.split()
    assert int(bad) == 100000 and int(good) == 0, describe(p)  # ACL_ERROR_INVALID_PARAM for a non-gear
    p = run_python(SAMPLES / "dynamic_batch.py", [small_models.dyn, workdir, save(workdir, "x.npy", x)],
                   env={"OPENACL_DYNAMIC_BATCH": None})
    assert p.returncode == 1 and "failed ret=" in p.stderr, describe(p)


def test_acllite_gears(small_models, workdir):
    batches = [2, 8]
    xs = [rng(b).standard_normal((b, 4)).astype(np.float32) for b in batches]
    run_sample("acllite_dynamic.py", [small_models.dyn, workdir] +
               [save(workdir, "x%d.npy" % k, x) for k, x in enumerate(xs)], env={"OPENACL_DYNAMIC_BATCH": GEARS})
    for k, x in enumerate(xs):
        got = np.load(workdir / ("output_%d.npy" % k))
        assert got.shape == (8, 3)
        compare(got[:len(x)], small_models.dyn_ref(x), "acllite batch %d" % len(x))


def test_async_sample(small_models, workdir):
    in_dir = workdir / "in"
    in_dir.mkdir()
    pairs = []
    for k in range(6):
        x = rng(10 + k).standard_normal((2, 3)).astype(np.float32)
        z = rng(20 + k).standard_normal((2, 3)).astype(np.float32)
        np.save(in_dir / ("input_%d_0.npy" % k), x)
        np.save(in_dir / ("input_%d_1.npy" % k), z)
        pairs.append((x, z))
    p = run_sample("acl_net_async.py", [small_models.affine, workdir, in_dir])
    facts = last_json(p)
    assert facts["images"] == 6
    assert facts["callback_threads"] == [facts["tid"]], "callbacks must run on the report thread: %s" % facts
    # success, timeout (507012), or not subscribed yet / any more (107012)
    assert set(facts["process_report_returns"]) <= {0, 507012, 107012}, facts
    assert "[Callback] exit acl.rt.process_report" in p.stdout
    for k, (x, z) in enumerate(pairs):
        assert np.array_equal(np.load(workdir / ("output_%d_0.npy" % k)), small_models.affine_ref(x, z))


def test_two_threads_overlap(small_models, workdir):
    """Two Python threads execute one model at once on their own streams;
    thread B starts while A's execution runs, which needs the GIL released.
    A held GIL fails every attempt; a second attempt absorbs a scheduler
    stall on a loaded machine."""
    a = rng(1).standard_normal((1024, 1024)).astype(np.float32)
    b = rng(2).standard_normal((1024, 1024)).astype(np.float32)
    args = [small_models.slow, workdir, save(workdir, "a.npy", a), save(workdir, "b.npy", b)]
    for attempt in range(2):
        facts = last_json(run_sample("two_threads.py", args))
        assert facts["errors"] == [None, None], facts
        late = []
        for mode in ("sync", "async"):
            (a0, a1), (b0, b1) = facts["a"][mode], facts["b"][mode]
            assert a0 < b1
            if not b0 < a1:
                late.append("%s: thread B could not start while thread A executed (A %.3f-%.3f s, B started "
                            "%.3f s): the GIL is held during the call" % (mode, a0, a1, b0))
        if not late:
            break
    assert not late, "\n".join(late)
    # each output row depends on its input row only: check 16 rows of each
    # (numpy's 1024x1024 products would take seconds on a slow BLAS)
    rows = list(range(8)) + list(range(1016, 1024))
    want_a, want_b = small_models.slow_ref(a[rows]), small_models.slow_ref(b[rows])
    for mode in ("sync", "async"):
        got_a, got_b = np.load(workdir / ("%s_a.npy" % mode)), np.load(workdir / ("%s_b.npy" % mode))
        assert got_a.shape == got_b.shape == (1024, 1024)
        compare(got_a[rows], want_a, "thread A %s" % mode, rtol=1e-3, atol_scale=1e-4)
        compare(got_b[rows], want_b, "thread B %s" % mode, rtol=1e-3, atol_scale=1e-4)


def test_callback_raises():
    p = run_sample("callback_raises.py", [])
    facts = last_json(p)
    assert [c[1] for c in facts["calls"]] == ["first", "second", "third", "fourth"], facts
    assert [u["type"] for u in facts["unraisable"]] == ["ValueError", "ValueError"], facts
    assert "on purpose" in facts["unraisable"][0]["value"]
    assert all(u["thread"] == facts["tid"] for u in facts["unraisable"])
    assert facts["sync"] == [0, 0] and facts["stop_thread"] == 0 and facts["copy_ok"], facts
