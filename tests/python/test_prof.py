"""test_prof.py - acl.prof, pyACL's profiling names over openacl's aclprof*
functions (docs/profiling.md, "Python"): the lifecycle's codes, a profile
written and read back, model subscription records read by a Python thread
while executions run (the GIL released where C writes into the pipe), and
bogus handles refused with a code instead of a crash.  The good-argument call
of every name is in test_inventory.py.

Run: PYTHONPATH=build/python /usr/bin/python3 -m pytest -q tests/python/test_prof.py
"""
import glob
import os
import threading

import numpy as np
import pytest

import acl

ACL_PROF_ACL_API, ACL_PROF_TASK_TIME, ACL_PROF_MSPROFTX = 0x1, 0x2, 0x80
ACL_AICORE_NONE = 255
ACL_ERROR_INVALID_PARAM, ACL_ERROR_PROF_NOT_RUN, ACL_ERROR_PROF_API_CONFLICT = 100000, 100043, 148047


class Model:
    """The affine model (y = 2x + z over [2,3]) loaded, with its datasets."""

    def __init__(self, path):
        self.id, r = acl.mdl.load_from_file(str(path))
        assert r == 0, acl.get_recent_err_msg()
        self.bufs, self.handles = [], []
        self.inp = self.dataset(2)
        self.out = self.dataset(1)

    def dataset(self, n):
        ds = acl.mdl.create_dataset()
        for _ in range(n):
            p, r = acl.rt.malloc(24, 0)
            assert r == 0
            b = acl.create_data_buffer(p, 24)
            assert acl.mdl.add_dataset_buffer(ds, b)[1] == 0
            self.bufs.append(p)
            self.handles.append(b)
        return ds

    def run(self, n=1):
        for _ in range(n):
            assert acl.mdl.execute(self.id, self.inp, self.out) == 0

    def close(self):
        acl.mdl.destroy_dataset(self.inp)
        acl.mdl.destroy_dataset(self.out)
        for b in self.handles:
            acl.destroy_data_buffer(b)
        for p in self.bufs:
            acl.rt.free(p)
        assert acl.mdl.unload(self.id) == 0


@pytest.fixture(scope="module")
def model(small_models):
    r = acl.init("")
    assert r in (0, 100002)
    assert acl.rt.set_device(0) == 0
    m = Model(small_models.affine)
    yield m
    m.close()
    acl.rt.reset_device(0)
    if r == 0:
        acl.finalize()


def test_lifecycle_codes(model, tmp_path):
    cfg = acl.prof.create_config([0], ACL_AICORE_NONE, 0, ACL_PROF_TASK_TIME)
    assert cfg
    assert acl.prof.start(cfg) == ACL_ERROR_PROF_NOT_RUN  # no init
    assert acl.prof.finalize() == ACL_ERROR_PROF_NOT_RUN
    assert acl.prof.create_config([7], ACL_AICORE_NONE, 0, ACL_PROF_TASK_TIME) == 0  # no such device
    assert "aclprofCreateConfig" in acl.get_recent_err_msg()
    with pytest.raises(TypeError):
        acl.prof.create_config((0,), ACL_AICORE_NONE, 0, ACL_PROF_TASK_TIME)  # a list, not a tuple
    assert acl.prof.create_config([0], ACL_AICORE_NONE, 8, ACL_PROF_TASK_TIME) == 0  # aicore events must be NULL
    assert acl.prof.init(str(tmp_path)) == 0
    assert acl.prof.start(cfg) == 0
    model.run(3)
    assert acl.prof.stop(cfg) == 0
    assert acl.prof.destroy_config(cfg) == 0
    assert acl.prof.finalize() == 0
    (prof,) = glob.glob(str(tmp_path / "PROF_*" / "mindstudio_profiler_output"))
    (summary,) = glob.glob(os.path.join(prof, "op_summary_*.csv"))
    with open(summary, encoding="utf-8") as f:
        rows = f.read().splitlines()[1:]
    assert rows and len(rows) % 3 == 0  # each operator of the model, three times


