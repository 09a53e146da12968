"""Tests of acl.rt's report loop and callbacks (rt_callback.c) and of acl.util
(util.c, util_thread.c): pyacl.md §2.2, §2.4, §3.5, §3.6.

Run with the extension on PYTHONPATH, e.g.
    PYTHONPATH=/tmp/pyacl-cb /usr/bin/python3 -m pytest -q tests/python/test_callbacks_util.py

The setup calls (set_device, create_stream, malloc, memcpy, ...) use acl.rt
when the extension has them; a build without rt_device.c / rt_stream.c /
rt_memory.c gets a ctypes stand-in with pyACL's signatures over the same
libascendcl (ctypes releases the GIL around C, as those functions do).

A deadlock here would hang the whole process (a thread holding the GIL
while it waits for one that needs it), so every test runs under a
faulthandler watchdog that dumps the stacks and exits instead.
"""

import ctypes
import errno
import faulthandler
import gc
import os
import signal
import sys
import threading
import time
import warnings

import pytest

import acl
from conftest import describe, run_python

ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_CALLBACK_NO_BLOCK = 0
ACL_CALLBACK_BLOCK = 1
ACL_ERROR_RT_STREAM_NO_CB_REG = 107015
ACL_ERROR_RT_REPORT_TIMEOUT = 507012
ACL_ERROR_RT_THREAD_SUBSCRIBE = 107012
ESRCH = errno.ESRCH
WATCHDOG_S = int(os.environ.get("ACL_TEST_WATCHDOG_S", "60"))


class _CtypesRt:
    """pyACL-shaped acl.rt setup functions over libascendcl, for builds
    that do not have them yet."""

    def __init__(self):
        lib = ctypes.CDLL("libascendcl.so.0")  # the copy the extension loaded
        self.lib = lib
        vp = ctypes.c_void_p
        for name, argtypes in {
            "aclrtSetDevice": [ctypes.c_int32],
            "aclrtResetDevice": [ctypes.c_int32],
            "aclrtCreateContext": [ctypes.POINTER(vp), ctypes.c_int32],
            "aclrtDestroyContext": [vp],
            "aclrtSetCurrentContext": [vp],
            "aclrtCreateStream": [ctypes.POINTER(vp)],
            "aclrtDestroyStream": [vp],
            "aclrtSynchronizeStream": [vp],
            "aclrtMalloc": [ctypes.POINTER(vp), ctypes.c_size_t, ctypes.c_int],
            "aclrtFree": [vp],
            "aclrtMallocHost": [ctypes.POINTER(vp), ctypes.c_size_t],
            "aclrtFreeHost": [vp],
            "aclrtMemcpy": [vp, ctypes.c_size_t, vp, ctypes.c_size_t, ctypes.c_int],
        }.items():
            f = getattr(lib, name)
            f.argtypes = argtypes
            f.restype = ctypes.c_int

    @staticmethod
    def _out(fn, *args):
        p = ctypes.c_void_p()
        ret = fn(ctypes.byref(p), *args)
        return p.value or 0, ret

    def set_device(self, dev):
        return self.lib.aclrtSetDevice(dev)

    def reset_device(self, dev):
        return self.lib.aclrtResetDevice(dev)

    def create_context(self, dev):
        return self._out(self.lib.aclrtCreateContext, dev)

    def destroy_context(self, ctx):
        return self.lib.aclrtDestroyContext(ctx)

    def set_context(self, ctx):
        return self.lib.aclrtSetCurrentContext(ctx)

    def create_stream(self):
        return self._out(self.lib.aclrtCreateStream)

    def destroy_stream(self, s):
        return self.lib.aclrtDestroyStream(s)

    def synchronize_stream(self, s):
        return self.lib.aclrtSynchronizeStream(s)

    def malloc(self, size, policy):
        return self._out(self.lib.aclrtMalloc, size, policy)

    def free(self, p):
        return self.lib.aclrtFree(p)

    def malloc_host(self, size):
        return self._out(self.lib.aclrtMallocHost, size)

    def free_host(self, p):
        return self.lib.aclrtFreeHost(p)

    def memcpy(self, dst, dmax, src, count, kind):
        return self.lib.aclrtMemcpy(dst, dmax, src, count, kind)


class _Rt:
    """acl.rt, with the ctypes stand-in for what the build lacks."""

    _shim = None

    def __getattr__(self, name):
        f = getattr(acl.rt, name, None)
        if f is not None:
            return f
        if _Rt._shim is None:
            _Rt._shim = _CtypesRt()
        return getattr(_Rt._shim, name)


