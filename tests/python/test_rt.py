"""Tests of acl.rt's devices, contexts, streams, events, memory and kernels
(rt_device.c, rt_stream.c, rt_memory.c, rt_kernel.c) and of its stubs
(rt_stubs.c): return shapes, codes and error paths (pyacl.md §2.2, §3).

Run with the extension on PYTHONPATH, e.g.
    PYTHONPATH=/tmp/pyacl-rt /usr/bin/python3 -m pytest -q tests/python/test_rt.py

Host buffers come from ctypes (acl.util is another file's).  The kernel
tests build examples/kernels/vadd_kernel.c (and a sleeping kernel) with the
system C compiler and skip without one.
"""

import ctypes
import pathlib
import re
import shutil
import struct
import subprocess
import threading
import time

import pytest

import acl

rt = acl.rt
ROOT = pathlib.Path(__file__).resolve().parents[2]

H2H, H2D, D2H, D2D, DEFAULT = 0, 1, 2, 3, 4
ACL_SUCCESS = 0
ACL_ERROR_INVALID_PARAM = 100000
ACL_ERROR_REPEAT_INITIALIZE = 100002
ACL_ERROR_RT_PARAM_INVALID = 107000
ACL_ERROR_RT_INVALID_HANDLE = 107017
ACL_ERROR_API_NOT_SUPPORT = 200001
ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE = 0x12D
ACL_HBM_MEM = 1
ACL_MEM_LOCATION_TYPE_HOST, ACL_MEM_LOCATION_TYPE_DEVICE = 0, 1
ACL_RT_BINARY_LOAD_OPT_MAGIC = 2
ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE = 0x41415246
BOGUS = 12345  # an int that is no mapped address


@pytest.fixture(scope="module", autouse=True)
def device():
    assert acl.init() in (ACL_SUCCESS, ACL_ERROR_REPEAT_INITIALIZE)
    assert rt.set_device(0) == ACL_SUCCESS
    yield 0
    rt.reset_device(0)
    acl.finalize()


@pytest.fixture(autouse=True)
def clean_messages():
    acl.get_recent_err_msg()
    yield
    acl.get_recent_err_msg()


def buf(n, fill=b""):
    """A writable host buffer of n bytes (kept alive by the caller) and its address."""
    b = ctypes.create_string_buffer(fill, n) if fill else ctypes.create_string_buffer(n)
    return b, ctypes.addressof(b)


def parse_fails(fn, *args):
    with pytest.raises(TypeError, match="args parse failed"):
        fn(*args)
    return True


# ---- devices ----------------------------------------------------------------


def test_device_getters():
    assert rt.get_device() == (0, ACL_SUCCESS)
    count, ret = rt.get_device_count()
    assert ret == ACL_SUCCESS and count >= 1
    assert rt.get_run_mode() == (1, ACL_SUCCESS)  # ACL_HOST
    assert rt.query_device_status(0) == (0, ACL_SUCCESS)
    status, ret = rt.query_device_status(count + 100)
    assert status == 0 and ret != ACL_SUCCESS
    least, greatest, ret = rt.device_get_stream_priority_range()
    assert ret == ACL_SUCCESS and least >= greatest
    assert rt.get_primary_ctx_state(0) == (1, 0, ACL_SUCCESS)
    active, flags, ret = rt.get_primary_ctx_state(count + 100)
    assert (active, flags) == (0, 0) and ret != ACL_SUCCESS


def test_get_device_info_is_whole_int64():
    total, ret = rt.get_device_info(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE)
    assert ret == ACL_SUCCESS and total > 0
    free, total_info, ret = rt.get_mem_info(ACL_HBM_MEM)
    assert ret == ACL_SUCCESS and total_info == total and 0 < free <= total
    value, ret = rt.get_device_info(0, 0x7FFFFFF)
    assert value == 0 and ret != ACL_SUCCESS


def test_peer_access_codes():
    can, ret = rt.device_can_access_peer(0, 0)
    assert isinstance(can, int) and isinstance(ret, int)
    count, _ = rt.get_device_count()
    assert rt.device_enable_peer_access(count + 5, 0) != ACL_SUCCESS
    assert rt.device_disable_peer_access(count + 5) != ACL_SUCCESS


def test_synchronize_device():
    assert rt.synchronize_device() == ACL_SUCCESS
    assert rt.synchronize_device_with_timeout(100) == ACL_SUCCESS
    assert rt.synchronize_device_with_timeout(-1) == ACL_SUCCESS


def test_argument_errors():
    assert parse_fails(rt.set_device)
    assert parse_fails(rt.set_device, "0")
    assert parse_fails(rt.set_device, 0, 1)
    assert parse_fails(rt.get_device_info, 0)
    assert parse_fails(rt.destroy_stream, 1.5)
    assert parse_fails(rt.destroy_stream, None)
    assert parse_fails(rt.memcpy, 0, 0, 0, 0)
    assert parse_fails(rt.binary_get_function, 0, b"vadd")
    with pytest.raises(OverflowError):
        rt.set_device(2**40)
    with pytest.raises(TypeError):
        rt.set_device(device_id=0)
    # bool is an int; zero-argument functions ignore extra arguments
    assert rt.destroy_stream(True) == ACL_ERROR_RT_INVALID_HANDLE
    assert rt.get_device(1, 2) == (0, ACL_SUCCESS)
    s, ret = rt.create_stream("ignored")
    assert ret == ACL_SUCCESS and rt.destroy_stream(s) == ACL_SUCCESS