def test_subscription_read_by_a_python_thread(model):
    """1000 executions write ~80 KB of records into the pipe, more than it
    holds: only a reader running while execute and model_unsubscribe block in
    C (GIL released) lets them finish."""
    r, w = os.pipe()
    cfg = acl.prof.create_subscribe_config(1, ACL_AICORE_NONE, w)
    assert cfg
    assert acl.prof.model_subscribe(model.id, cfg) == 0
    assert acl.prof.model_subscribe(model.id, cfg) != 0  # once per model
    assert acl.prof.init("/nonexistent-prof") == ACL_ERROR_PROF_API_CONFLICT  # not with a subscription
    chunks = []

    def reader():
        while True:
            c = os.read(r, 65536)
            if not c:
                return
            chunks.append(c)
    t = threading.Thread(target=reader)
    t.start()
    model.run(1000)
    assert acl.prof.model_unsubscribe(model.id) == 0
    t.join(60)
    assert not t.is_alive()
    os.close(r)
    assert acl.prof.destroy_subscribe_config(cfg) == 0
    data = b"".join(chunks)
    size = acl.prof.get_op_desc_size()[0]
    assert len(data) % size == 0 and len(data) // size >= 1000
    p = acl.util.bytes_to_ptr(data)
    n, ret = acl.prof.get_op_num(p, len(data))
    assert ret == 0 and n == len(data) // size
    names = {acl.prof.get_op_name_v2(p, len(data), i)[0] for i in range(0, n, 97)}
    assert None not in names and names
    durations = np.array([acl.prof.get_op_duration(p, len(data), i) for i in range(n)], dtype=np.uint64)
    # an operator can take less than the unit the record counts in: most take some time, none is negative
    assert durations.max() > 0 and (durations > 0).mean() > 0.5
    assert all(acl.prof.get_model_id(p, len(data), i) == model.id for i in range(0, n, 50))
    bad = bytearray(data[:size])
    bad[20] ^= 0xFF  # the signature no longer matches
    bb = bytes(bad)
    assert acl.prof.get_op_num(acl.util.bytes_to_ptr(bb), len(bb)) == (0, ACL_ERROR_INVALID_PARAM)
    assert "signature" in acl.get_recent_err_msg()


@pytest.mark.parametrize("bogus", [12345, (1 << 64) - 1])
def test_bogus_handles_refused(model, bogus):
    assert acl.prof.start(bogus) == ACL_ERROR_INVALID_PARAM
    assert acl.prof.stop(bogus) == ACL_ERROR_INVALID_PARAM
    assert acl.prof.destroy_config(bogus) == ACL_ERROR_INVALID_PARAM
    assert acl.prof.mark(bogus) != 0
    assert acl.prof.range_start(bogus)[1] != 0
    assert acl.prof.destroy_stamp(bogus) is None
    assert acl.prof.destroy_step_info(bogus) is None
    assert acl.prof.get_step_timestamp(bogus, 0, 0) == ACL_ERROR_INVALID_PARAM
    assert acl.prof.model_subscribe(model.id, bogus) == ACL_ERROR_INVALID_PARAM
    assert acl.prof.get_op_num(bogus, 80) == (0, ACL_ERROR_INVALID_PARAM)
    assert acl.prof.get_op_type_v2(bogus, 80, 0) == (None, ACL_ERROR_INVALID_PARAM)
    assert acl.prof.get_op_name(bogus, 80, 0, 16) == ("", ACL_ERROR_INVALID_PARAM)
    assert acl.prof.get_op_start(bogus, 80, 0) == 0
    assert "not readable host memory" in acl.get_recent_err_msg()


def test_msproftx_before_collection(model):
    """Before a session with ACL_PROF_MSPROFTX the markers fail (the vendor's -1)."""
    assert acl.prof.create_stamp() == 0
    assert acl.prof.pop() == -1
    assert acl.prof.mark_ex("x", 0) != 0