rt = _Rt()


_real_stderr_fd = None


@pytest.fixture(autouse=True)
def watchdog(capfd):
    """Dumps every thread's stack to the real stderr (not pytest's capture,
    which a killed process never shows) and exits if a test hangs."""
    global _real_stderr_fd
    if _real_stderr_fd is None:
        with capfd.disabled():
            _real_stderr_fd = os.dup(2)
    faulthandler.dump_traceback_later(WATCHDOG_S, exit=True, file=_real_stderr_fd)
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.fixture(scope="module")
def context():
    ret = acl.init("")
    assert ret in (0, 100002)
    assert rt.set_device(0) == 0
    ctx, ret = rt.create_context(0)
    assert ret == 0 and ctx
    yield ctx
    assert rt.set_context(ctx) == 0
    assert rt.destroy_context(ctx) == 0
    assert rt.reset_device(0) == 0


@pytest.fixture
def stream(context):
    assert rt.set_context(context) == 0
    s, ret = rt.create_stream()
    assert ret == 0 and s
    yield s
    rt.set_context(context)
    assert rt.destroy_stream(s) == 0


class ReportThread:
    """The vendor's report loop (pyacl.md §3.6 step 1): a start_thread
    thread that sets its context first and loops on process_report,
    ignoring its timeouts, until the flag is set."""

    def __init__(self, context, timeout_ms=50, go=None):
        self.stop = False
        self.ident = None
        self.rets = set()
        self.go = go
        self.tid, ret = acl.util.start_thread(self._loop, [context, timeout_ms])
        assert ret == 0 and self.tid

    def _loop(self, args):
        ctx, timeout_ms = args
        self.ident = threading.get_ident()
        assert rt.set_context(ctx) == 0
        if self.go is not None:
            # Not in the vendor's loop: until subscribe_report, process_report
            # returns 107012 at once, and each failure logs an ERROR line.
            self.go.wait()
        while not self.stop:
            self.rets.add(acl.rt.process_report(timeout_ms))

    def join(self):
        self.stop = True
        return acl.util.stop_thread(self.tid)


@pytest.fixture
def report(context, stream):
    """A report thread subscribed to `stream`; unsubscribed and stopped after."""
    go = threading.Event()
    t = ReportThread(context, go=go)
    assert acl.rt.subscribe_report(t.tid, stream) == 0
    go.set()
    yield t
    assert rt.synchronize_stream(stream) == 0
    t.stop = True  # before unsubscribing, so the loop does not spin on 107012
    assert acl.rt.unsubscribe_report(t.tid, stream) == 0
    assert t.join() == 0


# ---- the report loop -------------------------------------------------------


def test_report_loop_delivers_one_call_with_the_user_data(context, stream):
    calls = []
    data = [context, "payload", 50]

    def on_done(user_data):
        calls.append((user_data, threading.get_ident()))

    t = ReportThread(context)  # step 1
    assert acl.rt.subscribe_report(t.tid, stream) == 0  # step 2
    assert acl.rt.launch_callback(on_done, data, ACL_CALLBACK_BLOCK, stream) == 0  # step 3
    assert rt.synchronize_stream(stream) == 0  # step 4
    assert acl.rt.unsubscribe_report(t.tid, stream) == 0  # step 5
    assert t.join() == 0  # step 6
    assert len(calls) == 1
    assert calls[0][0] is data
    assert data == [context, "payload", 50]
    # The callback ran on the report thread, whose id is start_thread's tid.
    assert calls[0][1] == t.tid == t.ident
    # 107012 before subscribe_report and after unsubscribe_report (the loop
    # runs then too, as in the vendor's scripts, which ignore the returns).
    assert t.rets <= {0, ACL_ERROR_RT_REPORT_TIMEOUT, ACL_ERROR_RT_THREAD_SUBSCRIBE}


def test_no_block_callbacks_run_in_launch_order(stream, report):
    seen = []
    for i in range(20):
        assert acl.rt.launch_callback(seen.append, i, ACL_CALLBACK_NO_BLOCK, stream) == 0
    assert acl.rt.launch_callback(seen.append, "last", ACL_CALLBACK_BLOCK, stream) == 0
    assert rt.synchronize_stream(stream) == 0
    assert seen == list(range(20)) + ["last"]