# ---- contexts -----------------------------------------------------------------


def test_contexts():
    old, ret = rt.get_context()
    assert ret == ACL_SUCCESS and old != 0
    ctx, ret = rt.create_context(0)
    assert ret == ACL_SUCCESS and ctx != 0
    assert rt.get_context() == (ctx, ACL_SUCCESS)  # creating makes it current
    stream, ret = rt.ctx_get_current_default_stream()
    assert ret == ACL_SUCCESS and stream != 0
    assert rt.set_context(old) == ACL_SUCCESS
    assert rt.get_context() == (old, ACL_SUCCESS)
    assert rt.set_context(BOGUS) == ACL_ERROR_RT_INVALID_HANDLE
    assert rt.set_context(0) == ACL_ERROR_INVALID_PARAM
    assert rt.destroy_context(ctx) == ACL_SUCCESS
    assert rt.destroy_context(ctx) == ACL_ERROR_RT_INVALID_HANDLE
    ctx, ret = rt.create_context(9999)
    assert ctx == 0 and ret != ACL_SUCCESS
    assert rt.set_context(old) == ACL_SUCCESS


def test_context_in_another_thread():
    ctx, _ = rt.get_context()
    seen = []

    def worker():
        seen.append(rt.set_context(ctx))
        seen.append(rt.get_context())

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert seen == [ACL_SUCCESS, (ctx, ACL_SUCCESS)]


# ---- streams and events ---------------------------------------------------------


def test_streams():
    s, ret = rt.create_stream()
    assert ret == ACL_SUCCESS and s != 0
    status, ret = rt.stream_query(s)
    assert ret == ACL_SUCCESS and status == 0
    sid, ret = rt.stream_get_id(s)
    assert ret == ACL_SUCCESS and isinstance(sid, int)
    assert rt.stream_get_id(0)[1] == ACL_SUCCESS  # 0 = the default stream
    assert rt.set_stream_failure_mode(s, 1) == ACL_SUCCESS
    assert rt.synchronize_stream(s) == ACL_SUCCESS
    assert rt.synchronize_stream(0) == ACL_SUCCESS
    assert rt.synchronize_stream_with_timeout(s, 100) == ACL_SUCCESS
    assert rt.destroy_stream(s) == ACL_SUCCESS
    assert rt.destroy_stream(s) == ACL_ERROR_RT_INVALID_HANDLE
    assert rt.synchronize_stream(BOGUS) == ACL_ERROR_RT_INVALID_HANDLE
    assert rt.stream_query(BOGUS) == (0, ACL_ERROR_RT_INVALID_HANDLE)
    assert rt.stream_get_id(BOGUS) == (0, ACL_ERROR_RT_INVALID_HANDLE)
    assert rt.destroy_stream_force(BOGUS) == ACL_ERROR_RT_INVALID_HANDLE
    s, ret = rt.create_stream_with_config(0, 0)
    assert ret == ACL_SUCCESS and s != 0
    assert rt.destroy_stream_force(s) == ACL_SUCCESS
    s, ret = rt.create_stream_with_config(-1, 0)  # -1 reaches C as 0xffffffff
    assert s == 0 and ret == ACL_ERROR_INVALID_PARAM


def test_events():
    s, _ = rt.create_stream()
    start, ret = rt.create_event_with_flag(8)  # ACL_EVENT_TIME_LINE
    assert ret == ACL_SUCCESS and start != 0
    end, _ = rt.create_event_with_flag(8)
    plain, ret = rt.create_event()
    assert ret == ACL_SUCCESS and plain != 0
    ex, ret = rt.create_event_ex_with_flag(8)
    assert ret == ACL_SUCCESS and ex != 0
    assert rt.record_event(start, s) == ACL_SUCCESS
    assert rt.record_event(plain, s) == ACL_SUCCESS
    assert rt.record_event(end, s) == ACL_SUCCESS
    assert rt.record_event(ex, 0) == ACL_SUCCESS
    assert rt.stream_wait_event(0, plain) == ACL_SUCCESS
    assert rt.synchronize_event(end) == ACL_SUCCESS
    assert rt.synchronize_event_with_timeout(plain, 100) == ACL_SUCCESS
    assert rt.synchronize_stream(0) == ACL_SUCCESS
    assert rt.query_event(end) == (0, ACL_SUCCESS)  # ACL_EVENT_STATUS_COMPLETE
    assert rt.query_event_status(end) == (1, ACL_SUCCESS)  # ACL_EVENT_RECORDED_STATUS_COMPLETE
    assert rt.query_event_wait_status(end) == (0, ACL_SUCCESS)
    ms, ret = rt.event_elapsed_time(start, end)
    assert ret == ACL_SUCCESS and isinstance(ms, float) and ms >= 0.0
    ts, ret = rt.event_get_timestamp(end)
    assert ret == ACL_SUCCESS and ts > 0
    assert rt.reset_event(plain, s) == ACL_SUCCESS
    assert rt.reset_event(ex, s) != ACL_SUCCESS  # Ex events cannot be reset
    for e in (start, end, plain, ex):
        assert rt.destroy_event(e) == ACL_SUCCESS
    assert rt.destroy_event(start) == ACL_ERROR_RT_INVALID_HANDLE
    assert rt.record_event(BOGUS, s) == ACL_ERROR_RT_INVALID_HANDLE
    assert rt.stream_wait_event(s, BOGUS) == ACL_ERROR_RT_INVALID_HANDLE
    assert rt.synchronize_event(BOGUS) == ACL_ERROR_RT_INVALID_HANDLE
    assert rt.event_elapsed_time(BOGUS, BOGUS) == (0.0, ACL_ERROR_RT_INVALID_HANDLE)
    assert rt.event_get_timestamp(BOGUS) == (0, ACL_ERROR_RT_INVALID_HANDLE)
    assert rt.query_event_status(BOGUS) == (0, ACL_ERROR_RT_INVALID_HANDLE)
    assert rt.destroy_stream(s) == ACL_SUCCESS


