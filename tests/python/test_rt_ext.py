"""test_rt_ext.py - the acl.rt wrappers of the runtime's newer C functions
against the C library: value writes and waits between two streams, stream
abort, registered host memory used by device tasks, reductions, the
exception-info callback fired by a failing kernel, and the allocator
trampolines called the way a C consumer calls them (through
aclrtAllocatorGetByStream, with ctypes).

Return codes: 100000 ACL_ERROR_INVALID_PARAM, 107000 ACL_ERROR_RT_PARAM_INVALID,
207000 ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
"""
import ctypes
import mmap
import os
import shutil
import struct
import subprocess
import sys
import threading
import time

import pytest

import acl
from conftest import REPO, _tempdir

np = pytest.importorskip("numpy")

ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_MEMCPY_DEVICE_TO_DEVICE = 3
ACL_STREAM_WAIT_VALUE_GEQ = 0
ACL_STREAM_WAIT_VALUE_EQ = 1
ACL_HOST_REGISTER_MAPPED = 0
ACL_HOST_REG_MAPPED = 0x2
ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN = 10, 11, 12
ACL_FLOAT, ACL_INT32 = 0, 3
ACL_STREAM_STATUS_COMPLETE = 0
ACL_ERROR_RT_STREAM_ABORT = 107023


@pytest.fixture(scope="module")
def context():
    r = acl.init("")
    assert r in (0, 100002)
    assert acl.rt.set_device(0) == 0
    ctx, r = acl.rt.create_context(0)
    assert r == 0
    yield ctx
    acl.rt.set_context(ctx)
    acl.rt.destroy_context(ctx)
    acl.rt.reset_device(0)


@pytest.fixture
def streams(context):
    acl.rt.set_context(context)
    made = []
    for _ in range(2):
        s, r = acl.rt.create_stream()
        assert r == 0
        made.append(s)
    yield made
    for s in made:
        acl.rt.destroy_stream(s)


@pytest.fixture
def dev(context):
    """malloc(n) -> a device pointer freed after the test."""
    ptrs = []

    def malloc(n):
        p, r = acl.rt.malloc(n, 0)
        assert r == 0 and p
        ptrs.append(p)
        return p
    yield malloc
    for p in ptrs:
        acl.rt.free(p)


def upload(p, a):
    b = a.tobytes()
    assert acl.rt.memcpy(p, len(b), acl.util.bytes_to_ptr(b), len(b), ACL_MEMCPY_HOST_TO_DEVICE) == 0