def test_block_callback_calls_malloc_host_and_memcpy(context, stream, report):
    size = 64
    src = bytes(range(size))
    dev, ret = rt.malloc(size, 0)
    assert ret == 0 and dev
    assert rt.memcpy(dev, size, acl.util.bytes_to_ptr(src), size, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    got = {}

    def on_done(user_data):
        # On the report thread, inside process_report, while the main thread
        # waits in synchronize_stream: both must have released the GIL.
        host, ret = rt.malloc_host(size)
        got["malloc_host"] = ret
        got["memcpy"] = rt.memcpy(host, size, user_data[0], size, ACL_MEMCPY_DEVICE_TO_HOST)
        got["data"] = acl.util.ptr_to_bytes(host, size)
        got["free_host"] = rt.free_host(host)

    assert acl.rt.launch_callback(on_done, [dev], ACL_CALLBACK_BLOCK, stream) == 0
    assert rt.synchronize_stream(stream) == 0
    assert got == {"malloc_host": 0, "memcpy": 0, "data": src, "free_host": 0}
    assert rt.free(dev) == 0


def test_raising_callback_is_unraisable_and_the_runtime_goes_on(stream, report, monkeypatch):
    hooked = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: hooked.append((u.exc_type, str(u.exc_value), u.object)))
    after = []

    def bad(user_data):
        raise KeyError(user_data)

    assert acl.rt.launch_callback(bad, "boom", ACL_CALLBACK_BLOCK, stream) == 0
    assert acl.rt.launch_callback(after.append, 1, ACL_CALLBACK_BLOCK, stream) == 0
    assert rt.synchronize_stream(stream) == 0
    assert hooked == [(KeyError, "'boom'", bad)]
    assert after == [1]
    # The loop kept going; the next callback of the same stream runs too.
    assert acl.rt.launch_callback(after.append, 2, ACL_CALLBACK_NO_BLOCK, stream) == 0
    assert acl.rt.launch_callback(after.append, 3, ACL_CALLBACK_BLOCK, stream) == 0
    assert rt.synchronize_stream(stream) == 0
    assert after == [1, 2, 3]


def test_refcounts_return_to_baseline(stream, report):
    def fn(user_data):
        user_data.append(1)

    data = []
    gc.collect()
    base_fn, base_data = sys.getrefcount(fn), sys.getrefcount(data)
    for block in (ACL_CALLBACK_BLOCK, ACL_CALLBACK_NO_BLOCK, ACL_CALLBACK_BLOCK):
        assert acl.rt.launch_callback(fn, data, block, stream) == 0
    assert rt.synchronize_stream(stream) == 0
    assert data == [1, 1, 1]
    assert (sys.getrefcount(fn), sys.getrefcount(data)) == (base_fn, base_data)


def test_refcounts_after_a_refused_launch(stream):
    def fn(user_data):
        raise AssertionError("must not run")

    data = object()
    base_fn, base_data = sys.getrefcount(fn), sys.getrefcount(data)
    # No thread is subscribed to the stream: C refuses, the record goes at once.
    assert acl.rt.launch_callback(fn, data, ACL_CALLBACK_BLOCK, stream) == ACL_ERROR_RT_STREAM_NO_CB_REG
    assert acl.rt.launch_callback(fn, data, 7, stream) != 0
    assert (sys.getrefcount(fn), sys.getrefcount(data)) == (base_fn, base_data)


def test_callback_argument_errors():
    with pytest.raises(TypeError, match="args parse failed"):
        acl.rt.launch_callback(print, None, 1)
    with pytest.raises(TypeError, match="args parse failed"):
        acl.rt.launch_callback("not callable", None, 1, 0)
    with pytest.raises(TypeError, match="args parse failed"):
        acl.rt.subscribe_report("1", 0)
    with pytest.raises(TypeError, match="args parse failed"):
        acl.rt.process_report()
    with pytest.raises(OverflowError):
        acl.rt.process_report(1 << 40)


def test_process_report_unsubscribed_thread_and_last_error(context):
    assert rt.set_context(context) == 0
    ret = acl.rt.process_report(10)
    assert ret != 0 and ret != ACL_ERROR_RT_REPORT_TIMEOUT
    assert acl.rt.peek_at_last_error(0) == ret
    assert acl.rt.get_last_error(0) == ret
    assert acl.rt.get_last_error(0) == 0