def test_notifies():
    s, _ = rt.create_stream()
    n, ret = rt.create_notify(0)
    assert ret == ACL_SUCCESS and n != 0
    m, _ = rt.create_notify(0)
    nid, ret = rt.get_notify_id(n)
    mid, _ = rt.get_notify_id(m)
    assert ret == ACL_SUCCESS and nid != mid
    assert rt.record_notify(n, s) == ACL_SUCCESS
    assert rt.wait_and_reset_notify(n, s, 0) == ACL_SUCCESS
    assert rt.synchronize_stream(s) == ACL_SUCCESS
    assert rt.record_notify(m, s) == ACL_SUCCESS
    assert rt.synchronize_stream(s) == ACL_SUCCESS
    assert rt.notify_batch_reset([n, m]) == ACL_SUCCESS
    assert rt.notify_batch_reset([]) == ACL_ERROR_INVALID_PARAM  # NULL list
    with pytest.raises(TypeError):
        rt.wait_and_reset_notify(n, s, -1)
    key, ret = rt.notify_get_export_key(n, 65, 0)
    assert ret == ACL_SUCCESS and re.fullmatch(r"oacl-n-[0-9a-f]{32}", key)
    assert rt.notify_set_import_pid(n, [1, 2]) == ACL_SUCCESS
    assert rt.notify_import_by_key(key, 0)[1] != ACL_SUCCESS  # our own key
    for x in (n, m):
        assert rt.destroy_notify(x) == ACL_SUCCESS
    assert rt.destroy_notify(n) == ACL_ERROR_RT_INVALID_HANDLE
    assert rt.destroy_stream(s) == ACL_SUCCESS


# ---- memory -----------------------------------------------------------------------


def test_malloc_and_free():
    for fn in (rt.malloc, rt.malloc_align32, rt.malloc_cached):
        p, ret = fn(100, 0)
        assert ret == ACL_SUCCESS and p != 0 and p % 32 == 0
        assert rt.free(p) == ACL_SUCCESS
        assert rt.free(p) != ACL_SUCCESS
    assert rt.malloc(0, 0) == (0, ACL_ERROR_INVALID_PARAM)
    assert rt.free(BOGUS) != ACL_SUCCESS
    h, ret = rt.malloc_host(100)
    assert ret == ACL_SUCCESS and h != 0
    assert rt.free(h) != ACL_SUCCESS  # not device memory
    assert rt.free_host(h) == ACL_SUCCESS
    assert rt.free_host(h) != ACL_SUCCESS
    assert rt.free_host(BOGUS) != ACL_SUCCESS


def test_malloc_with_cfg():
    p, ret = rt.malloc_with_cfg(64, 0, {})
    assert ret == ACL_SUCCESS and p != 0 and rt.free(p) == ACL_SUCCESS
    cfg = {"numAttrs": 2, "attrs": [{"attr": 2, "value": {"deviceId": 0}}, {"attr": 1, "value": {"moduleId": 7}}]}
    p, ret = rt.malloc_with_cfg(64, 0, cfg)
    assert ret == ACL_SUCCESS and p != 0 and rt.free(p) == ACL_SUCCESS
    p, ret = rt.malloc_with_cfg(64, 0, {"numAttrs": 1, "attrs": [{"attr": 0, "value": {"rsv": [1, 2, 3]}}]})
    assert ret == ACL_SUCCESS and rt.free(p) == ACL_SUCCESS
    for value in ({"vaFlag": 1}, {"rsv": [1]}):  # ACL_RT_MEM_ATTR_VA_FLAG: either key
        p, ret = rt.malloc_with_cfg(64, 0, {"numAttrs": 1, "attrs": [{"attr": 3, "value": value}]})
        assert ret == ACL_SUCCESS and rt.free(p) == ACL_SUCCESS
    count, _ = rt.get_device_count()
    bad_dev = {"numAttrs": 1, "attrs": [{"attr": 2, "value": {"deviceId": count + 5}}]}
    p, ret = rt.malloc_with_cfg(64, 0, bad_dev)
    assert p == 0 and ret != ACL_SUCCESS
    bad_attr = {"numAttrs": 1, "attrs": [{"attr": 99, "value": {"rsv": []}}]}
    assert rt.malloc_with_cfg(64, 0, bad_attr) == (0, ACL_ERROR_INVALID_PARAM)
    h, ret = rt.malloc_host_with_cfg(64, {})
    assert ret == ACL_SUCCESS and h != 0 and rt.free_host(h) == ACL_SUCCESS
    h, ret = rt.malloc_host_with_cfg(64, {"numAttrs": 1, "attrs": [{"attr": 1, "value": {"moduleId": 1}}]})
    assert ret == ACL_SUCCESS and rt.free_host(h) == ACL_SUCCESS