def download(p, n, dtype):
    b = bytes(n)
    assert acl.rt.memcpy(acl.util.bytes_to_ptr(b), n, p, n, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    return np.frombuffer(b, dtype).copy()


def wait_until(pred, timeout=5.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.005)
    return pred()


class PageBuffer:
    """Page-aligned host memory (an anonymous mapping) and its address."""

    def __init__(self, pages):
        self.size = pages * mmap.PAGESIZE
        self.map = mmap.mmap(-1, self.size)
        self.buf = (ctypes.c_char * self.size).from_buffer(self.map)
        self.addr = ctypes.addressof(self.buf)

    def read(self, off, n):
        return bytes(self.map[off:off + n])

    def close(self):
        del self.buf
        self.map.close()


# ---- value write / wait -------------------------------------------------------------


def test_value_wait_holds_a_stream_until_another_stream_writes(streams, dev):
    a, b = streams
    word = dev(64)
    out = dev(16)
    upload(word, np.zeros(1, np.uint64))
    upload(out, np.zeros(4, np.int32))
    src = dev(16)
    upload(src, np.array([7, 8, 9, 10], np.int32))
    # b: wait for the word to reach 5, then copy src to out
    assert acl.rt.value_wait(word, 5, ACL_STREAM_WAIT_VALUE_GEQ, b) == 0
    assert acl.rt.memcpy_async(out, 16, src, 16, ACL_MEMCPY_DEVICE_TO_DEVICE, b) == 0
    time.sleep(0.05)
    status, r = acl.rt.stream_query(b)
    assert r == 0 and status != ACL_STREAM_STATUS_COMPLETE  # still waiting
    assert download(out, 16, np.int32).tolist() == [0, 0, 0, 0]
    # a: write 3 (not enough), then 6
    assert acl.rt.value_write(word, 3, 0, a) == 0
    assert acl.rt.synchronize_stream(a) == 0
    time.sleep(0.02)
    assert acl.rt.stream_query(b)[0] != ACL_STREAM_STATUS_COMPLETE
    assert acl.rt.value_write(word, 6, 0, a) == 0
    assert acl.rt.synchronize_stream(a) == 0
    assert acl.rt.synchronize_stream(b) == 0
    assert download(out, 16, np.int32).tolist() == [7, 8, 9, 10]
    assert download(word, 8, np.uint64).tolist() == [6]


def test_value_task_argument_errors(streams, dev):
    a, _ = streams
    word = dev(16)
    assert acl.rt.value_write(0, 1, 0, a) == 100000
    assert acl.rt.value_wait(word, 1, 4, a) == 107000  # not a condition
    assert acl.rt.value_write(word + 1, 1, 0, a) == 107000  # not 8-byte aligned
    host = bytes(64)
    p = (acl.util.bytes_to_ptr(host) + 7) & ~7
    assert acl.rt.value_write(p, 1, 0, a) == 107000  # host memory
    with pytest.raises(TypeError):
        acl.rt.value_write(word, 1.0, 0, a)


# ---- stream abort ---------------------------------------------------------------------


def test_stream_abort_discards_a_blocked_stream(streams, dev):
    a, b = streams
    word = dev(8)
    out = dev(16)
    upload(word, np.zeros(1, np.uint64))
    upload(out, np.zeros(4, np.int32))
    assert acl.rt.value_wait(word, 1, ACL_STREAM_WAIT_VALUE_EQ, b) == 0  # never written
    assert acl.rt.memset_async(out, 16, 0xFF, 16, b) == 0
    time.sleep(0.02)
    assert acl.rt.stream_abort(b) == 0
    assert acl.rt.synchronize_stream(b) == ACL_ERROR_RT_STREAM_ABORT  # reported once, here
    assert "aclrtStreamAbort" in acl.get_recent_err_msg()
    assert acl.rt.stream_query(b) == (ACL_STREAM_STATUS_COMPLETE, 0)
    assert download(out, 16, np.int32).tolist() == [0, 0, 0, 0]  # the memset never ran
    # the stream takes work again
    assert acl.rt.memset_async(out, 16, 1, 4, b) == 0
    assert acl.rt.synchronize_stream(b) == 0
    assert download(out, 16, np.uint8)[:4].tolist() == [1, 1, 1, 1]


def test_stream_abort_from_another_thread_releases_a_waiting_synchronize(streams, dev):
    _, b = streams
    word = dev(8)
    upload(word, np.zeros(1, np.uint64))
    assert acl.rt.value_wait(word, 1, ACL_STREAM_WAIT_VALUE_EQ, b) == 0
    ctx, _r = acl.rt.get_context()
    done = []

    def waiter():
        acl.rt.set_context(ctx)
        done.append(acl.rt.synchronize_stream(b))
    t = threading.Thread(target=waiter)
    t.start()
    time.sleep(0.05)
    assert done == []  # synchronize waits without the GIL
    assert acl.rt.stream_abort(b) == 0
    t.join(10)
    assert done == [ACL_ERROR_RT_STREAM_ABORT]


# ---- registered host memory --------------------------------------------------------------


def test_host_register_and_copy_through_the_device_pointer(streams, dev):
    a, _ = streams
    pb = PageBuffer(2)
    try:
        d, r = acl.rt.host_register(pb.addr, pb.size, ACL_HOST_REGISTER_MAPPED)
        assert r == 0 and d
        assert acl.rt.host_get_device_pointer(pb.addr + 100, 0) == (d + 100, 0)
        # copies take the host pointer (registered memory counts as host, copied asynchronously) ...
        src = dev(16)
        upload(src, np.array([1, 2, 3, 4], np.int32))
        assert acl.rt.memcpy_async(pb.addr + 64, 16, src, 16, ACL_MEMCPY_DEVICE_TO_HOST, a) == 0
        # ... device tasks the device-side address
        assert acl.rt.value_write(d + 128, 0xDEADBEEF, 0, a) == 0
        assert acl.rt.synchronize_stream(a) == 0
        assert struct.unpack("<4i", pb.read(64, 16)) == (1, 2, 3, 4)
        assert struct.unpack("<Q", pb.read(128, 8))[0] == 0xDEADBEEF
        pb.map[256:260] = struct.pack("<i", 42)
        assert acl.rt.memcpy_async(src, 16, pb.addr + 256, 4, ACL_MEMCPY_HOST_TO_DEVICE, a) == 0
        assert acl.rt.synchronize_stream(a) == 0
        assert download(src, 4, np.int32).tolist() == [42]
        # the device-side address is for device code: copies refuse it
        assert acl.rt.memcpy_async(d + 64, 16, src, 16, ACL_MEMCPY_DEVICE_TO_DEVICE, a) == 107000
        assert acl.rt.host_register(pb.addr, pb.size, ACL_HOST_REGISTER_MAPPED)[1] != 0  # twice
        assert acl.rt.host_unregister(pb.addr) == 0
        assert acl.rt.host_unregister(pb.addr) != 0
        assert acl.rt.host_get_device_pointer(pb.addr, 0)[0] == 0
    finally:
        acl.rt.host_unregister(pb.addr)
        pb.close()


def test_host_register_v2_and_argument_errors(context):
    pb = PageBuffer(1)
    try:
        assert acl.rt.host_register_v2(pb.addr, pb.size, ACL_HOST_REG_MAPPED) == 0
        d, r = acl.rt.host_get_device_pointer(pb.addr, 0)
        assert r == 0 and d
        assert acl.rt.host_get_device_pointer(pb.addr, 1) == (0, 100000)  # flag reserved
        assert acl.rt.host_unregister(pb.addr) == 0
        assert acl.rt.host_register_v2(pb.addr, pb.size, 0) == 107000  # no flag
        assert acl.rt.host_register_v2(pb.addr, pb.size, 0x4) == 207000  # IOMEMORY
        assert acl.rt.host_register(pb.addr, pb.size, 1) == (0, 207000)  # IOMEMORY
        assert acl.rt.host_register(0, 4096, 0) == (0, 100000)
        assert acl.rt.host_register(pb.addr, 0, 0) == (0, 100000)
    finally:
        pb.close()
    # an address that is not mapped memory: refused before C, with a message
    assert acl.rt.host_register(4096, 4096, 0) == (0, 100000)
    assert "not mapped" in acl.get_recent_err_msg()
    assert acl.rt.host_register_v2(4096, 4096, ACL_HOST_REG_MAPPED) == 100000


# ---- reductions and copy descriptors ------------------------------------------------------


@pytest.mark.parametrize("kind,fn", [(ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, np.add),
                                     (ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, np.maximum),
                                     (ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, np.minimum)])
def test_reduce_async_float(streams, dev, kind, fn):
    a, _ = streams
    x = np.array([1.5, -2.0, 3.25, 0.0, 8.0], np.float32)
    y = np.array([0.5, 4.0, -1.0, 2.0, 8.0], np.float32)
    dx, dy = dev(20), dev(20)
    upload(dx, x)
    upload(dy, y)
    assert acl.rt.reduce_async(dx, dy, 20, kind, ACL_FLOAT, a, 0) == 0
    assert acl.rt.synchronize_stream(a) == 0
    assert download(dx, 20, np.float32).tolist() == fn(x, y).tolist()
    assert acl.rt.reduce_async(dx, dy, 6, kind, ACL_FLOAT, a, 0) == 107000  # not a multiple of 4 bytes
    assert acl.rt.reduce_async(dx, dy, 20, 9, ACL_FLOAT, a, 0) == 107000  # not a kind


def test_memcpy_desc_is_read_when_the_task_runs(streams, dev):
    a, b = streams
    size, r = acl.rt.get_memcpy_desc_size(ACL_MEMCPY_DEVICE_TO_DEVICE)
    assert r == 0 and size > 0
    desc, s1, s2, out = dev(size), dev(16), dev(16), dev(16)
    upload(s1, np.array([1, 1, 1, 1], np.int32))
    upload(s2, np.array([2, 2, 2, 2], np.int32))
    word = dev(8)
    upload(word, np.zeros(1, np.uint64))
    assert acl.rt.set_memcpy_desc(desc, ACL_MEMCPY_DEVICE_TO_DEVICE, s1, out, 16, 0) == (desc, 0)
    assert acl.rt.value_wait(word, 1, ACL_STREAM_WAIT_VALUE_EQ, a) == 0  # hold the copy back
    assert acl.rt.memcpy_async_with_desc(desc, ACL_MEMCPY_DEVICE_TO_DEVICE, a) == 0
    assert acl.rt.set_memcpy_desc(desc, ACL_MEMCPY_DEVICE_TO_DEVICE, s2, out, 16, 0) == (desc, 0)  # rewrite
    assert acl.rt.value_write(word, 1, 0, b) == 0
    assert acl.rt.synchronize_stream(a) == 0
    assert download(out, 16, np.int32).tolist() == [2, 2, 2, 2]
    assert acl.rt.set_memcpy_desc(desc, ACL_MEMCPY_DEVICE_TO_DEVICE, s1, out, 16, 8)[1] != 0  # config not NULL


# ---- exception info ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def failing_kernel():
    """examples/kernels/vadd_kernel.c as a shared object; launched with fewer
    argument bytes than it reads, it returns 1: a failing task."""
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    src = REPO / "examples" / "kernels" / "vadd_kernel.c"
    if not cc or not src.is_file():
        pytest.skip("no C compiler or no examples/kernels/vadd_kernel.c")
    d = _tempdir("exc-kernel")
    out = d / "libvadd_kernel.so"
    p = subprocess.run([cc, "-O1", "-fPIC", "-shared", "-fvisibility=hidden", "-I", str(REPO / "include"),
                        "-o", str(out), str(src)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        shutil.rmtree(d, ignore_errors=True)
        pytest.skip("cannot build the kernel: %s" % p.stdout.decode(errors="replace"))
    yield out
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture
def fail_task(context, failing_kernel, dev):
    """launch(stream): queues a failing kernel; returns what synchronize gives."""
    h, r = acl.rt.binary_load_from_file(str(failing_kernel), [])
    assert r == 0
    f, r = acl.rt.binary_get_function(h, "vadd")
    assert r == 0
    args = dev(8)

    def launch(stream):
        assert acl.rt.launch_kernel(f, 1, args, 8, stream) == 0
        return acl.rt.synchronize_stream(stream)
    yield launch
    acl.rt.set_exception_info_callback(None)
    acl.rt.binary_unload(h)


def test_exception_callback_fires_for_a_failing_kernel(streams, fail_task):
    a, _ = streams
    seen = []

    def on_exception(info):
        seen.append(dict(info=info,
                         code=acl.rt.get_error_code_from_exception_info(info),
                         task=acl.rt.get_task_id_from_exception_info(info),
                         stream=acl.rt.get_stream_id_from_exception_info(info),
                         thread=acl.rt.get_thread_id_from_exception_info(info),
                         device=acl.rt.get_device_id_from_exception_info(info)))
    assert acl.rt.set_exception_info_callback(on_exception) == 0
    ret = fail_task(a)
    assert ret != 0
    assert len(seen) == 1
    s = seen[0]
    assert s["info"] and s["device"] == 0 and s["code"] not in (0, 0xFFFFFFFF)
    assert s["stream"] == acl.rt.stream_get_id(a)[0]
    assert s["thread"] == threading.get_native_id()  # the submitting thread
    assert acl.rt.get_task_id_from_exception_info(s["info"]) == 0xFFFFFFFF  # dead after the callback
    # replaced by another callable, then unregistered with None
    other = []
    assert acl.rt.set_exception_info_callback(other.append) == 0
    fail_task(a)
    assert len(seen) == 1 and len(other) == 1
    assert acl.rt.set_exception_info_callback(None) == 0
    fail_task(a)
    assert len(other) == 1


def test_raising_exception_callback_is_unraisable_and_kept(streams, fail_task, monkeypatch):
    a, _ = streams
    hooked = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: hooked.append((u.exc_type, u.object)))
    calls = []

    def bad(info):
        calls.append(info)
        raise KeyError("boom")
    assert acl.rt.set_exception_info_callback(bad) == 0
    assert fail_task(a) != 0
    assert fail_task(a) != 0  # still installed (pyACL dropped it)
    assert len(calls) == 2 and hooked == [(KeyError, bad), (KeyError, bad)]
    assert acl.rt.set_exception_info_callback() == 0


def test_exception_callback_reference_is_released(context):
    class Fn:
        def __call__(self, info):
            pass
    fn = Fn()
    base = sys.getrefcount(fn)
    assert acl.rt.set_exception_info_callback(fn) == 0
    assert sys.getrefcount(fn) == base + 1
    assert acl.rt.set_exception_info_callback(fn) == 0
    assert sys.getrefcount(fn) == base + 1
    assert acl.rt.set_exception_info_callback(None) == 0
    assert sys.getrefcount(fn) == base


# ---- allocator trampolines ------------------------------------------------------------------


def libascendcl():
    """The libascendcl.so the acl module uses (from this process's mappings)."""
    with open("/proc/self/maps") as f:
        for line in f:
            path = line.split()[-1]
            if os.path.basename(path).startswith("libascendcl.so"):
                return ctypes.CDLL(path)
    pytest.skip("libascendcl.so is not mapped")


ALLOC_T = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)
FREE_T = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)
ADVISE_T = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p)
ADDR_T = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p)