def test_exception_info_arguments_and_getters_outside_a_callback():
    """set_exception_info_callback takes a callable, None or nothing; the
    getters refuse an info that is not that of a running callback with
    0xFFFFFFFF and a message (tests/python/test_rt_ext.py fires one)."""
    assert acl.rt.set_exception_info_callback(lambda info: None) == 0
    assert acl.rt.set_exception_info_callback(None) == 0
    assert acl.rt.set_exception_info_callback() == 0
    with pytest.raises(TypeError, match="args parse failed"):
        acl.rt.set_exception_info_callback(5)
    for kind in ("error_code", "task_id", "stream_id", "thread_id", "device_id"):
        getter = getattr(acl.rt, "get_%s_from_exception_info" % kind)
        assert getter(0) == 0xFFFFFFFF
        assert getter(12345) == 0xFFFFFFFF
        assert "ExceptionInfo" in acl.get_recent_err_msg()
        with pytest.raises(TypeError, match="args parse failed"):
            getter()


# ---- threads ----------------------------------------------------------------


def test_start_thread_passes_arg_and_tid_is_the_ident():
    got = []
    arg = [1, "two"]
    tid, ret = acl.util.start_thread(lambda a: got.append((a, threading.get_ident())), arg)
    assert ret == 0
    assert acl.util.stop_thread(tid) == 0
    assert got == [(arg, tid)] and got[0][0] is arg
    tid, ret = acl.util.start_thread(lambda: got.append("no arg"), None)
    assert ret == 0 and acl.util.stop_thread(tid) == 0
    assert got[-1] == "no arg"


def test_raising_thread_makes_stop_thread_raise(capfd):
    def fn(arg):
        raise ValueError("bad %s" % arg)

    tid, ret = acl.util.start_thread(fn, "arg")
    assert ret == 0
    with pytest.raises(RuntimeError) as e:
        acl.util.stop_thread(tid)
    assert str(e.value) == "exception=ValueError,msg=thread call failed"
    err = capfd.readouterr().err
    assert "Traceback" in err and "ValueError: bad arg" in err
    # The record went with the join: the tid is unknown now.
    assert acl.util.stop_thread(tid) == ESRCH


def test_stop_thread_unknown_tid_own_thread_and_argument_errors():
    assert acl.util.stop_thread(12345) == ESRCH  # pyACL would hand pthread_join a bogus id
    started, stopped = threading.Event(), threading.Event()
    got = []

    def stop_self():
        started.wait()  # start_thread has filed the thread
        got.append(acl.util.stop_thread(threading.get_ident()))
        stopped.set()

    tid, ret = acl.util.start_thread(stop_self, None)
    assert ret == 0
    started.set()
    assert stopped.wait(10)
    assert got == [errno.EDEADLK]
    assert acl.util.stop_thread(tid) == 0
    with pytest.raises(TypeError, match="args parse failed"):
        acl.util.start_thread(5, None)
    with pytest.raises(TypeError, match="args parse failed"):
        acl.util.start_thread(print)
    with pytest.raises(TypeError, match="args parse failed"):
        acl.util.stop_thread("1")


def test_start_thread_sets_sigint_back_to_default():
    """As the vendor: after start_thread, Ctrl-C kills the process (a main
    thread blocked in stop_thread could not see KeyboardInterrupt)."""
    code = """
import os, signal, sys, time, acl
try:
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.1)
except KeyboardInterrupt:
    print("KeyboardInterrupt before", flush=True)
tid, ret = acl.util.start_thread(time.sleep, 5)
assert ret == 0
os.kill(os.getpid(), signal.SIGINT)
time.sleep(1)
print("survived", flush=True)
"""
    p = run_python(code=code, check_signal=False, timeout=60)
    assert p.returncode == -signal.SIGINT, describe(p)
    assert p.stdout == "KeyboardInterrupt before\n", describe(p)


def test_thread_refcounts_return_to_baseline():
    def fn(arg):
        arg.append(1)

    arg = []
    base_fn, base_arg = sys.getrefcount(fn), sys.getrefcount(arg)
    tid, ret = acl.util.start_thread(fn, arg)
    assert ret == 0 and acl.util.stop_thread(tid) == 0
    assert arg == [1]
    assert (sys.getrefcount(fn), sys.getrefcount(arg)) == (base_fn, base_arg)