@pytest.mark.parametrize(
    "cfg, exc",
    [
        ({"attrs": []}, KeyError),
        ({"numAttrs": 1}, KeyError),
        ({"numAttrs": 2, "attrs": [{"attr": 2, "value": {"deviceId": 0}}]}, KeyError),
        ({"numAttrs": 1, "attrs": [{"attr": 2, "value": {"moduleId": 0}}]}, KeyError),
        ({"numAttrs": 1, "attrs": [{"value": {"deviceId": 0}}]}, KeyError),
        ({"numAttrs": 1, "attrs": ({"attr": 2, "value": {"deviceId": 0}},)}, TypeError),
        ({"numAttrs": 1, "attrs": [5]}, TypeError),
        ({"numAttrs": "1", "attrs": []}, TypeError),
        ([], TypeError),
    ],
)
def test_malloc_cfg_errors(cfg, exc):
    with pytest.raises(exc):
        rt.malloc_with_cfg(64, 0, cfg)
    with pytest.raises(exc):
        rt.malloc_host_with_cfg(64, cfg)


def test_memcpy_round_trips():
    n = 256
    data = bytes(range(256))
    src, a_src = buf(n, data)
    d, _ = rt.malloc(n, 0)
    assert rt.memcpy(d, n, a_src, n, H2D) == ACL_SUCCESS
    out, a_out = buf(n)
    assert rt.memcpy(a_out, n, d, n, D2H) == ACL_SUCCESS and out.raw == data
    out2, a_out2 = buf(n)
    assert rt.memcpy(a_out2, n, a_src, n, H2H) == ACL_SUCCESS and out2.raw == data
    out3, a_out3 = buf(n)
    assert rt.memcpy(a_out3, n, d, n, DEFAULT) == ACL_SUCCESS and out3.raw == data
    d2, _ = rt.malloc(n, 0)
    assert rt.memcpy(d2, n, d, n, D2D) == ACL_SUCCESS
    # pointer arithmetic on device pointers, as scripts do
    tail, a_tail = buf(16)
    assert rt.memcpy(a_tail, 16, d2 + 100, 16, D2H) == ACL_SUCCESS and tail.raw == data[100:116]
    # a bytes object's own storage is written in place (bytes_to_ptr's use)
    b = bytes(n)
    a_b = ctypes.cast(ctypes.c_char_p(b), ctypes.c_void_p).value
    assert rt.memcpy(a_b, n, d, n, D2H) == ACL_SUCCESS and b == data
    assert rt.free(d) == ACL_SUCCESS and rt.free(d2) == ACL_SUCCESS


def test_memcpy_errors_are_codes():
    n = 64
    src, a_src = buf(n, b"x" * n)
    d, _ = rt.malloc(n, 0)
    assert rt.memcpy(d, n, a_src, n, D2H) == ACL_ERROR_RT_PARAM_INVALID  # kind does not match
    assert rt.memcpy(d, 4, a_src, n, H2D) == ACL_ERROR_RT_PARAM_INVALID  # count > dst_max
    assert rt.memcpy(d, n, a_src, n, 42) == ACL_ERROR_INVALID_PARAM
    assert rt.memcpy(0, n, a_src, n, H2D) == ACL_ERROR_INVALID_PARAM
    assert rt.memcpy(BOGUS, 0, BOGUS, 0, H2H) == ACL_SUCCESS  # count 0: nothing to do
    assert rt.memcpy(a_src, n, d, 2 * n, D2H) == ACL_ERROR_RT_PARAM_INVALID  # past the allocation
    assert rt.free(d) == ACL_SUCCESS