def test_allocator_callbacks_are_called_through_the_registry(streams, dev, monkeypatch):
    """A C consumer (the model engine on the vendor's stack) fetches the
    stream's allocator with aclrtAllocatorGetByStream and calls the function
    pointers: they reach the Python callables, with the object as given, and
    the ints those return come back as the pointers."""
    a, _ = streams
    lib = libascendcl()
    pool = dev(4096)
    log = []

    def alloc(obj, size):
        log.append(("alloc", obj, size))
        return pool + 256

    def free(obj, block):
        log.append(("free", obj, block))

    def advise(obj, size, addr):
        log.append(("advise", obj, size, addr))
        return addr

    def get_addr(block):
        log.append(("addr", block))
        return block + 16

    desc = acl.rt.allocator_create_desc()
    assert desc
    try:
        assert acl.rt.allocator_set_obj_to_desc(desc, 0xABC0) == 0
        assert acl.rt.allocator_set_alloc_func_to_desc(desc, alloc) == 0
        assert acl.rt.allocator_set_free_func_to_desc(desc, free) == 0
        assert acl.rt.allocator_set_alloc_advise_func_to_desc(desc, advise) == 0
        assert acl.rt.allocator_set_get_addr_from_block_func_to_desc(desc, get_addr) == 0
        assert acl.rt.allocator_register(a, desc) == 0
        out = [ctypes.c_void_p() for _ in range(6)]
        lib.aclrtAllocatorGetByStream.restype = ctypes.c_int
        assert lib.aclrtAllocatorGetByStream(ctypes.c_void_p(a), *[ctypes.byref(o) for o in out]) == 0
        got_desc, obj, fa, ff, fadv, faddr = [o.value for o in out]
        assert got_desc == desc and obj == 0xABC0
        block = ALLOC_T(fa)(obj, 128)
        assert block == pool + 256
        assert ADDR_T(faddr)(block) == pool + 272
        assert ADVISE_T(fadv)(obj, 64, pool) == pool
        FREE_T(ff)(obj, block)
        assert log == [("alloc", 0xABC0, 128), ("addr", pool + 256), ("advise", 0xABC0, 64, pool),
                       ("free", 0xABC0, pool + 256)]
        # a raising or non-int callable: reported, NULL to C
        hooked = []
        monkeypatch.setattr(sys, "unraisablehook", lambda u: hooked.append(u.exc_type))
        assert acl.rt.allocator_set_alloc_func_to_desc(desc, lambda obj, size: 1 / 0) == 0
        assert ALLOC_T(fa)(obj, 8) is None
        assert acl.rt.allocator_set_alloc_func_to_desc(desc, lambda obj, size: "x") == 0
        assert ALLOC_T(fa)(obj, 8) is None
        assert hooked == [ZeroDivisionError, TypeError]
        assert acl.rt.allocator_unregister(a) == 0
        assert acl.rt.allocator_unregister(a) == 0  # none registered: 0
    finally:
        acl.rt.allocator_destroy_desc(desc)