def test_gil_released_in_process_report_and_stop_thread(context, stream):
    """Two threads wait in process_report at once, and stop_thread lets the
    joined thread (which needs the GIL) and other Python threads run."""
    stream2, ret = rt.create_stream()
    assert ret == 0
    wait_ms = 400
    timings = {}
    subscribed = threading.Event()

    def waiter(args):
        ctx, key = args
        rt.set_context(ctx)
        subscribed.wait()
        t0 = time.monotonic()
        timings[key] = (acl.rt.process_report(wait_ms), t0, time.monotonic())
        # Python work after the C wait: needs the GIL while the main thread
        # is inside stop_thread.
        x = 0
        for i in range(200000):
            x += i
        timings[key + "_sum"] = x

    a, ret_a = acl.util.start_thread(waiter, [context, "a"])
    b, ret_b = acl.util.start_thread(waiter, [context, "b"])
    assert ret_a == ret_b == 0
    assert acl.rt.subscribe_report(a, stream) == 0
    assert acl.rt.subscribe_report(b, stream2) == 0
    subscribed.set()
    ticks = []
    ticking = True

    def ticker():
        while ticking:
            ticks.append(time.monotonic())
            time.sleep(0.005)

    tk = threading.Thread(target=ticker)
    tk.start()
    t0 = time.monotonic()
    assert acl.util.stop_thread(a) == 0
    assert acl.util.stop_thread(b) == 0
    elapsed = time.monotonic() - t0
    ticking = False
    tk.join()
    assert timings["a"][0] == timings["b"][0] == ACL_ERROR_RT_REPORT_TIMEOUT
    assert timings["a_sum"] == timings["b_sum"] == sum(range(200000))
    # Both C waits overlapped: serialised they would take 2 x 400 ms.
    (_, a0, a1), (_, b0, b1) = timings["a"], timings["b"]
    assert max(a1, b1) - min(a0, b0) < 2 * wait_ms / 1000.0 - 0.1
    assert elapsed < 2 * wait_ms / 1000.0 - 0.1
    # The ticker ran all along the main thread's stop_thread calls.
    assert len([t for t in ticks if t0 < t < t0 + elapsed]) >= 20
    for tid, s in ((a, stream), (b, stream2)):
        assert acl.rt.unsubscribe_report(tid, s) == 0
    assert rt.destroy_stream(stream2) == 0


def test_slow_block_callback_does_not_stall_other_threads(stream, report):
    """A callback sleeping in Python (GIL released by time.sleep) while the
    main thread waits in synchronize_stream and a third thread computes."""
    order = []

    def slow(user_data):
        time.sleep(0.2)
        order.append(user_data)

    counter = [0]
    running = True

    def spin():
        while running:
            counter[0] += 1

    sp = threading.Thread(target=spin)
    sp.start()
    assert acl.rt.launch_callback(slow, "slow", ACL_CALLBACK_BLOCK, stream) == 0
    assert acl.rt.launch_callback(order.append, "next", ACL_CALLBACK_BLOCK, stream) == 0
    assert rt.synchronize_stream(stream) == 0
    running = False
    sp.join()
    assert order == ["slow", "next"]
    assert counter[0] > 0


# ---- bytes ----------------------------------------------------------------