@pytest.mark.parametrize("kind", [H2D, D2H, H2H, DEFAULT, 5])
def test_memcpy_bogus_host_pointer(kind):
    n = 64
    host, a_host = buf(n)
    d, _ = rt.malloc(n, 0)
    cases = {
        H2D: [(d, BOGUS)],
        5: [(d, BOGUS)],
        D2H: [(BOGUS, d)],
        H2H: [(BOGUS, a_host), (a_host, BOGUS)],
        DEFAULT: [(BOGUS, d), (d, BOGUS)],
    }[kind]
    for dst, src in cases:
        assert rt.memcpy(dst, n, src, n, kind) == ACL_ERROR_INVALID_PARAM
        msg = acl.get_recent_err_msg()
        assert "aclrtMemcpy" in msg and "not mapped" in msg and hex(BOGUS) in msg
    # a real buffer with a size that runs off the end of the mapping
    assert rt.memcpy(a_host, 1 << 40, d, 1 << 40, D2H) == ACL_ERROR_INVALID_PARAM
    assert rt.free(d) == ACL_SUCCESS


def test_memset():
    n = 64
    d, _ = rt.malloc(n, 0)
    assert rt.memset(d, n, 0x1AB, n) == ACL_SUCCESS  # low byte only
    out, a_out = buf(n)
    assert rt.memcpy(a_out, n, d, n, D2H) == ACL_SUCCESS and out.raw == b"\xab" * n
    host, a_host = buf(n)
    assert rt.memset(a_host, n, 7, n) == ACL_SUCCESS and host.raw == b"\x07" * n
    assert rt.memset(BOGUS, n, 1, n) == ACL_ERROR_INVALID_PARAM
    assert "aclrtMemset" in acl.get_recent_err_msg()
    assert rt.memset(d, 4, 1, n) == ACL_ERROR_RT_PARAM_INVALID
    assert rt.memset(0, n, 1, n) == ACL_ERROR_INVALID_PARAM
    assert rt.free(d) == ACL_SUCCESS


def test_memcpy2d():
    width, height, pitch = 8, 4, 16
    data = bytes(range(pitch * height))
    src, a_src = buf(len(data), data)
    d, _ = rt.malloc(pitch * height, 0)
    assert rt.memset(d, pitch * height, 0, pitch * height) == ACL_SUCCESS
    assert rt.memcpy2d(d, pitch, a_src, pitch, width, height, H2D) == ACL_SUCCESS
    out, a_out = buf(width * height)
    assert rt.memcpy2d(a_out, width, d, pitch, width, height, D2H) == ACL_SUCCESS
    assert out.raw == b"".join(data[r * pitch : r * pitch + width] for r in range(height))
    assert rt.memcpy2d(d, pitch, BOGUS, pitch, width, height, H2D) == ACL_ERROR_INVALID_PARAM
    assert rt.memcpy2d(BOGUS, pitch, d, pitch, width, height, D2H) == ACL_ERROR_INVALID_PARAM
    assert rt.memcpy2d(d, 4, a_src, pitch, width, height, H2D) == ACL_ERROR_RT_PARAM_INVALID  # width > dpitch
    assert rt.memcpy2d(d, pitch, a_src, pitch, width, height, H2H) == ACL_ERROR_RT_PARAM_INVALID
    assert rt.memcpy2d(d, pitch, BOGUS, pitch, 0, height, H2D) == ACL_SUCCESS  # nothing to copy
    # the host range checked is pitch * (height - 1) + width, not pitch * height
    exact, a_exact = buf(pitch * (height - 1) + width, data[: pitch * (height - 1) + width])
    assert rt.memcpy2d(d, pitch, a_exact, pitch, width, height, H2D) == ACL_SUCCESS
    assert rt.free(d) == ACL_SUCCESS


def test_async_copies():
    n = 128
    data = bytes(reversed(range(n)))
    src, a_src = buf(n, data)
    s, _ = rt.create_stream()
    d, _ = rt.malloc(n, 0)
    h, _ = rt.malloc_host(n)
    assert rt.memcpy_async(d, n, a_src, n, H2D, s) == ACL_SUCCESS
    assert rt.memcpy_async(h, n, d, n, D2H, s) == ACL_SUCCESS
    assert rt.memset_async(d, n, 0, n, s) == ACL_SUCCESS
    assert rt.memcpy2d_async(d, 16, a_src, 16, 8, 2, H2D, 0) == ACL_SUCCESS
    assert rt.synchronize_stream(s) == ACL_SUCCESS
    assert rt.synchronize_stream(0) == ACL_SUCCESS
    out, a_out = buf(n)
    assert rt.memcpy(a_out, n, h, n, H2H) == ACL_SUCCESS and out.raw == data
    assert rt.memcpy_async(d, n, BOGUS, n, H2D, s) == ACL_ERROR_INVALID_PARAM
    assert rt.memcpy_async(BOGUS, n, d, n, D2H, s) == ACL_ERROR_INVALID_PARAM
    assert rt.memset_async(BOGUS, n, 0, n, s) == ACL_ERROR_INVALID_PARAM
    assert rt.memcpy2d_async(d, 16, BOGUS, 16, 8, 2, H2D, s) == ACL_ERROR_INVALID_PARAM
    assert rt.memcpy_async(d, n, a_src, n, H2D, BOGUS) == ACL_ERROR_RT_INVALID_HANDLE
    assert rt.free(d) == ACL_SUCCESS and rt.free_host(h) == ACL_SUCCESS
    assert rt.destroy_stream(s) == ACL_SUCCESS