def test_allocator_callable_replaced_only_when_c_accepts(context):
    """A refused set (NULL descriptor) keeps the previous callable."""
    assert acl.rt.allocator_set_alloc_func_to_desc(0, lambda o, s: 0) == 100000
    assert acl.rt.allocator_destroy_desc(0) == 100000
    with pytest.raises(TypeError):
        acl.rt.allocator_set_free_func_to_desc(1, 5)


# ---- stream and device controls -----------------------------------------------------------------


def test_overflow_switch_and_attributes_per_stream(streams):
    a, b = streams
    assert acl.rt.set_stream_overflow_switch(a, 1) == 0
    assert acl.rt.get_stream_overflow_switch(a) == (1, 0)
    assert acl.rt.get_stream_overflow_switch(b) == (0, 0)
    assert acl.rt.set_stream_overflow_switch(a, 2) == 100000
    assert acl.rt.set_stream_attribute(a, 1, {"failureMode": 1}) == 0  # ACL_STOP_ON_FAILURE
    assert acl.rt.get_stream_attribute(a, 1) == ({"failureMode": 1}, 0)
    assert acl.rt.set_stream_attribute(0, 1, {"failureMode": 1}) == 100000  # not the default stream
    d, r = acl.rt.get_stream_attribute(a, 99)
    assert r != 0 and d == {"reserved": [0, 0, 0, 0]}  # a zeroed value on failure