def test_bytes_to_ptr_is_written_by_d2h_memcpy(context):
    rt.set_context(context)
    size = 256
    src = bytes((i * 7) & 0xFF for i in range(size))
    dev, ret = rt.malloc(size, 0)
    assert ret == 0
    assert rt.memcpy(dev, size, acl.util.bytes_to_ptr(src), size, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    dst = bytes(size)  # as acllite: np.zeros(n).tobytes(), then a D2H copy into it
    p = acl.util.bytes_to_ptr(dst)
    assert rt.memcpy(p, size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert dst == src
    assert acl.util.bytes_to_ptr(dst) == p  # no copy: the same storage
    assert rt.free(dev) == 0


def test_bytes_to_ptr_rejects_non_bytes():
    for bad in (bytearray(b"ab"), memoryview(b"ab"), "ab", 1, None):
        with pytest.raises(ValueError):
            acl.util.bytes_to_ptr(bad)
    with pytest.raises(TypeError, match="args parse failed"):
        acl.util.bytes_to_ptr()
    with pytest.raises(TypeError, match="args parse failed"):
        acl.util.bytes_to_ptr(b"a", b"b")


def test_ptr_to_bytes_copies():
    b = bytes(range(100))
    p = acl.util.bytes_to_ptr(b)
    c = acl.util.ptr_to_bytes(p + 10, 20)
    assert c == bytes(range(10, 30)) and type(c) is bytes
    assert acl.util.ptr_to_bytes(p, 0) == b""
    assert acl.util.ptr_to_bytes(0, 0) == b""
    big = bytes(3 << 20)  # the copy that runs with the GIL released
    assert acl.util.ptr_to_bytes(acl.util.bytes_to_ptr(big), len(big)) == big


def test_ptr_to_bytes_bad_pointer_raises_value_error():
    with pytest.raises(ValueError, match="not mapped host memory"):
        acl.util.ptr_to_bytes(0, 16)
    with pytest.raises(ValueError, match="not mapped host memory"):
        acl.util.ptr_to_bytes(8, 1)
    with pytest.raises(TypeError, match="args parse failed"):
        acl.util.ptr_to_bytes(1.5, 1)


# ---- numpy ----------------------------------------------------------------


def _np():
    return pytest.importorskip("numpy")


def _warns(fn, *args):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = fn(*args)
    return r, [x.category for x in w]


@pytest.mark.parametrize("npy_type, dtype", [(11, "float32"), (23, "float16")])
def test_numpy_round_trip(npy_type, dtype):
    np = _np()
    a = np.arange(12, dtype=dtype).reshape(3, 4)
    p, cats = _warns(acl.util.numpy_to_ptr, a)
    assert p == a.ctypes.data
    assert cats == [Warning]
    v, cats = _warns(acl.util.ptr_to_numpy, p, (3, 4), npy_type)
    assert cats == [Warning]
    assert v.dtype == np.dtype(dtype) and v.shape == (3, 4)
    assert v.flags.writeable and v.flags.c_contiguous and not v.flags.owndata
    assert np.array_equal(v, a)
    v[1, 2] = 99  # a view: writes go into a
    assert a[1, 2] == 99
    assert acl.util.ptr_to_bytes(p, a.nbytes) == a.tobytes()


def test_ptr_to_numpy_types_and_shapes():
    np = _np()
    buf = bytes(64)
    p = acl.util.bytes_to_ptr(buf)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for num, ch in enumerate("?bBhHiIlLqQfdgFDG"):
            isz = np.dtype(ch).itemsize
            v = acl.util.ptr_to_numpy(p, (64 // isz // 2, 2), num)
            assert v.dtype == np.dtype(ch) and v.nbytes == (64 // isz // 2) * 2 * isz
        assert acl.util.ptr_to_numpy(p, (), 11).shape == ()
        assert acl.util.ptr_to_numpy(0, (0, 5), 11).shape == (0, 5)
        with pytest.raises(TypeError, match="args parse failed"):
            acl.util.ptr_to_numpy(p, [4], 11)  # shape must be a tuple
        with pytest.raises(TypeError, match="args parse failed"):
            acl.util.ptr_to_numpy(p, (2.0,), 11)
        with pytest.raises(ValueError):
            acl.util.ptr_to_numpy(p, (4,), 17)
        with pytest.raises(ValueError):
            acl.util.ptr_to_numpy(p, (-1,), 11)
        with pytest.raises(ValueError, match="not mapped"):
            acl.util.ptr_to_numpy(0, (4,), 11)


def test_numpy_to_ptr_non_contiguous_and_errors():
    np = _np()
    a = np.zeros((4, 4), np.float32)[:, ::2]
    p, cats = _warns(acl.util.numpy_to_ptr, a)
    assert p == a.__array_interface__["data"][0]
    assert cats == [Warning, Warning]
    r = np.zeros(4, np.int32)
    r.flags.writeable = False
    p, _ = _warns(acl.util.numpy_to_ptr, r)  # read-only arrays too, as pyACL
    assert p == r.ctypes.data
    for bad in ([1, 2], b"ab", 3):
        with pytest.raises(ValueError):
            acl.util.numpy_to_ptr(bad)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(Warning):
            acl.util.numpy_to_ptr(np.zeros(2))


def test_numpy_contiguous_to_ptr():
    np = _np()
    a = np.arange(8, dtype=np.float32)
    (p, c), cats = _warns(acl.util.numpy_contiguous_to_ptr, a)
    assert c is a and p == a.ctypes.data and cats == [Warning]
    nc = np.arange(16, dtype=np.float32).reshape(4, 4)[:, ::2]
    (p, c), _ = _warns(acl.util.numpy_contiguous_to_ptr, nc)
    assert c is not nc and c.flags.c_contiguous and np.array_equal(c, nc)
    assert p == c.ctypes.data
    with pytest.raises(ValueError):
        acl.util.numpy_contiguous_to_ptr([1.0])