def test_pointer_attributes_and_cache_ops():
    d, _ = rt.malloc(64, 0)
    h, _ = rt.malloc_host(64)
    attrs, ret = rt.pointer_get_attributes(d)
    assert ret == ACL_SUCCESS
    assert list(attrs) == ["location", "page_size", "rsv"] and list(attrs["location"]) == ["id", "type"]
    assert attrs["location"] == {"id": 0, "type": ACL_MEM_LOCATION_TYPE_DEVICE}
    assert attrs["page_size"] > 0 and attrs["rsv"] == [0, 0, 0, 0]
    attrs, ret = rt.pointer_get_attributes(h)
    assert ret == ACL_SUCCESS and attrs["location"]["type"] == ACL_MEM_LOCATION_TYPE_HOST
    attrs, ret = rt.pointer_get_attributes(0)
    assert ret == ACL_ERROR_INVALID_PARAM
    assert attrs == {"location": {"id": 0, "type": 0}, "page_size": 0, "rsv": [0, 0, 0, 0]}
    assert rt.mem_flush(d, 64) == ACL_SUCCESS
    assert rt.mem_invalidate(d, 64) == ACL_SUCCESS
    assert rt.mem_flush(BOGUS, 64) != ACL_SUCCESS
    free, total, ret = rt.get_mem_info(ACL_HBM_MEM)
    assert ret == ACL_SUCCESS and 0 < free <= total
    assert rt.free(d) == ACL_SUCCESS and rt.free_host(h) == ACL_SUCCESS


# ---- kernels ------------------------------------------------------------------------

SLEEP_KERNEL = r"""
#include <time.h>
#include "openacl/kernel.h"
OPENACL_KERNEL(nap)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  (void)block_idx; (void)block_num; (void)args; (void)args_size;
  struct timespec ts = {0, 300 * 1000 * 1000};
  nanosleep(&ts, NULL);
  return 0;
}
"""


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        pytest.skip("no C compiler to build kernel binaries")
    out = tmp_path_factory.mktemp("kernels")
    (out / "nap.c").write_text(SLEEP_KERNEL)
    built = {}
    for name, source in (("vadd", ROOT / "examples/kernels/vadd_kernel.c"), ("nap", out / "nap.c")):
        so = out / f"lib{name}.so"
        subprocess.run(
            [cc, "-O2", "-fPIC", "-shared", "-fvisibility=hidden", f"-I{ROOT / 'include'}", "-o", str(so), str(source)],
            check=True,
        )
        built[name] = str(so)
    return built


def u64(v):
    b = ctypes.c_uint64(v)
    return b, ctypes.addressof(b)