def test_stream_res_limit_used_by_another_thread(streams):
    a, _ = streams
    assert acl.rt.set_stream_res_limit(a, 0, 1) == 0
    ctx, _r = acl.rt.get_context()
    got = []

    def other():
        acl.rt.set_context(ctx)
        got.append(acl.rt.use_stream_res_in_current_thread(a))
        got.append(acl.rt.get_res_in_current_thread(0))
        got.append(acl.rt.unuse_stream_res_in_current_thread(a))
    t = threading.Thread(target=other)
    t.start()
    t.join(10)
    assert got == [0, (1, 0), 0]
    assert acl.rt.reset_stream_res_limit(a) == 0


def test_device_id_mappings_and_errors(context):
    count, r = acl.rt.get_device_count()
    assert r == 0
    for i in range(count):
        phy, r = acl.rt.get_phy_dev_id_by_logic_dev_id(i)
        assert r == 0 and acl.rt.get_logic_dev_id_by_phy_dev_id(phy) == (i, 0)
        user, r = acl.rt.get_user_dev_id_by_logic_dev_id(i)
        assert r == 0 and acl.rt.get_logic_dev_id_by_user_dev_id(user) == (i, 0)
    assert acl.rt.get_logic_dev_id_by_user_dev_id(count + 5)[0] == 0
    assert acl.rt.get_logic_dev_id_by_user_dev_id(count + 5)[1] != 0
    with pytest.raises(OverflowError):
        acl.rt.get_phy_dev_id_by_logic_dev_id(1 << 40)