def test_kernel_vadd(kernels):
    n = 1000
    nbytes = 4 * n
    x, a_x = buf(nbytes, struct.pack(f"{n}f", *range(n)))
    y, a_y = buf(nbytes, struct.pack(f"{n}f", *([2.0] * n)))
    dx, _ = rt.malloc(nbytes, 0)
    dy, _ = rt.malloc(nbytes, 0)
    dz, _ = rt.malloc(nbytes, 0)
    assert rt.memcpy(dx, nbytes, a_x, nbytes, H2D) == ACL_SUCCESS
    assert rt.memcpy(dy, nbytes, a_y, nbytes, H2D) == ACL_SUCCESS
    opts = [{"type": ACL_RT_BINARY_LOAD_OPT_MAGIC, "value": ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE}]
    binh, ret = rt.binary_load_from_file(kernels["vadd"], opts)
    assert ret == ACL_SUCCESS and binh != 0
    f, ret = rt.binary_get_function(binh, "vadd")
    assert ret == ACL_SUCCESS and f != 0
    assert rt.get_function_name(f, 64) == ("vadd", ACL_SUCCESS)
    name, ret = rt.get_function_name(f, 3)  # too short for the name
    assert name == "" and ret != ACL_SUCCESS
    with pytest.raises(ValueError):
        rt.get_function_name(f, 1024)
    args, ret = rt.kernel_args_init(f)
    assert ret == ACL_SUCCESS and args != 0
    keep = []
    for v in (dx, dy, dz):
        b, a = u64(v)
        keep.append(b)
        p, ret = rt.kernel_args_append(args, a, 8)
        assert ret == ACL_SUCCESS and p != 0
    nb, a_n = u64(n)
    n_param, ret = rt.kernel_args_append(args, a_n, 8)
    assert ret == ACL_SUCCESS
    assert rt.kernel_args_append(args, BOGUS, 8) == (0, ACL_ERROR_INVALID_PARAM)
    assert rt.kernel_args_finalize(args) == ACL_SUCCESS
    assert rt.kernel_args_finalize(args) == ACL_ERROR_RT_PARAM_INVALID
    s, _ = rt.create_stream()
    assert rt.launch_kernel_with_config(f, 4, s, [], args, 0) == ACL_SUCCESS
    assert rt.synchronize_stream(s) == ACL_SUCCESS
    z, a_z = buf(nbytes)
    assert rt.memcpy(a_z, nbytes, dz, nbytes, D2H) == ACL_SUCCESS
    assert struct.unpack(f"{n}f", z.raw) == tuple(i + 2.0 for i in range(n))

    # ParaUpdate: only the first 10 elements this time
    assert rt.memset(dz, nbytes, 0, nbytes) == ACL_SUCCESS
    ten, a_ten = u64(10)
    assert rt.kernel_args_para_update(args, n_param, a_ten, 8) == ACL_SUCCESS
    assert rt.kernel_args_para_update(args, n_param, BOGUS, 8) == ACL_ERROR_INVALID_PARAM
    cfg = [{"id": 3, "value": 1}, {"id": 8, "value": 10**6}]  # ENGINE_TYPE AIV, TIMEOUT_US
    assert rt.launch_kernel_with_config(f, 2, 0, cfg, args, 0) == ACL_SUCCESS
    assert rt.launch_kernel_with_config(f, 2, 0, [{"id": 99, "value": 0}], args, 0) == ACL_ERROR_INVALID_PARAM
    assert rt.synchronize_stream(0) == ACL_SUCCESS
    assert rt.memcpy(a_z, nbytes, dz, nbytes, D2H) == ACL_SUCCESS
    got = struct.unpack(f"{n}f", z.raw)
    assert got[9] == 11.0 and got[10] == 0.0

    # launch_kernel takes packed arguments in device memory
    packed, a_packed = buf(32, struct.pack("QQQQ", dx, dy, dz, n))
    dargs, _ = rt.malloc(32, 0)
    assert rt.memcpy(dargs, 32, a_packed, 32, H2D) == ACL_SUCCESS
    assert rt.launch_kernel(f, 3, dargs, 32, s) == ACL_SUCCESS
    assert rt.launch_kernel(f, 3, a_packed, 32, s) != ACL_SUCCESS  # host memory is refused
    assert rt.launch_kernel(f, 0, dargs, 32, s) != ACL_SUCCESS
    assert rt.synchronize_stream(s) == ACL_SUCCESS
    assert rt.memcpy(a_z, nbytes, dz, nbytes, D2H) == ACL_SUCCESS
    assert struct.unpack(f"{n}f", z.raw)[n - 1] == n + 1.0

    assert rt.binary_unload(binh) == ACL_SUCCESS
    assert rt.binary_unload(binh) == ACL_ERROR_RT_INVALID_HANDLE
    assert rt.destroy_stream(s) == ACL_SUCCESS
    for p in (dx, dy, dz, dargs):
        assert rt.free(p) == ACL_SUCCESS


def test_kernel_args_in_user_memory(kernels):
    binh, _ = rt.binary_load_from_file(kernels["vadd"], [])
    f, _ = rt.binary_get_function(binh, "vadd")
    hsize, ret = rt.kernel_args_get_handle_mem_size(f)
    assert ret == ACL_SUCCESS and hsize > 0
    msize, ret = rt.kernel_args_get_mem_size(f, 32)
    assert ret == ACL_SUCCESS and msize >= 32
    hmem = (ctypes.c_uint64 * ((hsize + 7) // 8))()
    umem, a_umem = buf(msize)
    handle = ctypes.addressof(hmem)
    assert rt.kernel_args_init_by_user_mem(f, handle, a_umem, msize) == ACL_SUCCESS
    assert rt.kernel_args_init_by_user_mem(f, BOGUS, a_umem, msize) == ACL_ERROR_INVALID_PARAM
    assert rt.kernel_args_init_by_user_mem(f, handle, BOGUS, msize) == ACL_ERROR_INVALID_PARAM
    ph, ret = rt.kernel_args_append_place_holder(handle)
    assert ret == ACL_SUCCESS and ph != 0
    pbuf, ret = rt.kernel_args_get_place_holder_buffer(handle, ph, 16)
    assert ret == ACL_SUCCESS and pbuf != 0
    assert rt.kernel_args_get_place_holder_buffer(handle, BOGUS, 16) == (0, ACL_ERROR_INVALID_PARAM)
    assert rt.kernel_args_finalize(handle) == ACL_SUCCESS
    assert rt.binary_unload(binh) == ACL_SUCCESS


def test_binaries_from_memory(kernels):
    data = pathlib.Path(kernels["vadd"]).read_bytes()
    blob, a_blob = buf(len(data), data)
    b = rt.create_binary(a_blob, len(data))
    assert b != 0
    assert rt.create_binary(BOGUS, 100) == 0
    h, ret = rt.binary_load(b)
    assert ret == ACL_SUCCESS and h != 0
    assert rt.binary_load(BOGUS) == (0, ACL_ERROR_RT_INVALID_HANDLE)
    assert rt.destroy_binary(b) == ACL_SUCCESS
    assert rt.destroy_binary(b) == ACL_ERROR_RT_INVALID_HANDLE
    h2, ret = rt.binary_load_from_data(a_blob, len(data), [])
    assert ret == ACL_SUCCESS and h2 != 0
    assert rt.binary_load_from_data(BOGUS, 100, []) == (0, ACL_ERROR_INVALID_PARAM)
    assert "aclrtBinaryLoadFromData" in acl.get_recent_err_msg()
    assert rt.binary_get_function(h2, "no_such_kernel")[0] == 0
    assert rt.binary_unload(h) == ACL_SUCCESS and rt.binary_unload(h2) == ACL_SUCCESS


def test_binary_errors(kernels):
    handle, ret = rt.binary_load_from_file("/nonexistent/libk.so", [])
    assert handle == 0 and ret != ACL_SUCCESS
    assert rt.binary_load_from_file(kernels["vadd"], [{"type": 99, "value": 0}]) == (0, ACL_ERROR_INVALID_PARAM)
    with pytest.raises(TypeError):
        rt.binary_load_from_file(kernels["vadd"], ())  # a tuple is not a list
    with pytest.raises(TypeError):
        rt.binary_load_from_file(kernels["vadd"], [3])
    with pytest.raises(KeyError):
        rt.binary_load_from_file(kernels["vadd"], [{"type": 1}])
    with pytest.raises(KeyError):
        rt.launch_kernel_with_config(0, 1, 0, [{"value": 1}], 0, 0)


def test_gil_released_while_synchronizing(kernels):
    binh, _ = rt.binary_load_from_file(kernels["nap"], [])
    f, ret = rt.binary_get_function(binh, "nap")
    assert ret == ACL_SUCCESS
    ctx, _ = rt.get_context()
    s, _ = rt.create_stream()
    ticks = [0]
    stop = threading.Event()

    def spin():
        rt.set_context(ctx)
        while not stop.is_set():
            ticks[0] += 1

    t = threading.Thread(target=spin)
    t.start()
    try:
        # the spinner's pace while the main thread sleeps without the GIL
        before = ticks[0]
        time.sleep(0.05)
        pace = (ticks[0] - before) / 0.05
        for wait in (lambda: rt.synchronize_stream(s), lambda: rt.synchronize_device()):
            assert rt.launch_kernel(f, 1, 0, 0, s) == ACL_SUCCESS
            before = ticks[0]
            start = time.monotonic()
            assert wait() == ACL_SUCCESS
            elapsed = time.monotonic() - start
            # The kernel sleeps 300 ms.  Holding the GIL through the wait
            # would leave the spinner one switch interval (5 ms) at the end,
            # a few percent of its pace.
            assert elapsed > 0.1 and ticks[0] - before > 0.25 * pace * elapsed
    finally:
        stop.set()
        t.join()
    assert rt.destroy_stream(s) == ACL_SUCCESS
    assert rt.binary_unload(binh) == ACL_SUCCESS


# ---- stubs ------------------------------------------------------------------------------

STUB_SHAPES = {
    "PYACL_RET": ACL_ERROR_API_NOT_SUPPORT,
    "PYACL_VAL_RET": (0, ACL_ERROR_API_NOT_SUPPORT),
    "PYACL_VAL2_RET": (0, 0, ACL_ERROR_API_NOT_SUPPORT),
    "PYACL_DICT_RET": ({}, ACL_ERROR_API_NOT_SUPPORT),
    "PYACL_LIST_RET": ([], ACL_ERROR_API_NOT_SUPPORT),
    "PYACL_STR_RET": ("", ACL_ERROR_API_NOT_SUPPORT),
    "PYACL_HANDLE": 0,
}
SAMPLE_ARGS = {"i": 0, "I": 0, "L": 0, "K": 0, "p": 0, "z": 0, "s": "x", "d": {}, "c": print, "l": []}


def rt_stubs():
    source = (ROOT / "python/acl/rt_stubs.c").read_text()
    return re.findall(r'\{"(\w+)", "(\w+)", "([^"]*)", (PYACL_\w+)\}', source)


def test_stub_table_is_read():
    """The table parses (it shrinks as the C library grows: test_inventory.py
    fails when a stub's C function is exported and implemented)."""
    assert len(rt_stubs()) >= 1
    assert all(c.startswith("aclrt") for _, c, _, _ in rt_stubs())


@pytest.mark.parametrize("name, c_name, fmt, shape", rt_stubs())
def test_stub(name, c_name, fmt, shape):
    fn = getattr(rt, name)
    assert fn(*[SAMPLE_ARGS[ch] for ch in fmt]) == STUB_SHAPES[shape]
    assert c_name in acl.get_recent_err_msg()
    if fmt:
        assert parse_fails(fn)
        assert parse_fails(fn, *[SAMPLE_ARGS[ch] for ch in fmt], 0)


def test_some_stub_signatures():
    assert rt.get_notify_id(0) == (0, ACL_ERROR_INVALID_PARAM)  # implemented: a NULL handle
    assert rt.ipc_mem_get_export_key(0, 0, 64, 0) == ("", ACL_ERROR_INVALID_PARAM)  # implemented: a NULL pointer
    assert parse_fails(rt.notify_batch_reset, (1, 2))  # a tuple is not a list
    assert parse_fails(rt.allocator_set_alloc_func_to_desc, 0, 5)  # not callable (implemented)
    assert parse_fails(rt.set_stream_attribute, 0, 1, [])  # value must be a dict (implemented)
