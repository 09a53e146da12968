"""test_inventory.py - every pyACL name of pyacl_inventory.tsv against the
`acl` extension (docs: the pyACL inventory, sections 2 and 3).

* structure: the sub-modules are in sys.modules, import forms work, the four
  out-of-scope sub-modules are empty, every name exists where the inventory
  puts it and nothing else is public; import has no side effects;
* arguments: a wrong count raises TypeError (zero-argument functions ignore
  extras), keywords are refused, wrong types raise TypeError (a str, float,
  numpy integer or None where a pointer is expected, a tuple where a list is
  expected, ...), bool passes as an int, numbers are range-checked or masked;
* stubs: the names whose C function openacl lacks return their documented
  shape with 200001 last and leave a message naming the C function;
* good arguments: every implemented name is called once with valid arguments
  (GOOD_CASES) and must return its documented shape with ret 0 (or the value
  stated), and the values the C side reports;
* subprocesses: the lifecycle calls (init, finalize, reset_device...), calls
  after acl.finalize and from __del__ at exit, and bogus integers as pointers
  must give error codes and never crash the interpreter.
"""
import glob
import json
import os
import re
import struct
import subprocess
import sys
import threading
import warnings

import pytest

import acl
from conftest import (ACL_ERROR_API_NOT_SUPPORT, STUB_DOC, UNDER_ASAN, check_shape, check_value, describe,
                      load_inventory, parse_returns, run_python)
from conftest import test_python as subprocess_python  # not collected as a test under this name

try:
    import numpy as np
except ImportError:  # the numpy-specific checks skip
    np = None

INVENTORY = load_inventory()
BY_NAME = {e.dotted: e for e in INVENTORY}
STUBS = [e for e in INVENTORY if e.stub]
IMPLEMENTED = [e for e in INVENTORY if not e.stub]
MODULES = ["acl", "acl.rt", "acl.mdl", "acl.util", "acl.prof", "acl.op"]
OUT_OF_SCOPE = ["media", "blas", "himpi", "fv"]
SUBMODULE_ORDER = ["rt", "mdl", "media", "op", "blas", "util", "prof", "himpi", "fv"]

POINTER_TYPES = {"p", "sz", "u64"}
NUMBER_TYPES = {"i32", "u32", "i64", "i16", "u16", "u8", "u8r"}
ANY = object()  # a ret that is not checked


def module_of(dotted_module):
    return sys.modules[dotted_module]


def func(e):
    return getattr(module_of(e.module), e.name)


def dummy(typ):
    """A value of the right type for an argument (not necessarily a valid one)."""
    if typ in POINTER_TYPES or typ in NUMBER_TYPES:
        return 0
    if typ == "f32":
        return 0.0
    if typ == "str":
        return "x"
    if typ.startswith("list"):
        return []
    if typ == "dict":
        return {}
    if typ == "callable|None":
        return None
    if typ == "callable":
        return lambda *a: None
    if typ == "obj":
        return None
    if typ == "bytes":
        return b"abcd"
    if typ.startswith("numpy"):
        return np.zeros(2, np.float32) if np is not None else None
    if typ.startswith("tuple"):
        return (2,)
    raise AssertionError("no dummy for type %r" % typ)


def dummies(e, n=None):
    args = [dummy(t) for _, t, _ in e.args]
    if n is not None:
        while len(args) < n:
            args.append(0)
        args = args[:n]
    return args


def ids(entries):
    return [e.dotted for e in entries]


# ---- structure and names ------------------------------------------------------------


def test_inventory_counts():
    """The TSV is the whole §2 inventory: 398 names, module counts of §6."""
    counts = {m: sum(1 for e in INVENTORY if e.module == m) for m in MODULES}
    assert counts == {"acl": 47, "acl.rt": 190, "acl.mdl": 86, "acl.util": 7, "acl.prof": 36, "acl.op": 32}
    assert len(BY_NAME) == 398


def test_submodules_in_sys_modules():
    for sub in SUBMODULE_ORDER:
        m = sys.modules.get("acl." + sub)
        assert m is not None, "acl.%s is not in sys.modules" % sub
        assert getattr(acl, sub) is m, "acl.%s is not the sys.modules entry" % sub
        assert type(m).__name__ == "module"


def test_submodule_order():
    """PyInit_acl adds the nine sub-modules in the vendor's order."""
    order = [k for k in vars(acl) if k in SUBMODULE_ORDER]
    assert order == SUBMODULE_ORDER


def test_import_forms():
    import acl.rt  # noqa: F401
    import acl.mdl as mdl
    from acl import rt, util

    assert rt is acl.rt and util is acl.util and mdl is acl.mdl
    assert "bytes_to_ptr" in dir(acl.util)
    assert "ptr_to_bytes" in dir(acl.util)


@pytest.mark.parametrize("sub", OUT_OF_SCOPE)
def test_out_of_scope_submodules_empty(sub):
    m = getattr(acl, sub)
    assert sys.modules["acl." + sub] is m
    public = [n for n in dir(m) if not n.startswith("_")]
    assert public == [], "acl.%s should be empty, has %s" % (sub, public)
    with pytest.raises(AttributeError):
        getattr(m, "dvpp_create_channel_desc" if sub == "media" else "anything")


def test_no_version_attribute():
    assert not hasattr(acl, "__version__")


@pytest.mark.parametrize("e", INVENTORY, ids=ids(INVENTORY))
def test_name_exists(e):
    m = module_of(e.module)
    assert hasattr(m, e.name), "%s is missing" % e.dotted
    f = getattr(m, e.name)
    assert callable(f)
    assert type(f).__name__ == "builtin_function_or_method", "%s is a %s" % (e.dotted, type(f).__name__)
    assert e.name in dir(m)


@pytest.mark.parametrize("module", MODULES)
def test_no_unknown_public_names(module):
    """Every public attribute of a sub-module is an inventory name (a
    misspelt name would leave the vendor's name missing)."""
    m = module_of(module)
    known = {e.name for e in INVENTORY if e.module == module}
    if module == "acl":
        known |= set(SUBMODULE_ORDER)
    extra = sorted(n for n in dir(m) if not n.startswith("_") and n not in known)
    assert extra == []


@pytest.mark.parametrize("e", STUBS, ids=ids(STUBS))
def test_stub_doc(e):
    assert func(e).__doc__ == STUB_DOC


@pytest.mark.parametrize("e", IMPLEMENTED, ids=ids(IMPLEMENTED))
def test_implemented_is_not_a_stub(e):
    """openacl exports the C function: the name must be implemented."""
    assert func(e).__doc__ != STUB_DOC, "%s is still a stub but openacl exports %s" % (e.dotted, e.c_name)


def source_root():
    return os.environ.get("OPENACL_SOURCE_DIR") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def c_exports():
    """The functions libascendcl.so exports, read from src/libascendcl.map at
    test time (OPENACL_SOURCE_DIR, else the tree this test is in): the C
    library grows while the binding follows."""
    path = os.path.join(source_root(), "src", "libascendcl.map")
    if not os.path.isfile(path):
        pytest.skip("no src/libascendcl.map under %s (set OPENACL_SOURCE_DIR)" % source_root())
    with open(path, encoding="utf-8") as f:
        text = re.sub(r"/\*.*?\*/", " ", f.read(), flags=re.S)
    names = set(re.findall(r"^\s*([A-Za-z_]\w*)\s*;", text, flags=re.M))
    assert "aclrtMalloc" in names and "aclInit" in names, "cannot read %s" % path
    return names


def c_pending():
    """The public functions whose C body calls acl__not_supported
    (src/acl/not_supported.h: "the one way a public function says it is not
    implemented on openacl"): exported so programs link, but every call that
    passes the NULL checks returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT until the
    issue named there implements them."""
    pending = set()
    for path in glob.glob(os.path.join(source_root(), "src", "acl", "*.c")):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for m in re.finditer(r"^[A-Za-z_][\w \*]*?\b((?:acl|openacl)\w*)\s*\(([^;{}]*?)\)\s*\{(.*?)^\}", text,
                             flags=re.M | re.S):
            if "acl__not_supported(" in m.group(3):
                pending.add(m.group(1))
    return pending


# pyACL names whose C function openacl exports but only answers with a
# not-supported code, and which c_pending() does not find (the C side says so
# another way): they may stay Python stubs.  Keep it short and say why for
# each; a C function that does real work for some arguments does not belong
# here (e.g. aclrtSetDeviceSatMode refuses SATURATION with 207000 but accepts
# INFNAN; labels return 107005 by design but have no pyACL name).
C_ONLY_NOT_SUPPORTED = {
    # none today
}


def test_stubs_only_where_c_lacks_the_function():
    """A pyACL name whose C function src/libascendcl.map exports must be
    implemented (not a stub), unless the C function itself only says "not
    supported" (c_pending(), C_ONLY_NOT_SUPPORTED)."""
    exported = c_exports()
    pending = c_pending()
    stale = sorted("%s (%s)" % (e.dotted, e.c_name) for e in INVENTORY
                   if e.c_name in exported and func(e).__doc__ == STUB_DOC and e.c_name not in pending
                   and e.dotted not in C_ONLY_NOT_SUPPORTED)
    assert stale == [], ("%d pyACL names are still stubs although the C library exports and implements their "
                         "function; wrap them (python/acl/) and drop STUB from tests/python/pyacl_inventory.tsv: %s"
                         % (len(stale), stale))
    unneeded = sorted(n for n in C_ONLY_NOT_SUPPORTED if BY_NAME[n].c_name not in exported
                      or func(BY_NAME[n]).__doc__ != STUB_DOC or BY_NAME[n].c_name in pending)
    assert unneeded == [], "C_ONLY_NOT_SUPPORTED lists names that need no entry: %s" % unneeded


def test_pending_detection_reads_the_c_source():
    """c_pending() finds what it should: not a vacuous pass."""
    c_exports()
    pending = c_pending()
    assert "aclrtMalloc" not in pending and "aclrtValueWrite" not in pending
    if not glob.glob(os.path.join(source_root(), "src", "acl", "not_supported.h")):
        assert pending == set()
    else:
        assert pending, "src/acl has acl__not_supported but no function calling it was found"


def test_tsv_stub_flag_matches_the_module():
    """The STUB flag of pyacl_inventory.tsv says what the module does."""
    wrong = sorted(e.dotted for e in INVENTORY if e.stub != (func(e).__doc__ == STUB_DOC))
    assert wrong == []


def test_import_has_no_side_effects():
    """import acl: no output, no numpy (works without it), no aclInit; the
    calls scripts make before acl.init (§4.2) answer."""
    code = r"""
import sys
sys.modules["numpy"] = None   # numpy missing: import numpy raises ImportError
import acl
assert "numpy" not in [m for m in sys.modules if sys.modules[m] is not None and m.startswith("numpy")]
mode, ret = acl.rt.get_run_mode()
print("RUNMODE", mode, ret)
print("SOC", repr(acl.get_soc_name()))
b = b"0123456789"
print("PTR", acl.util.bytes_to_ptr(b) != 0)
print("FINALIZE", acl.finalize())
"""
    p = run_python(code=code)
    assert p.returncode == 0, describe(p)
    lines = p.stdout.splitlines()
    assert lines[0] == "RUNMODE 1 0", describe(p)  # ACL_HOST before init (§4.2 item 2)
    soc = lines[1].split(" ", 1)[1]
    assert soc not in ("None", "''"), "get_soc_name() before acl.init must be a non-empty str: %s" % soc
    assert lines[2] == "PTR True"
    assert lines[3] == "FINALIZE 100037", describe(p)  # not initialised: ACL_ERROR_REPEAT_FINALIZE
    assert p.stderr == "", describe(p)


def test_import_prints_nothing():
    p = run_python(code="import acl")
    assert p.returncode == 0 and p.stdout == "" and p.stderr == "", describe(p)


# ---- argument parsing ---------------------------------------------------------------------

WITH_ARGS = [e for e in INVENTORY if e.max_args > 0]
ZERO_ARGS = [e for e in INVENTORY if e.max_args == 0]


@pytest.mark.parametrize("e", WITH_ARGS, ids=ids(WITH_ARGS))
def test_wrong_argument_count(e):
    f = func(e)
    if e.min_args > 0:
        with pytest.raises(TypeError):
            f(*dummies(e, e.min_args - 1))
    with pytest.raises(TypeError):
        f(*(dummies(e) + [0]))


@pytest.mark.parametrize("e", INVENTORY, ids=ids(INVENTORY))
def test_keywords_refused(e):
    f = func(e)
    name = e.args[0][0] if e.args else "x"
    with pytest.raises(TypeError):
        f(**{name: dummy(e.args[0][1]) if e.args else 0})


def test_parse_error_message_names_function():
    """§3.1: TypeError("<dotted name> args parse failed")."""
    bad = []
    for e in WITH_ARGS:
        try:
            func(e)(*(dummies(e) + [0]))
        except TypeError as exc:
            if str(exc) != "%s args parse failed" % e.dotted:
                bad.append("%s: %r" % (e.dotted, str(exc)))
    assert not bad, "%d messages differ, e.g. %s" % (len(bad), bad[:5])


def bad_values(typ):
    """Values of a wrong type for an argument type: each must give TypeError."""
    if typ in POINTER_TYPES:
        out = ["1", 1.0, None, [0]]
        if np is not None:
            out += [np.int64(1), np.uint64(0)]  # numpy integers are not pointers (§2 legend)
        return out
    if typ in NUMBER_TYPES:
        return ["1", 1.5, None]
    if typ == "f32":
        return ["1.0", None]
    if typ == "str":
        return [None, b"x", 1]
    if typ.startswith("list"):
        return [(), (1,), None, {}]  # a tuple where a list is expected
    if typ == "dict":
        return [[], None]
    if typ.startswith("callable"):
        return [1, "f"]
    if typ.startswith("tuple"):
        return [[2], None]
    return []


TYPED = [e for e in INVENTORY if any(bad_values(t) for _, t, _ in e.args) and e.dotted not in
         ("acl.util.bytes_to_ptr", "acl.util.numpy_to_ptr", "acl.util.numpy_contiguous_to_ptr")]


@pytest.mark.parametrize("e", TYPED, ids=ids(TYPED))
def test_wrong_argument_types(e):
    f = func(e)
    for k, (aname, typ, _) in enumerate(e.args):
        for v in bad_values(typ):
            args = dummies(e)
            args[k] = v
            try:
                r = f(*args)
            except TypeError:
                continue
            pytest.fail("%s(%s=%r) returned %r instead of raising TypeError" % (e.dotted, aname, v, r))


def test_util_value_errors():
    """bytes_to_ptr takes bytes only and numpy_to_ptr ndarrays only: ValueError (§2.4)."""
    for v in (bytearray(b"ab"), "ab", memoryview(b"ab")):
        with pytest.raises(ValueError):
            acl.util.bytes_to_ptr(v)
    if np is not None:
        for v in ([1, 2], (1, 2), b"ab"):
            with pytest.raises(ValueError):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    acl.util.numpy_to_ptr(v)
            with pytest.raises((ValueError, TypeError)):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    acl.util.numpy_contiguous_to_ptr(v)


def test_bool_and_index_accepted():
    """bool passes as a pointer and as a number; numbers take __index__
    objects (numpy integers); pointers are masked to 64 bits."""
    assert acl.get_data_buffer_addr(False) == 0
    assert acl.get_data_buffer_size(False) == 0
    assert acl.get_data_buffer_size_v2(False) == 0
    assert acl.data_type_size(False) == 4  # ACL_FLOAT
    assert acl.data_type_size(True) == 2  # ACL_FLOAT16
    buf = acl.create_data_buffer(True, True)
    assert buf != 0
    assert acl.get_data_buffer_addr(buf) == 1
    assert acl.get_data_buffer_size_v2(buf) == 1
    assert acl.destroy_data_buffer(buf) == 0
    assert acl.get_data_buffer_addr(1 << 64) == 0  # masked to NULL, no OverflowError
    assert acl.get_data_buffer_addr(-(1 << 64)) == 0
    r = acl.destroy_data_buffer(False)
    assert isinstance(r, int) and r != 0
    if np is not None:
        assert acl.data_type_size(np.int32(1)) == 2
        assert acl.data_type_size(np.int64(3)) == 4  # ACL_INT32
        assert acl.float16_to_float(np.uint16(0x3C00)) == 1.0


def test_number_ranges():
    """i32/i16/u8r are range-checked (OverflowError); u32/u16 are masked."""
    with pytest.raises(OverflowError):
        acl.data_type_size(1 << 40)
    with pytest.raises(OverflowError):
        acl.data_type_size(-(1 << 31) - 1)
    with pytest.raises(OverflowError):
        acl.mdl.set_aipp_rbuv_swap_switch(0, -1)  # u8r
    with pytest.raises(OverflowError):
        acl.mdl.set_aipp_rbuv_swap_switch(0, 256)
    with pytest.raises(OverflowError):
        acl.mdl.set_aipp_dtc_pixel_mean(0, 1 << 15, 0, 0, 0, 0)  # i16
    assert acl.float16_to_float(0x3C00 + (1 << 16)) == 1.0  # u16 masked
    assert acl.float16_to_float(-(1 << 16) + 0x3C00) == 1.0


def test_float_argument_accepts_int():
    assert acl.float_to_float16(1) == 0x3C00
    assert acl.float_to_float16(-2.0) == 0xC000
    assert acl.float16_to_float(0xC000) == -2.0


# ---- stubs ---------------------------------------------------------------------------------


def check_stub_result(e, r):
    kind, types = parse_returns(e.returns)
    if kind == "tuple":
        assert isinstance(r, tuple) and len(r) == len(types), "%s returned %r, want %s" % (e.dotted, r, e.returns)
        assert types[-1] == "ret"
        assert r[-1] == ACL_ERROR_API_NOT_SUPPORT, "%s returned %r" % (e.dotted, r)
        for i, (v, t) in enumerate(zip(r[:-1], types[:-1])):
            if v is None or v == 0:  # §3.2: zero or None outputs
                continue
            check_value(v, t, "%s result[%d]" % (e.dotted, i))
            assert not v, "%s result[%d] is %r, want an empty output" % (e.dotted, i, v)
    elif types == "ret":
        assert r == ACL_ERROR_API_NOT_SUPPORT, "%s returned %r" % (e.dotted, r)
    elif types in ("p", "int"):
        assert r == 0 and isinstance(r, int) and not isinstance(r, bool), "%s returned %r, want 0" % (e.dotted, r)
    else:  # None, str | None
        assert r is None, "%s returned %r, want None" % (e.dotted, r)


@pytest.mark.parametrize("e", STUBS, ids=ids(STUBS))
def test_stub_returns_not_supported(e):
    f = func(e)
    r = f(*dummies(e))
    check_stub_result(e, r)
    msg = acl.get_recent_err_msg()
    assert msg and e.c_name in msg, "%s: get_recent_err_msg() = %r does not name %s" % (e.dotted, msg, e.c_name)
    assert "200001" in msg or "ACL_ERROR_API_NOT_SUPPORT" in msg


ZERO_ARG_STUBS = [e for e in STUBS if e.max_args == 0]


@pytest.mark.parametrize("e", ZERO_ARG_STUBS, ids=ids(ZERO_ARG_STUBS))
def test_zero_argument_stub_ignores_extras(e):
    check_stub_result(e, func(e)(1, "two", None))


def test_stub_optional_arguments():
    """set_exception_info_callback([fn|None]) and set_dump([path]) take 0 or 1 argument."""
    for args in ((lambda info: None,), (None,), ()):
        assert acl.rt.set_exception_info_callback(*args) == 0
    with pytest.raises(TypeError):
        acl.rt.set_exception_info_callback(5)
    for args in ((), ("/nonexistent/dump.json",)):
        assert acl.mdl.set_dump(*args) in (100000, 100001, 100045)  # NULL path, no acl.init, no init_dump
    with pytest.raises(TypeError):
        acl.mdl.set_dump(None)


# ---- implemented functions with good arguments ---------------------------------------------


class Env:
    """A device, a context, a stream, memory, the small models loaded (one
    static, and the three kinds of gears), for the good-argument calls."""

    def __init__(self, small, kernel_path):
        self.small = small
        self.kernel_path = kernel_path
        self.called = set()
        self.cleanups = []
        r = acl.init("")
        assert r in (0, 100002), r
        self.owns_init = r == 0
        assert acl.rt.set_device(0) == 0
        self.ctx, r = acl.rt.create_context(0)
        assert r == 0 and self.ctx
        self.stream, r = acl.rt.create_stream()
        assert r == 0 and self.stream
        self.dev = self.malloc(256)
        self.host, r = acl.rt.malloc_host(256)
        assert r == 0 and self.host
        self.later(lambda: acl.rt.free_host(self.host))
        # the static model: y = 2x + z over [2,3]
        self.path = str(small.affine)
        with open(self.path, "rb") as f:
            self.model_bytes = f.read()
        self.model_ptr = acl.util.bytes_to_ptr(self.model_bytes)
        self.model_id, r = acl.mdl.load_from_file(self.path)
        assert r == 0 and self.model_id
        self.later(lambda: acl.mdl.unload(self.model_id))
        self.desc = self.new_desc(self.model_id)
        self.x = np.arange(6, dtype=np.float32).reshape(2, 3)
        self.z = np.full((2, 3), 0.25, np.float32)
        self.in_bufs = [self.upload(self.x), self.upload(self.z)]
        self.out_dev = self.malloc(24)
        self.in_ds = self.dataset([(p, 24) for p in self.in_bufs])
        self.out_ds = self.dataset([(self.out_dev, 24)])
        self.gears = {}

    # helpers (not recorded as calls under test)
    def later(self, fn):
        self.cleanups.append(fn)

    def malloc(self, n):
        p, r = acl.rt.malloc(n, 0)
        assert r == 0 and p
        self.later(lambda: acl.rt.free(p))
        return p

    def upload(self, a):
        b = a.tobytes()
        p = self.malloc(len(b))
        assert acl.rt.memcpy(p, len(b), acl.util.bytes_to_ptr(b), len(b), 1) == 0
        return p

    def download(self, p, n):
        assert acl.rt.memcpy(self.host, 256, p, n, 2) == 0
        return acl.util.ptr_to_bytes(self.host, n)

    def new_desc(self, model_id):
        d = acl.mdl.create_desc()
        assert d
        assert acl.mdl.get_desc(d, model_id) == 0
        self.later(lambda: acl.mdl.destroy_desc(d))
        return d

    def dataset(self, bufs):
        ds = acl.mdl.create_dataset()
        assert ds
        handles = []
        for p, n in bufs:
            b = acl.create_data_buffer(p, n)
            assert b
            handles.append(b)
            _, r = acl.mdl.add_dataset_buffer(ds, b)
            assert r == 0

        def free():
            acl.mdl.destroy_dataset(ds)
            for b in handles:
                acl.destroy_data_buffer(b)
        self.later(free)
        return ds

    def tensor_desc(self, dims=(2, 3), dtype=0, fmt=2):
        td = acl.create_tensor_desc(dtype, list(dims), fmt)
        assert td
        self.later(lambda: acl.destroy_tensor_desc(td))
        return td

    def gear(self, kind):
        """The dyn (batch, dims) or dynhw (hw) model loaded with gears:
        (model id, desc, index of ascend_mbatch_shape_data, input dataset)."""
        if kind in self.gears:
            return self.gears[kind]
        var, value, path = {
            "batch": ("OPENACL_DYNAMIC_BATCH", "1,2,4,8", self.small.dyn),
            "dims": ("OPENACL_DYNAMIC_DIMS", "1;2;8", self.small.dyn),
            "hw": ("OPENACL_DYNAMIC_HW", "4,4;8,8", self.small.dynhw),
        }[kind]
        os.environ[var] = value
        try:
            mid, r = acl.mdl.load_from_file(str(path))
        finally:
            del os.environ[var]
        assert r == 0, acl.get_recent_err_msg()
        self.later(lambda: acl.mdl.unload(mid))
        d = self.new_desc(mid)
        idx, r = acl.mdl.get_input_index_by_name(d, "ascend_mbatch_shape_data")
        assert r == 0, acl.get_recent_err_msg()
        n = acl.mdl.get_num_inputs(d)
        bufs = []
        for i in range(n):
            size = acl.mdl.get_input_size_by_index(d, i)
            bufs.append((self.malloc(size), size))
        ds = self.dataset(bufs)
        self.gears[kind] = (mid, d, idx, ds)
        return self.gears[kind]

    def call(self, dotted, *args, ret=0):
        """Calls the name under test, checks the shape and ret; returns the result."""
        e = BY_NAME[dotted]
        r = func(e)(*args)
        rv = check_shape(e, r)
        if ret is not ANY and rv is not None:
            assert rv == ret, "%s%r returned %r, want ret %s; %s" % (dotted, args, r, ret, acl.get_recent_err_msg())
        self.called.add(dotted)
        return r

    def close(self):
        acl.rt.synchronize_stream(self.stream)
        for fn in reversed(self.cleanups):
            fn()
        acl.rt.set_context(self.ctx)
        assert acl.rt.destroy_stream(self.stream) == 0
        assert acl.rt.destroy_context(self.ctx) == 0
        assert acl.rt.reset_device(0) == 0
        if self.owns_init:
            assert acl.finalize() == 0


@pytest.fixture(scope="module")
def env(small_models, request):
    if np is None:
        pytest.skip("numpy is needed")
    saved = os.environ.get("OPENACL_DEVICE_COUNT")
    if saved is None:
        os.environ["OPENACL_DEVICE_COUNT"] = "2"  # a peer for the peer-access calls (read by acl.init)
    try:
        kernel = request.getfixturevalue("vadd_kernel")
    except pytest.skip.Exception:
        kernel = None
    try:
        e = Env(small_models, kernel)
        yield e
        e.close()
    finally:
        if saved is None:
            os.environ.pop("OPENACL_DEVICE_COUNT", None)


def need_kernel(e):
    if e.kernel_path is None:
        pytest.skip("no kernel binary (no C compiler)")
    return str(e.kernel_path)


class ReportThread:
    """A Python thread that sets the context and loops on process_report
    until stopped (§3.6 step 1); tid is its pthread_t."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.stop = False
        self.ready = threading.Event()
        self.t = threading.Thread(target=self.run)
        self.t.start()
        self.ready.wait(10)
        self.tid = self.t.ident

    def run(self):
        acl.rt.set_context(self.ctx)
        self.ready.set()
        while not self.stop:
            acl.rt.process_report(20)

    def close(self):
        self.stop = True
        self.t.join(10)


# One function per implemented name: each calls it with valid arguments
# through e.call (which checks the shape and ret) and checks the values.
GOOD = {}


def good(*names):
    def deco(fn):
        for n in names:
            assert n in BY_NAME, n
            GOOD[n] = fn
        return fn
    return deco


# -- acl: versions, errors, logging, float16, buffers

@good("acl.get_version")
def _(e):
    major, minor, patch, _r = e.call("acl.get_version")
    assert major >= 1


@good("acl.get_soc_name")
def _(e):
    assert e.call("acl.get_soc_name")


@good("acl.get_recent_err_msg")
def _(e):
    acl.destroy_data_buffer(0)  # a failure to report
    msg = e.call("acl.get_recent_err_msg")
    assert msg and "aclDestroyDataBuffer" in msg


@good("acl.get_version_str")
def _(e):
    v, _r = e.call("acl.get_version_str", "cann")
    assert v


@good("acl.get_cann_version")
def _(e):
    info, _r = e.call("acl.get_cann_version", 0)
    assert list(info) == ["version", "major_version", "minor_version", "release_version", "patch_version", "reserved"]
    assert all(isinstance(v, str) for v in info.values())


@good("acl.get_cann_attribute_list")
def _(e):
    attrs, num, _r = e.call("acl.get_cann_attribute_list")
    assert len(attrs) == num and all(isinstance(a, int) for a in attrs)


@good("acl.get_cann_attribute")
def _(e):
    e.call("acl.get_cann_attribute", 0)


@good("acl.get_device_capability")
def _(e):
    e.call("acl.get_device_capability", 0, 0)


@good("acl.app_log")
def _(e):
    assert e.call("acl.app_log", 1, "pyacl test %s %n %d: logged verbatim") is None


@good("acl.float16_to_float", "acl.float_to_float16")
def _(e):
    assert e.call("acl.float16_to_float", 0x3C00) == 1.0
    assert e.call("acl.float16_to_float", 0x3555) == pytest.approx(0.33325195)
    assert e.call("acl.float_to_float16", 1.0) == 0x3C00
    assert e.call("acl.float_to_float16", 65504.0) == 0x7BFF


@good("acl.data_type_size")
def _(e):
    assert [e.call("acl.data_type_size", t) for t in (0, 1, 2, 3, 9, 12)] == [4, 2, 1, 4, 8, 1]


@good("acl.create_data_buffer", "acl.destroy_data_buffer", "acl.update_data_buffer", "acl.get_data_buffer_addr",
      "acl.get_data_buffer_size", "acl.get_data_buffer_size_v2")
def _(e):
    b = e.call("acl.create_data_buffer", e.dev, 64)
    assert b
    assert e.call("acl.get_data_buffer_addr", b) == e.dev
    assert e.call("acl.get_data_buffer_size", b) == 64
    assert e.call("acl.get_data_buffer_size_v2", b) == 64
    e.call("acl.update_data_buffer", b, e.dev + 16, 32)
    assert acl.get_data_buffer_addr(b) == e.dev + 16 and acl.get_data_buffer_size_v2(b) == 32
    e.call("acl.destroy_data_buffer", b)
    empty = acl.create_data_buffer(0, 0)  # (NULL, 0) is allowed
    assert empty and acl.destroy_data_buffer(empty) == 0


# -- acl: tensor descriptors

@good("acl.create_tensor_desc", "acl.destroy_tensor_desc", "acl.get_tensor_desc_type", "acl.get_tensor_desc_format",
      "acl.get_tensor_desc_size", "acl.get_tensor_desc_element_count", "acl.get_tensor_desc_num_dims",
      "acl.get_tensor_desc_dim", "acl.get_tensor_desc_dim_v2")
def _(e):
    td = e.call("acl.create_tensor_desc", 0, [2, 3, 4], 2)
    assert td
    assert e.call("acl.get_tensor_desc_type", td) == 0
    assert e.call("acl.get_tensor_desc_format", td) == 2
    assert e.call("acl.get_tensor_desc_size", td) == 96
    assert e.call("acl.get_tensor_desc_element_count", td) == 24
    assert e.call("acl.get_tensor_desc_num_dims", td) == 3
    assert e.call("acl.get_tensor_desc_dim", td, 2) == 4
    assert e.call("acl.get_tensor_desc_dim_v2", td, 1) == (3, 0)
    assert acl.get_tensor_desc_dim(td, 7) == -1  # int64, -1 on error
    assert e.call("acl.destroy_tensor_desc", td) is None
    scalar = acl.create_tensor_desc(1, [], 2)  # [] = 0 dims
    assert scalar and acl.get_tensor_desc_num_dims(scalar) == 0
    acl.destroy_tensor_desc(scalar)
    neg = acl.create_tensor_desc(0, [-1, 3], 2)  # dims are signed
    assert neg and acl.get_tensor_desc_dim_v2(neg, 0) == (-1, 0)
    acl.destroy_tensor_desc(neg)
    with pytest.raises(TypeError):
        acl.create_tensor_desc(0, (2, 3), 2)


@good("acl.get_tensor_desc_name", "acl.set_tensor_desc_name")
def _(e):
    td = e.tensor_desc()
    e.call("acl.get_tensor_desc_name", td)
    assert e.call("acl.set_tensor_desc_name", td, "input_0") is None
    assert acl.get_tensor_desc_name(td) == "input_0"


@good("acl.set_tensor_shape_range", "acl.get_tensor_desc_dim_range")
def _(e):
    td = e.tensor_desc((-1, 3))
    e.call("acl.set_tensor_shape_range", td, [[1, 8], [3, 3]])
    rng, _r = e.call("acl.get_tensor_desc_dim_range", td, 0, 2)
    assert rng == [1, 8]
    assert acl.get_tensor_desc_dim_range(td, 0, 4097) == (None, 100000)  # refused without C
    with pytest.raises(TypeError):
        acl.set_tensor_shape_range(td, [(1, 8), (3, 3)])  # inner items must be lists


@good("acl.set_tensor_storage_format", "acl.set_tensor_storage_shape", "acl.set_tensor_format", "acl.set_tensor_shape",
      "acl.set_tensor_origin_format", "acl.set_tensor_origin_shape", "acl.set_tensor_value_range",
      "acl.set_tensor_dynamic_input", "acl.set_tensor_const", "acl.set_tensor_place_ment")
def _(e):
    td = e.tensor_desc()
    e.call("acl.set_tensor_storage_format", td, 2)
    e.call("acl.set_tensor_storage_shape", td, [2, 3])
    e.call("acl.set_tensor_format", td, 0)
    e.call("acl.set_tensor_shape", td, [3, 2])  # the storage shape (openacl's C, as the vendor's)
    e.call("acl.set_tensor_origin_format", td, 2)
    e.call("acl.set_tensor_origin_shape", td, [3, 2])
    assert acl.get_tensor_desc_dim(td, 0) == 3
    e.call("acl.set_tensor_value_range", td, [[0, 1], [0, 1]])
    e.call("acl.set_tensor_dynamic_input", td, "x")
    e.call("acl.set_tensor_const", td, e.host, 24)
    e.call("acl.set_tensor_place_ment", td, 1)


# -- acl.rt: devices and contexts

@good("acl.rt.set_device")
def _(e):
    e.call("acl.rt.set_device", 0)
    assert acl.rt.reset_device(0) == 0  # balance the reference
    acl.rt.set_context(e.ctx)


@good("acl.rt.get_device", "acl.rt.get_device_count", "acl.rt.get_run_mode")
def _(e):
    assert e.call("acl.rt.get_device") == (0, 0)
    n, _r = e.call("acl.rt.get_device_count")
    assert n >= 1
    assert e.call("acl.rt.get_run_mode") == (1, 0)


@good("acl.rt.synchronize_device", "acl.rt.synchronize_device_with_timeout")
def _(e):
    e.call("acl.rt.synchronize_device")
    e.call("acl.rt.synchronize_device_with_timeout", 5000)
    e.call("acl.rt.synchronize_device_with_timeout", -1)


@good("acl.rt.get_device_info")
def _(e):
    v, _r = e.call("acl.rt.get_device_info", 0, 101)  # ACL_DEV_ATTR_AICORE_CORE_NUM
    assert v >= 1
    assert acl.rt.get_device_info(1 << 32, 101) == (v, 0)  # u32 masked


@good("acl.rt.query_device_status", "acl.rt.device_get_stream_priority_range", "acl.rt.get_primary_ctx_state")
def _(e):
    e.call("acl.rt.query_device_status", 0)
    e.call("acl.rt.device_get_stream_priority_range")
    e.call("acl.rt.get_primary_ctx_state", 0)


@good("acl.rt.device_can_access_peer", "acl.rt.device_enable_peer_access", "acl.rt.device_disable_peer_access")
def _(e):
    n, _ = acl.rt.get_device_count()
    if n < 2:
        e.call("acl.rt.device_can_access_peer", 0, 1, ret=ANY)
        e.call("acl.rt.device_enable_peer_access", 1, 0, ret=ANY)
        e.call("acl.rt.device_disable_peer_access", 1, ret=ANY)
        return
    can, _r = e.call("acl.rt.device_can_access_peer", 0, 1)
    assert can == 1
    e.call("acl.rt.device_enable_peer_access", 1, 0)
    e.call("acl.rt.device_disable_peer_access", 1)


@good("acl.rt.create_context", "acl.rt.destroy_context", "acl.rt.set_context", "acl.rt.get_context",
      "acl.rt.ctx_get_current_default_stream")
def _(e):
    c, _r = e.call("acl.rt.create_context", 0)
    assert c and c != e.ctx
    assert e.call("acl.rt.get_context") == (c, 0)  # create_context makes it current
    e.call("acl.rt.set_context", e.ctx)
    assert acl.rt.get_context() == (e.ctx, 0)
    e.call("acl.rt.destroy_context", c)
    s, _r = e.call("acl.rt.ctx_get_current_default_stream")
    assert s


# -- acl.rt: streams and events

@good("acl.rt.create_stream", "acl.rt.destroy_stream", "acl.rt.create_stream_with_config",
      "acl.rt.destroy_stream_force",
      "acl.rt.stream_query", "acl.rt.stream_get_id", "acl.rt.set_stream_failure_mode", "acl.rt.synchronize_stream",
      "acl.rt.synchronize_stream_with_timeout")
def _(e):
    s, _r = e.call("acl.rt.create_stream")
    assert s
    e.call("acl.rt.stream_query", s)
    e.call("acl.rt.stream_get_id", s)
    e.call("acl.rt.set_stream_failure_mode", s, 1)
    e.call("acl.rt.synchronize_stream", s)
    e.call("acl.rt.synchronize_stream_with_timeout", s, 5000)
    e.call("acl.rt.destroy_stream", s)
    s2, _r = e.call("acl.rt.create_stream_with_config", 0, 0)
    assert s2
    e.call("acl.rt.destroy_stream_force", s2)
    e.call("acl.rt.synchronize_stream", 0)  # stream 0: the default stream


@good("acl.rt.create_event", "acl.rt.create_event_with_flag", "acl.rt.create_event_ex_with_flag",
      "acl.rt.destroy_event",
      "acl.rt.record_event", "acl.rt.reset_event", "acl.rt.query_event", "acl.rt.query_event_status",
      "acl.rt.query_event_wait_status", "acl.rt.synchronize_event", "acl.rt.synchronize_event_with_timeout",
      "acl.rt.event_elapsed_time", "acl.rt.event_get_timestamp", "acl.rt.stream_wait_event")
def _(e):
    a, _r = e.call("acl.rt.create_event")
    b, _r = e.call("acl.rt.create_event_with_flag", 8)  # ACL_EVENT_TIME_LINE: for elapsed time
    c, _r = e.call("acl.rt.create_event_ex_with_flag", 1)  # ACL_EVENT_SYNC
    assert a and b and c
    e.call("acl.rt.record_event", a, e.stream)
    e.call("acl.rt.record_event", b, e.stream)
    e.call("acl.rt.stream_wait_event", e.stream, b)
    e.call("acl.rt.synchronize_event", b)
    e.call("acl.rt.synchronize_event_with_timeout", a, 5000)
    e.call("acl.rt.query_event", a)
    assert e.call("acl.rt.query_event_status", a)[1] == 0
    e.call("acl.rt.query_event_wait_status", b)
    ms, _r = e.call("acl.rt.event_elapsed_time", a, b)
    assert ms >= 0
    e.call("acl.rt.event_get_timestamp", a)
    e.call("acl.rt.reset_event", a, e.stream)
    acl.rt.synchronize_stream(e.stream)
    for ev in (a, b, c):
        e.call("acl.rt.destroy_event", ev)


@good("acl.rt.create_notify", "acl.rt.destroy_notify", "acl.rt.record_notify", "acl.rt.wait_and_reset_notify",
      "acl.rt.get_notify_id", "acl.rt.notify_batch_reset", "acl.rt.notify_get_export_key",
      "acl.rt.notify_set_import_pid", "acl.rt.notify_import_by_key")
def _(e):
    n, _r = e.call("acl.rt.create_notify", 0)
    assert n
    e.call("acl.rt.record_notify", n, e.stream)
    e.call("acl.rt.wait_and_reset_notify", n, e.stream, 5)
    acl.rt.synchronize_stream(e.stream)
    assert e.call("acl.rt.get_notify_id", n)[1] == 0
    e.call("acl.rt.notify_batch_reset", [n])
    key, _r = e.call("acl.rt.notify_get_export_key", n, 65, 0)
    e.call("acl.rt.notify_set_import_pid", n, [os.getpid()])
    # another process imports; here the key is our own
    e.call("acl.rt.notify_import_by_key", key, 0, ret=107000)
    e.call("acl.rt.destroy_notify", n)


# -- acl.rt: reports and callbacks (§3.6)

@good("acl.rt.subscribe_report", "acl.rt.unsubscribe_report", "acl.rt.launch_callback")
def _(e):
    s, r = acl.rt.create_stream()
    t = ReportThread(e.ctx)
    try:
        e.call("acl.rt.subscribe_report", t.tid, s)
        seen = []
        data = ["user", "data"]
        e.call("acl.rt.launch_callback", lambda d: seen.append((d, threading.get_ident())), data, 1, s)
        assert acl.rt.synchronize_stream(s) == 0
        assert len(seen) == 1 and seen[0][0] is data and seen[0][1] == t.tid
        e.call("acl.rt.unsubscribe_report", t.tid, s)
    finally:
        t.close()
        acl.rt.destroy_stream(s)


@good("acl.rt.process_report")
def _(e):
    """The main thread subscribes itself and runs its own callback."""
    s, r = acl.rt.create_stream()
    me = threading.get_ident()
    assert acl.rt.subscribe_report(me, s) == 0
    seen = []
    assert acl.rt.launch_callback(lambda d: seen.append(d), 7, 0, s) == 0
    e.call("acl.rt.process_report", 5000)
    assert seen == [7]
    assert acl.rt.synchronize_stream(s) == 0
    assert acl.rt.unsubscribe_report(me, s) == 0
    assert acl.rt.process_report(10) != 0  # not subscribed any more
    acl.rt.destroy_stream(s)


@good("acl.rt.peek_at_last_error", "acl.rt.get_last_error")
def _(e):
    acl.rt.free(0)  # a failure
    e.call("acl.rt.peek_at_last_error", 0, ret=ANY)
    e.call("acl.rt.get_last_error", 0, ret=ANY)


# -- acl.rt: device controls (rt_device_ctl.c)

@good("acl.rt.set_device_sat_mode", "acl.rt.get_device_sat_mode", "acl.rt.get_device_capability",
      "acl.rt.get_device_utilization_rate", "acl.rt.get_devices_topo", "acl.rt.device_get_uuid",
      "acl.rt.device_peer_access_status", "acl.rt.device_get_bare_tgid")
def _(e):
    assert e.call("acl.rt.get_device_sat_mode") == (1, 0)  # ACL_RT_OVERFLOW_MODE_INFNAN
    e.call("acl.rt.set_device_sat_mode", 1)
    assert acl.rt.set_device_sat_mode(0) == 207000  # SATURATION: the simulated device computes IEEE floats
    value, _r = e.call("acl.rt.get_device_capability", 0, 1)
    assert value in (0, 1)
    info, _r = e.call("acl.rt.get_device_utilization_rate", 0)
    assert list(info) == ["cube_utilization", "vector_utilization", "aicpu_utilization", "memory_utilization",
                          "utilization_extend"]
    bad, r = acl.rt.get_device_utilization_rate(99)
    assert r != 0 and list(bad) == list(info) and set(bad.values()) == {0}  # a zeroed struct
    topo, _r = e.call("acl.rt.get_devices_topo", 0, 1)
    assert topo >= 0
    uuid, _r = e.call("acl.rt.device_get_uuid", 0)
    assert list(uuid) == ["bytes"] and len(uuid["bytes"]) == 16 and all(0 <= b < 256 for b in uuid["bytes"])
    assert any(uuid["bytes"])
    assert acl.rt.device_get_uuid(1)[0] != uuid
    status, _r = e.call("acl.rt.device_peer_access_status", 0, 1)
    assert status in (0, 1)
    pid, _r = e.call("acl.rt.device_get_bare_tgid")
    assert pid == os.getpid()


@good("acl.rt.get_device_res_limit", "acl.rt.set_device_res_limit", "acl.rt.reset_device_res_limit",
      "acl.rt.device_task_abort")
def _(e):
    cube, _r = e.call("acl.rt.get_device_res_limit", 0, 0)
    assert cube >= 1
    e.call("acl.rt.set_device_res_limit", 0, 0, 1)
    assert acl.rt.get_device_res_limit(0, 0) == (1, 0)
    e.call("acl.rt.reset_device_res_limit", 0)
    assert acl.rt.get_device_res_limit(0, 0) == (cube, 0)
    assert acl.rt.get_device_res_limit(0, 7)[0] == 0  # not a type: zero and an error
    acl.rt.synchronize_device()
    e.call("acl.rt.device_task_abort", 0, 1000, ret=ANY)


@good("acl.rt.get_logic_dev_id_by_user_dev_id", "acl.rt.get_user_dev_id_by_logic_dev_id",
      "acl.rt.get_logic_dev_id_by_phy_dev_id", "acl.rt.get_phy_dev_id_by_logic_dev_id")
def _(e):
    assert e.call("acl.rt.get_logic_dev_id_by_user_dev_id", 0)[0] >= 0
    assert e.call("acl.rt.get_user_dev_id_by_logic_dev_id", 0)[0] == 0
    phy, _r = e.call("acl.rt.get_phy_dev_id_by_logic_dev_id", 1)
    assert e.call("acl.rt.get_logic_dev_id_by_phy_dev_id", phy) == (1, 0)
    assert acl.rt.get_phy_dev_id_by_logic_dev_id(99)[0] == 0


@good("acl.rt.get_overflow_status", "acl.rt.reset_overflow_status")
def _(e):
    e.call("acl.rt.reset_overflow_status", e.stream)
    e.call("acl.rt.get_overflow_status", e.dev, 64, e.stream)
    assert acl.rt.synchronize_stream(e.stream) == 0
    assert set(e.download(e.dev, 64)) == {0}  # no overflow since the reset


# -- acl.rt: stream controls, value tasks (rt_stream_ctl.c)

@good("acl.rt.stream_abort", "acl.rt.get_stream_available_num", "acl.rt.get_event_avail_num",
      "acl.rt.get_event_id", "acl.rt.get_thread_last_task_id")
def _(e):
    n, _r = e.call("acl.rt.get_stream_available_num")
    s, r = acl.rt.create_stream()
    assert acl.rt.get_stream_available_num() == (n - 1, 0)
    assert acl.rt.memset_async(e.dev, 64, 1, 64, s) == 0
    task, _r = e.call("acl.rt.get_thread_last_task_id")
    assert task >= 1
    e.call("acl.rt.stream_abort", s)
    assert acl.rt.destroy_stream(s) == 0
    ev_n, _r = e.call("acl.rt.get_event_avail_num")
    ev, r = acl.rt.create_event()
    assert acl.rt.get_event_avail_num() == (ev_n - 1, 0)
    eid, _r = e.call("acl.rt.get_event_id", ev)
    ev2, r = acl.rt.create_event()
    assert acl.rt.get_event_id(ev2)[0] != eid
    assert acl.rt.get_event_id(0) == (0, 100000)
    acl.rt.destroy_event(ev)
    acl.rt.destroy_event(ev2)


@good("acl.rt.set_stream_overflow_switch", "acl.rt.get_stream_overflow_switch", "acl.rt.set_stream_attribute",
      "acl.rt.get_stream_attribute")
def _(e):
    assert e.call("acl.rt.get_stream_overflow_switch", e.stream) == (0, 0)
    e.call("acl.rt.set_stream_overflow_switch", e.stream, 1)
    assert acl.rt.get_stream_attribute(e.stream, 2) == ({"overflowSwitch": 1}, 0)
    e.call("acl.rt.set_stream_attribute", e.stream, 2, {"overflowSwitch": 0})
    assert acl.rt.get_stream_overflow_switch(e.stream) == (0, 0)
    assert e.call("acl.rt.get_stream_attribute", e.stream, 1) == ({"failureMode": 0}, 0)
    e.call("acl.rt.set_stream_attribute", e.stream, 3, {"userCustomTag": 0xABCD})
    assert acl.rt.get_stream_attribute(e.stream, 3) == ({"userCustomTag": 0xABCD}, 0)
    e.call("acl.rt.set_stream_attribute", e.stream, 5, {"reserved": [3]})  # PRIORITY: the union's first word
    assert acl.rt.get_stream_attribute(e.stream, 5) == ({"reserved": [3, 0, 0, 0]}, 0)
    e.call("acl.rt.set_stream_attribute", e.stream, 3, {})  # a missing key is 0
    assert acl.rt.get_stream_attribute(e.stream, 3) == ({"userCustomTag": 0}, 0)
    with pytest.raises(TypeError):
        acl.rt.set_stream_attribute(e.stream, 3, {"userCustomTag": "x"})
    assert acl.rt.set_stream_attribute(e.stream, 5, {"reserved": [8]}) != 0  # priorities are 0..7
    e.call("acl.rt.set_stream_attribute", e.stream, 5, {"reserved": [0]})


@good("acl.rt.get_stream_res_limit", "acl.rt.set_stream_res_limit", "acl.rt.reset_stream_res_limit",
      "acl.rt.use_stream_res_in_current_thread", "acl.rt.unuse_stream_res_in_current_thread",
      "acl.rt.get_res_in_current_thread")
def _(e):
    dev_limit, _r = acl.rt.get_device_res_limit(0, 1)
    e.call("acl.rt.set_stream_res_limit", e.stream, 1, 1)
    assert e.call("acl.rt.get_stream_res_limit", e.stream, 1) == (1, 0)
    e.call("acl.rt.use_stream_res_in_current_thread", e.stream)
    assert e.call("acl.rt.get_res_in_current_thread", 1) == (1, 0)
    e.call("acl.rt.unuse_stream_res_in_current_thread", e.stream)
    assert acl.rt.get_res_in_current_thread(1) == (dev_limit, 0)
    e.call("acl.rt.reset_stream_res_limit", e.stream)
    assert acl.rt.get_stream_res_limit(e.stream, 1)[1] in (0, 100000)


@good("acl.rt.value_write", "acl.rt.value_wait")
def _(e):
    word = e.dev + 128  # 8-byte aligned
    e.call("acl.rt.value_write", word, 0x1122334455667788, 0, e.stream)
    e.call("acl.rt.value_wait", word, 0x1122334455667788, 1, e.stream)  # EQ: already true
    assert acl.rt.synchronize_stream(e.stream) == 0
    assert struct.unpack("<Q", e.download(word, 8))[0] == 0x1122334455667788
    assert acl.rt.value_write(word + 4, 1, 0, e.stream) != 0  # not aligned
    assert acl.rt.value_write(word, 1, 1, e.stream) != 0  # flag reserved


# -- acl.rt: host registration, copy descriptors, reductions (rt_host_mem.c)

@good("acl.rt.host_register", "acl.rt.host_register_v2", "acl.rt.host_unregister",
      "acl.rt.host_get_device_pointer")
def _(e):
    import mmap
    import ctypes
    m = mmap.mmap(-1, 3 * 4096)
    buf = (ctypes.c_char * (3 * 4096)).from_buffer(m)
    base = ctypes.addressof(buf)
    try:
        dev, _r = e.call("acl.rt.host_register", base, 4096, 0)
        assert dev
        assert e.call("acl.rt.host_get_device_pointer", base, 0) == (dev, 0)
        assert acl.rt.host_get_device_pointer(base + 16, 0) == (dev + 16, 0)
        e.call("acl.rt.host_unregister", base)
        assert acl.rt.host_get_device_pointer(base, 0)[0] == 0
        e.call("acl.rt.host_register_v2", base + 4096, 4096, 0x2)  # ACL_HOST_REG_MAPPED
        assert acl.rt.host_get_device_pointer(base + 4096, 0)[1] == 0
        assert acl.rt.host_unregister(base + 4096) == 0
        assert acl.rt.host_register(base + 1, 4096, 0)[1] != 0  # not page aligned
        assert acl.rt.host_register(8192, 4096, 0) == (0, 100000)  # not mapped: refused before C
    finally:
        del buf
        m.close()


@good("acl.rt.get_memcpy_desc_size", "acl.rt.set_memcpy_desc", "acl.rt.memcpy_async_with_desc",
      "acl.rt.memcpy_async_with_condition")
def _(e):
    size, _r = e.call("acl.rt.get_memcpy_desc_size", 3)
    assert size == 64
    src = e.upload(np.arange(8, dtype=np.int32))
    dst = e.malloc(32)
    desc = e.malloc(size)
    assert e.call("acl.rt.set_memcpy_desc", desc, 3, src, dst, 32, 0) == (desc, 0)
    e.call("acl.rt.memcpy_async_with_desc", desc, 3, e.stream)
    assert acl.rt.synchronize_stream(e.stream) == 0
    assert np.frombuffer(e.download(dst, 32), np.int32).tolist() == list(range(8))
    e.call("acl.rt.memcpy_async_with_condition", dst, 32, src + 16, 16, 3, e.stream)
    assert acl.rt.synchronize_stream(e.stream) == 0
    assert np.frombuffer(e.download(dst, 32), np.int32).tolist() == [4, 5, 6, 7, 4, 5, 6, 7]


@good("acl.rt.cmo_async", "acl.rt.reduce_async")
def _(e):
    e.call("acl.rt.cmo_async", e.dev, 64, 0, e.stream)  # PREFETCH
    assert acl.rt.cmo_async(e.dev, 64, 3, e.stream) == 207000  # FLUSH: not supported
    a = e.upload(np.array([1, 5, -2, 7], np.int32))
    b = e.upload(np.array([3, 1, 4, 1], np.int32))
    e.call("acl.rt.reduce_async", a, b, 16, 10, 3, e.stream, 0)  # SUM, ACL_INT32
    assert acl.rt.synchronize_stream(e.stream) == 0
    assert np.frombuffer(e.download(a, 16), np.int32).tolist() == [4, 6, 2, 8]
    assert acl.rt.reduce_async(a, b, 16, 10, 3, e.stream, 8) == 100000  # reserve must be 0


# -- acl.rt: allocator descriptors (rt_allocator.c)

@good("acl.rt.allocator_create_desc", "acl.rt.allocator_destroy_desc", "acl.rt.allocator_set_obj_to_desc",
      "acl.rt.allocator_set_alloc_func_to_desc", "acl.rt.allocator_set_free_func_to_desc",
      "acl.rt.allocator_set_alloc_advise_func_to_desc", "acl.rt.allocator_set_get_addr_from_block_func_to_desc",
      "acl.rt.allocator_register", "acl.rt.allocator_unregister")
def _(e):
    desc = e.call("acl.rt.allocator_create_desc")
    assert desc
    s, r = acl.rt.create_stream()
    assert acl.rt.allocator_register(s, desc) == 100000  # object and functions missing
    e.call("acl.rt.allocator_set_obj_to_desc", desc, 0x1234)
    e.call("acl.rt.allocator_set_alloc_func_to_desc", desc, lambda obj, size: 0)
    e.call("acl.rt.allocator_set_free_func_to_desc", desc, lambda obj, block: None)
    e.call("acl.rt.allocator_set_alloc_advise_func_to_desc", desc, lambda obj, size, addr: 0)
    e.call("acl.rt.allocator_set_get_addr_from_block_func_to_desc", desc, lambda block: block)
    e.call("acl.rt.allocator_register", s, desc)
    e.call("acl.rt.allocator_unregister", s)
    assert acl.rt.allocator_register(0, desc) == 100000  # not the default stream
    e.call("acl.rt.allocator_destroy_desc", desc)
    assert acl.rt.allocator_destroy_desc(desc) != 0
    acl.rt.destroy_stream(s)


# -- acl.rt: exception info (rt_callback.c)

EXC_GETTERS = ["acl.rt.get_%s_from_exception_info" % k
               for k in ("error_code", "task_id", "stream_id", "thread_id", "device_id")]


@good("acl.rt.set_exception_info_callback", *EXC_GETTERS)
def _(e):
    """A kernel that fails (vadd given fewer argument bytes than it reads)
    fires the callback on the executor thread, with an info the getters read
    while it runs."""
    path = need_kernel(e)
    h, r = acl.rt.binary_load_from_file(path, [])
    f, r = acl.rt.binary_get_function(h, "vadd")
    s, r = acl.rt.create_stream()
    ad = e.upload(np.zeros(8, np.uint8))
    seen = []

    def on_exception(info):
        seen.append((info, threading.get_ident(), [e.call(g, info) for g in EXC_GETTERS]))
    try:
        e.call("acl.rt.set_exception_info_callback", on_exception)
        assert acl.rt.launch_kernel(f, 1, ad, 8, s) == 0
        assert acl.rt.synchronize_stream(s) != 0
        assert len(seen) == 1, seen
        info, tid, (code, task, stream_id, thread, device) = seen[0]
        assert info and code not in (0, 0xFFFFFFFF) and device == 0
        assert task != 0xFFFFFFFF and stream_id != 0xFFFFFFFF and thread not in (0, 0xFFFFFFFF)
        assert acl.rt.get_error_code_from_exception_info(info) == 0xFFFFFFFF  # dead once the callback returned
        e.call("acl.rt.set_exception_info_callback")  # no argument: unregister
        assert acl.rt.launch_kernel(f, 1, ad, 8, s) == 0
        assert acl.rt.synchronize_stream(s) != 0
        assert len(seen) == 1
    finally:
        acl.rt.set_exception_info_callback(None)
        acl.rt.destroy_stream(s)
        acl.rt.binary_unload(h)


# -- acl.rt: system parameters, operator timeouts, groups (rt_params.c)

@good("acl.rt.ctx_set_sys_param_opt", "acl.rt.ctx_get_sys_param_opt", "acl.rt.set_sys_param_opt",
      "acl.rt.get_sys_param_opt")
def _(e):
    e.call("acl.rt.set_sys_param_opt", 0, 1)  # ACL_OPT_DETERMINISTIC
    assert e.call("acl.rt.get_sys_param_opt", 0) == (1, 0)
    e.call("acl.rt.ctx_set_sys_param_opt", 0, 2)
    assert e.call("acl.rt.ctx_get_sys_param_opt", 0) == (2, 0)
    assert acl.rt.set_sys_param_opt(0, 99) != 0
    assert acl.rt.get_sys_param_opt(99)[1] != 0
    acl.rt.set_sys_param_opt(0, 0)
    acl.rt.ctx_set_sys_param_opt(0, 0)


@good("acl.rt.set_op_wait_timeout", "acl.rt.set_op_execute_time_out", "acl.rt.set_op_execute_timeout_v2",
      "acl.rt.get_op_timeout_interval", "acl.rt.get_op_execute_timeout")
def _(e):
    e.call("acl.rt.set_op_wait_timeout", 0)
    e.call("acl.rt.set_op_execute_time_out", 3)
    assert e.call("acl.rt.get_op_execute_timeout")[0] == 3000
    interval, _r = e.call("acl.rt.get_op_timeout_interval")
    actual, _r = e.call("acl.rt.set_op_execute_timeout_v2", 5000)
    assert actual >= 5000 or interval == 0
    e.call("acl.rt.set_op_execute_time_out", 0)  # back to no limit


@good("acl.rt.set_group", "acl.rt.get_group_count", "acl.rt.create_group_info", "acl.rt.destroy_group_info",
      "acl.rt.get_all_group_info", "acl.rt.get_group_info_detail")
def _(e):
    assert e.call("acl.rt.get_group_count", 0) == (1, 0)
    e.call("acl.rt.set_group", 0)
    g = e.call("acl.rt.create_group_info")
    assert g
    e.call("acl.rt.get_all_group_info", g)
    values, _r = e.call("acl.rt.get_group_info_detail", g, 0, 5)  # ACL_GROUP_GROUPID_INT
    assert values == [0]
    cores, _r = e.call("acl.rt.get_group_info_detail", g, 0, 0)  # ACL_GROUP_AICORE_INT
    assert cores[0] >= 1
    with pytest.raises(RuntimeError):
        acl.rt.get_group_info_detail(g, 5, 0)  # pyACL raises on a C failure
    e.call("acl.rt.destroy_group_info", g)


@good("acl.rt.set_ts_device", "acl.rt.get_mem_uce_info", "acl.rt.malloc_for_task_scheduler")
def _(e):
    e.call("acl.rt.set_ts_device", 0)
    assert e.call("acl.rt.get_mem_uce_info", 0, 4) == ([], 0)  # no uncorrectable errors on the simulated device
    p, _r = e.call("acl.rt.malloc_for_task_scheduler", 64, 0, {})
    assert p and acl.rt.free(p) == 0


@good("acl.rt.register_cpu_func", "acl.rt.get_function_addr")
def _(e):
    h, r = acl.rt.binary_load_from_file(need_kernel(e), [])
    try:
        f, _r = e.call("acl.rt.register_cpu_func", h, "vadd", "VectorAdd")
        assert f
        aic, aiv, _r = e.call("acl.rt.get_function_addr", f)
        assert aic or aiv
        assert acl.rt.register_cpu_func(h, "no_such_kernel", "x")[0] == 0
    finally:
        acl.rt.binary_unload(h)


# -- acl.rt: memory

@good("acl.rt.malloc", "acl.rt.malloc_align32", "acl.rt.malloc_cached", "acl.rt.malloc_with_cfg", "acl.rt.free")
def _(e):
    for name in ("acl.rt.malloc", "acl.rt.malloc_align32", "acl.rt.malloc_cached"):
        for policy in (0, 1, 2):
            p, _r = e.call(name, 100, policy)
            assert p
            e.call("acl.rt.free", p)
    p, _r = e.call("acl.rt.malloc_with_cfg", 100, 0, {})
    assert p
    e.call("acl.rt.free", p)
    cfg = {"numAttrs": 1, "attrs": [{"attr": 1, "value": {"moduleId": 3}}]}
    p, _r = e.call("acl.rt.malloc_with_cfg", 100, 0, cfg)
    assert p
    e.call("acl.rt.free", p)


@good("acl.rt.ipc_mem_get_export_key", "acl.rt.ipc_mem_set_import_pid", "acl.rt.ipc_mem_import_by_key",
      "acl.rt.ipc_mem_close")
def _(e):
    p, _r = e.call("acl.rt.malloc", 8192, 0)
    key, _r = e.call("acl.rt.ipc_mem_get_export_key", p, 8192, 65, 0)
    assert key.startswith("oacl-")
    e.call("acl.rt.ipc_mem_set_import_pid", key, [os.getpid()])
    q, _r = e.call("acl.rt.ipc_mem_import_by_key", key, 0)
    assert q and q != p
    e.call("acl.rt.ipc_mem_close", key)  # the import
    e.call("acl.rt.ipc_mem_close", key)  # the key
    e.call("acl.rt.free", p)


# The exporter of mem_import_from_shareable_handle's handle: another process
# (a process may not import what it exported), which waits for a line.
VMM_EXPORTER = r"""
import sys, acl
assert acl.init("") in (0, 100002) and acl.rt.set_device(0) == 0
h, r = acl.rt.malloc_physical(4096, {"memAttr": 12, "location": {"id": 0, "type": 1}}, 0)
assert r == 0, r
sh, r = acl.rt.mem_export_to_shareable_handle(h, 0, 1)
assert r == 0, r
print(sh, flush=True)
sys.stdin.readline()
assert acl.rt.free_physical(h) == 0
"""


@good("acl.rt.mem_get_allocation_granularity", "acl.rt.malloc_physical", "acl.rt.free_physical",
      "acl.rt.reserve_mem_address", "acl.rt.release_mem_address", "acl.rt.map_mem", "acl.rt.unmap_mem",
      "acl.rt.mem_export_to_shareable_handle", "acl.rt.mem_set_pid_to_shareable_handle",
      "acl.rt.mem_import_from_shareable_handle")
def _(e):
    prop = {"handleType": 0, "allocationType": 0, "memAttr": 5, "location": {"id": 0, "type": 1}, "reserve": 0}
    g, _r = e.call("acl.rt.mem_get_allocation_granularity", prop, 0)  # ACL_HBM_MEM_NORMAL
    assert g == 2 << 20
    h, _r = e.call("acl.rt.malloc_physical", g, prop, 0)
    assert h
    va, _r = e.call("acl.rt.reserve_mem_address", g, 0, 0, 0)
    assert va
    e.call("acl.rt.map_mem", va, g, 0, h, 0)
    assert acl.rt.memset(va, g, 1, 4096) == 0  # mapped memory is device memory
    sh, _r = e.call("acl.rt.mem_export_to_shareable_handle", h, 0, 0)
    assert sh > 0
    e.call("acl.rt.mem_set_pid_to_shareable_handle", sh, [os.getpid()])
    e.call("acl.rt.unmap_mem", va)
    e.call("acl.rt.release_mem_address", va)
    e.call("acl.rt.free_physical", h)
    child = subprocess.Popen([subprocess_python(), "-c", VMM_EXPORTER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True)
    try:
        theirs = int(child.stdout.readline())
        q, _r = e.call("acl.rt.mem_import_from_shareable_handle", theirs, 0)
        assert q
        assert acl.rt.free_physical(q) == 0
    finally:
        child.communicate("done\n", timeout=60)
    assert child.returncode == 0


@good("acl.rt.malloc_host", "acl.rt.malloc_host_with_cfg", "acl.rt.free_host")
def _(e):
    p, _r = e.call("acl.rt.malloc_host", 100)
    assert p
    e.call("acl.rt.free_host", p)
    p, _r = e.call("acl.rt.malloc_host_with_cfg", 100, {})
    assert p
    e.call("acl.rt.free_host", p)


@good("acl.rt.memcpy", "acl.rt.memset", "acl.rt.memcpy_async", "acl.rt.memset_async", "acl.rt.memcpy2d",
      "acl.rt.memcpy2d_async")
def _(e):
    src = bytes(range(64))
    sp = acl.util.bytes_to_ptr(src)
    e.call("acl.rt.memcpy", e.dev, 256, sp, 64, 1)
    assert e.download(e.dev, 64) == src
    e.call("acl.rt.memcpy", e.dev + 64, 192, e.dev, 64, 3)  # D2D at an interior offset
    assert e.download(e.dev + 64, 64) == src
    e.call("acl.rt.memset", e.dev, 256, 0x5A, 16)
    assert e.download(e.dev, 17) == b"\x5a" * 16 + src[16:17]
    e.call("acl.rt.memcpy_async", e.dev, 256, sp, 64, 1, e.stream)
    e.call("acl.rt.memset_async", e.dev, 256, 0x11, 8, e.stream)
    assert acl.rt.synchronize_stream(e.stream) == 0
    assert e.download(e.dev, 9) == b"\x11" * 8 + src[8:9]
    # 2-D: 4 rows of 8 bytes from a pitch of 16 into a pitch of 8
    e.call("acl.rt.memcpy2d", e.dev, 8, sp, 16, 8, 4, 1)
    assert e.download(e.dev, 32) == b"".join(src[16 * r:16 * r + 8] for r in range(4))
    e.call("acl.rt.memcpy2d_async", e.dev, 8, sp + 8, 16, 8, 4, 1, e.stream)
    assert acl.rt.synchronize_stream(e.stream) == 0
    assert e.download(e.dev, 32) == b"".join(src[16 * r + 8:16 * r + 16] for r in range(4))
    # H2H into bytes: writes through bytes_to_ptr (§3.5)
    dst = bytes(64)
    e.call("acl.rt.memcpy", acl.util.bytes_to_ptr(dst), 64, sp, 64, 0)
    assert dst == src


@good("acl.rt.get_mem_info", "acl.rt.mem_flush", "acl.rt.mem_invalidate", "acl.rt.pointer_get_attributes")
def _(e):
    free, total, _r = e.call("acl.rt.get_mem_info", 0)
    assert 0 <= free <= total
    e.call("acl.rt.mem_flush", e.dev, 64)
    e.call("acl.rt.mem_invalidate", e.dev, 64)
    attrs, _r = e.call("acl.rt.pointer_get_attributes", e.dev)
    assert list(attrs) == ["location", "page_size", "rsv"]
    assert list(attrs["location"]) == ["id", "type"] and attrs["location"]["id"] == 0
    assert isinstance(attrs["page_size"], int) and isinstance(attrs["rsv"], list)


# -- acl.rt: binaries and kernels (docs/kernels.md)

@good("acl.rt.binary_load_from_file", "acl.rt.binary_get_function", "acl.rt.get_function_name",
      "acl.rt.binary_unload", "acl.rt.launch_kernel")
def _(e):
    path = need_kernel(e)
    h, _r = e.call("acl.rt.binary_load_from_file", path, [])
    assert h
    f, _r = e.call("acl.rt.binary_get_function", h, "vadd")
    assert f
    assert e.call("acl.rt.get_function_name", f, 64) == ("vadd", 0)
    with pytest.raises(ValueError):
        acl.rt.get_function_name(f, 1024)
    # z = x + y over 4 floats, the arguments packed in device memory
    x = struct.pack("<4f", 1, 2, 3, 4)
    xd = e.upload(np.frombuffer(x, np.float32))
    zd = e.malloc(16)
    args = struct.pack("<QQQQ", xd, xd, zd, 4)
    ad = e.upload(np.frombuffer(args, np.uint8))
    e.call("acl.rt.launch_kernel", f, 2, ad, len(args), e.stream)
    assert acl.rt.synchronize_stream(e.stream) == 0
    assert struct.unpack("<4f", e.download(zd, 16)) == (2, 4, 6, 8)
    e.call("acl.rt.binary_unload", h)
    h2, _r = e.call("acl.rt.binary_load_from_file", path, [{"type": 1, "value": 0}])  # LAZY_LOAD 0
    acl.rt.binary_unload(h2)


@good("acl.rt.create_binary", "acl.rt.binary_load", "acl.rt.destroy_binary", "acl.rt.binary_load_from_data")
def _(e):
    with open(need_kernel(e), "rb") as f:
        data = f.read()
    ptr = acl.util.bytes_to_ptr(data)
    b = e.call("acl.rt.create_binary", ptr, len(data))
    assert b
    h, _r = e.call("acl.rt.binary_load", b)
    assert h and acl.rt.binary_get_function(h, "vadd")[1] == 0
    e.call("acl.rt.destroy_binary", b)
    acl.rt.binary_unload(h)
    h, _r = e.call("acl.rt.binary_load_from_data", ptr, len(data), [])
    assert h
    acl.rt.binary_unload(h)


@good("acl.rt.kernel_args_init", "acl.rt.kernel_args_append", "acl.rt.kernel_args_finalize",
      "acl.rt.launch_kernel_with_config", "acl.rt.kernel_args_para_update", "acl.rt.kernel_args_append_place_holder",
      "acl.rt.kernel_args_get_place_holder_buffer", "acl.rt.kernel_args_get_mem_size",
      "acl.rt.kernel_args_get_handle_mem_size", "acl.rt.kernel_args_init_by_user_mem")
def _(e):
    h, _r = acl.rt.binary_load_from_file(need_kernel(e), [])
    assert h
    f, _r = acl.rt.binary_get_function(h, "vadd")
    xd = e.upload(np.array([1, 2, 3, 4], np.float32))
    zd = e.malloc(16)
    a, _r = e.call("acl.rt.kernel_args_init", f)
    assert a
    values = [struct.pack("<Q", v) for v in (xd, xd, zd, 4)]  # kept alive: the C side copies them
    params = []
    for v in values:
        p, _r = e.call("acl.rt.kernel_args_append", a, acl.util.bytes_to_ptr(v), 8)
        params.append(p)
    three = struct.pack("<Q", 3)
    e.call("acl.rt.kernel_args_para_update", a, params[3], acl.util.bytes_to_ptr(three), 8)  # n = 3
    e.call("acl.rt.kernel_args_finalize", a)
    e.call("acl.rt.launch_kernel_with_config", f, 1, e.stream, [], a, 0)
    assert acl.rt.synchronize_stream(e.stream) == 0
    assert struct.unpack("<3f", e.download(zd, 12)) == (2, 4, 6)
    # a placeholder and caller memory
    a2, _r = acl.rt.kernel_args_init(f)
    ph, _r = e.call("acl.rt.kernel_args_append_place_holder", a2)
    buf, _r = e.call("acl.rt.kernel_args_get_place_holder_buffer", a2, ph, 16)
    assert buf
    size, _r = e.call("acl.rt.kernel_args_get_handle_mem_size", f)
    actual, _r = e.call("acl.rt.kernel_args_get_mem_size", f, 32)
    assert size > 0 and actual >= 32
    hm, _ = acl.rt.malloc_host(size)
    am, _ = acl.rt.malloc_host(actual)
    e.call("acl.rt.kernel_args_init_by_user_mem", f, hm, am, actual)
    acl.rt.binary_unload(h)
    acl.rt.free_host(hm)
    acl.rt.free_host(am)


# -- acl.mdl: loading and descriptions

@good("acl.mdl.load_from_file", "acl.mdl.unload", "acl.mdl.load_from_mem", "acl.mdl.query_size",
      "acl.mdl.query_size_from_mem", "acl.mdl.load_from_file_with_mem", "acl.mdl.load_from_mem_with_mem")
def _(e):
    mid, _r = e.call("acl.mdl.load_from_file", e.path)
    assert mid >= 1
    e.call("acl.mdl.unload", mid)
    mid, _r = e.call("acl.mdl.load_from_mem", e.model_ptr, len(e.model_bytes))
    assert mid >= 1
    e.call("acl.mdl.unload", mid)
    work, weight, _r = e.call("acl.mdl.query_size", e.path)
    assert e.call("acl.mdl.query_size_from_mem", e.model_ptr, len(e.model_bytes)) == (work, weight, 0)
    assert weight >= 4  # the constant 2.0
    wp = e.malloc(work) if work else 0
    gp = e.malloc(weight)
    mid, _r = e.call("acl.mdl.load_from_file_with_mem", e.path, wp, work, gp, weight)
    assert mid >= 1
    acl.mdl.unload(mid)
    mid, _r = e.call("acl.mdl.load_from_mem_with_mem", e.model_ptr, len(e.model_bytes), 0, 0, 0, 0)
    assert mid >= 1
    acl.mdl.unload(mid)


@good("acl.mdl.create_config_handle", "acl.mdl.set_config_opt", "acl.mdl.load_with_config",
      "acl.mdl.destroy_config_handle")
def _(e):
    ACL_MDL_LOAD_TYPE_SIZET, ACL_MDL_PATH_PTR, ACL_MDL_MEM_ADDR_PTR, ACL_MDL_MEM_SIZET = 1, 2, 3, 4
    ACL_MDL_PRIORITY_INT32, OPENACL_MDL_PRECISION_MODE_PTR = 0, 0x0A01
    h = e.call("acl.mdl.create_config_handle")
    assert h
    e.call("acl.mdl.set_config_opt", h, ACL_MDL_LOAD_TYPE_SIZET, 1)  # ACL_MDL_LOAD_FROM_FILE
    e.call("acl.mdl.set_config_opt", h, ACL_MDL_PATH_PTR, e.path)  # a str: C copies it
    e.call("acl.mdl.set_config_opt", h, ACL_MDL_PRIORITY_INT32, 1)
    e.call("acl.mdl.set_config_opt", h, OPENACL_MDL_PRECISION_MODE_PTR, "allow_mix_precision")
    assert acl.mdl.set_config_opt(h, OPENACL_MDL_PRECISION_MODE_PTR, "fastest") == 100000
    assert "not a precision mode" in acl.get_recent_err_msg()
    mid, _r = e.call("acl.mdl.load_with_config", h)
    assert mid >= 1
    acl.mdl.unload(mid)
    e.call("acl.mdl.set_config_opt", h, ACL_MDL_LOAD_TYPE_SIZET, 3)  # ACL_MDL_LOAD_FROM_MEM
    e.call("acl.mdl.set_config_opt", h, ACL_MDL_MEM_ADDR_PTR, e.model_ptr)
    e.call("acl.mdl.set_config_opt", h, ACL_MDL_MEM_SIZET, len(e.model_bytes))
    mid, _r = e.call("acl.mdl.load_with_config", h)
    assert mid >= 1
    acl.mdl.unload(mid)
    with pytest.raises(TypeError):
        acl.mdl.set_config_opt(h, ACL_MDL_MEM_SIZET, 1.5)
    e.call("acl.mdl.destroy_config_handle", h)


@good("acl.mdl.create_desc", "acl.mdl.destroy_desc", "acl.mdl.get_desc", "acl.mdl.get_desc_from_file",
      "acl.mdl.get_desc_from_mem")
def _(e):
    for how, args in (("acl.mdl.get_desc", (e.model_id,)), ("acl.mdl.get_desc_from_file", (e.path,)),
                      ("acl.mdl.get_desc_from_mem", (e.model_ptr, len(e.model_bytes)))):
        d = e.call("acl.mdl.create_desc")
        assert d
        e.call(how, d, *args)
        assert acl.mdl.get_num_inputs(d) == 2
        e.call("acl.mdl.destroy_desc", d)


@good("acl.mdl.get_num_inputs", "acl.mdl.get_num_outputs", "acl.mdl.get_input_size_by_index",
      "acl.mdl.get_output_size_by_index", "acl.mdl.get_input_dims", "acl.mdl.get_output_dims",
      "acl.mdl.get_cur_output_dims", "acl.mdl.get_input_dims_range", "acl.mdl.get_input_name_by_index",
      "acl.mdl.get_output_name_by_index", "acl.mdl.get_input_index_by_name", "acl.mdl.get_output_index_by_name",
      "acl.mdl.get_input_format", "acl.mdl.get_output_format", "acl.mdl.get_input_data_type",
      "acl.mdl.get_output_data_type")
def _(e):
    d = e.desc
    assert e.call("acl.mdl.get_num_inputs", d) == 2
    assert e.call("acl.mdl.get_num_outputs", d) == 1
    assert e.call("acl.mdl.get_input_size_by_index", d, 1) == 24
    assert e.call("acl.mdl.get_output_size_by_index", d, 0) == 24
    assert e.call("acl.mdl.get_input_dims", d, 1) == ({"name": "z", "dimCount": 2, "dims": [2, 3]}, 0)
    assert list(acl.mdl.get_input_dims(d, 0)[0]) == ["name", "dimCount", "dims"]
    assert e.call("acl.mdl.get_output_dims", d, 0) == ({"name": "y", "dimCount": 2, "dims": [2, 3]}, 0)
    assert e.call("acl.mdl.get_cur_output_dims", d, 0) == ({"name": "y", "dimCount": 2, "dims": [2, 3]}, 0)
    dims, r = acl.mdl.get_input_dims(d, 9)
    assert dims == {} and r != 0  # ({}, ret) on a C error
    assert e.call("acl.mdl.get_input_dims_range", d, 0) == ({"rangeCount": 2, "range": [[2, 2], [3, 3]]}, 0)
    assert e.call("acl.mdl.get_input_name_by_index", d, 0) == "x"
    assert e.call("acl.mdl.get_output_name_by_index", d, 0) == "y"
    assert acl.mdl.get_input_name_by_index(d, 9) is None
    assert e.call("acl.mdl.get_input_index_by_name", d, "z") == (1, 0)
    assert e.call("acl.mdl.get_output_index_by_name", d, "y") == (0, 0)
    assert acl.mdl.get_input_index_by_name(d, "ascend_mbatch_shape_data")[1] != 0  # no gears
    e.call("acl.mdl.get_input_format", d, 0)
    e.call("acl.mdl.get_output_format", d, 0)
    assert e.call("acl.mdl.get_input_data_type", d, 0) == 0
    assert e.call("acl.mdl.get_output_data_type", d, 0) == 0


# -- acl.mdl: datasets and execution

@good("acl.mdl.create_dataset", "acl.mdl.destroy_dataset", "acl.mdl.add_dataset_buffer",
      "acl.mdl.get_dataset_num_buffers", "acl.mdl.get_dataset_buffer", "acl.mdl.set_dataset_tensor_desc",
      "acl.mdl.get_dataset_tensor_desc")
def _(e):
    ds = e.call("acl.mdl.create_dataset")
    assert ds
    b = acl.create_data_buffer(e.dev, 24)
    assert e.call("acl.mdl.add_dataset_buffer", ds, b) == (ds, 0)  # the dataset handle comes back
    assert e.call("acl.mdl.get_dataset_num_buffers", ds) == 1
    assert e.call("acl.mdl.get_dataset_buffer", ds, 0) == b
    assert acl.mdl.get_dataset_buffer(ds, 5) == 0  # out of range: 0
    td = e.tensor_desc()
    assert e.call("acl.mdl.set_dataset_tensor_desc", ds, td, 0) == (ds, 0)
    got = e.call("acl.mdl.get_dataset_tensor_desc", ds, 0)
    assert got and acl.get_tensor_desc_dim(got, 1) == 3
    e.call("acl.mdl.destroy_dataset", ds)
    assert acl.get_data_buffer_addr(b) == e.dev  # the buffer outlives its dataset
    acl.destroy_data_buffer(b)


@good("acl.mdl.execute", "acl.mdl.execute_async")
def _(e):
    want = e.small.affine_ref(e.x, e.z)
    assert acl.rt.memset(e.out_dev, 24, 0, 24) == 0
    e.call("acl.mdl.execute", e.model_id, e.in_ds, e.out_ds)
    assert np.array_equal(np.frombuffer(e.download(e.out_dev, 24), np.float32).reshape(2, 3), want)
    assert acl.rt.memset(e.out_dev, 24, 0, 24) == 0
    e.call("acl.mdl.execute_async", e.model_id, e.in_ds, e.out_ds, e.stream)
    assert acl.rt.synchronize_stream(e.stream) == 0
    assert np.array_equal(np.frombuffer(e.download(e.out_dev, 24), np.float32).reshape(2, 3), want)


# -- acl.mdl: dump (docs/dump.md)

@good("acl.mdl.init_dump", "acl.mdl.set_dump", "acl.mdl.finalize_dump", "acl.mdl.dump_reg_callback",
      "acl.mdl.dump_unreg_callback", "acl.op.start_dump_args", "acl.op.stop_dump_args")
def _(e):
    import shutil
    import tempfile
    d = tempfile.mkdtemp()
    try:
        stem = os.path.splitext(os.path.basename(e.path))[0]
        cfg = os.path.join(d, "dump.json")
        with open(cfg, "w", encoding="utf-8") as f:
            json.dump({"dump": {"dump_path": os.path.join(d, "out"), "dump_list": [{"model_name": stem}]}}, f)
        e.call("acl.mdl.init_dump")
        e.call("acl.mdl.set_dump", cfg)
        chunks = []
        e.call("acl.mdl.dump_reg_callback", lambda c, n: chunks.append((c, n)) or 0, 0)
        mid, r = acl.mdl.load_from_file(e.path)  # loaded after set_dump: dumped
        assert r == 0
        assert acl.mdl.execute(mid, e.in_ds, e.out_ds) == 0
        assert acl.mdl.unload(mid) == 0
        assert chunks, "the dump callback got no chunk"
        c, n = chunks[0]
        assert n == 4120 + c["buf_len"] and len(c["data_buf"]) == c["buf_len"]
        assert c["file_name"].startswith(os.path.join(d, "out"))
        e.call("acl.mdl.dump_unreg_callback")
        e.call("acl.mdl.finalize_dump")
        assert acl.mdl.finalize_dump() == 100045  # ACL_ERROR_DUMP_NOT_RUN
        e.call("acl.op.start_dump_args", 1, os.path.join(d, "args"))
        assert os.path.isdir(os.path.join(d, "args"))
        e.call("acl.op.stop_dump_args", 1)
    finally:
        shutil.rmtree(d, ignore_errors=True)


# -- acl.prof (docs/profiling.md)

@good("acl.prof.init", "acl.prof.set_config", "acl.prof.create_config", "acl.prof.start", "acl.prof.stop",
      "acl.prof.destroy_config", "acl.prof.finalize", "acl.prof.create_stamp", "acl.prof.destroy_stamp",
      "acl.prof.set_stamp_trace_message", "acl.prof.mark", "acl.prof.mark_ex", "acl.prof.push", "acl.prof.pop",
      "acl.prof.range_start", "acl.prof.range_stop", "acl.prof.create_step_info", "acl.prof.destroy_step_info",
      "acl.prof.get_step_timestamp")
def _(e):
    import shutil
    import tempfile
    ACL_PROF_ACL_API, ACL_PROF_TASK_TIME, ACL_PROF_MSPROFTX = 0x1, 0x2, 0x80
    ACL_PROF_STORAGE_LIMIT, ACL_AICORE_NONE, ACL_STEP_START, ACL_STEP_END = 1, 255, 0, 1
    d = tempfile.mkdtemp()
    try:
        e.call("acl.prof.init", d)
        e.call("acl.prof.set_config", ACL_PROF_STORAGE_LIMIT, "200MB")
        cfg = e.call("acl.prof.create_config", [0], ACL_AICORE_NONE, 0,
                     ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX)
        assert cfg
        assert acl.prof.create_config([], ACL_AICORE_NONE, 0, ACL_PROF_TASK_TIME) == 0  # no device: NULL
        e.call("acl.prof.start", cfg)
        stamp = e.call("acl.prof.create_stamp")
        assert stamp
        e.call("acl.prof.set_stamp_trace_message", stamp, "inventory", len("inventory"))
        e.call("acl.prof.mark", stamp)
        e.call("acl.prof.mark_ex", "inventory mark_ex", e.stream)
        e.call("acl.prof.push", stamp)
        step = e.call("acl.prof.create_step_info")
        assert step
        e.call("acl.prof.get_step_timestamp", step, ACL_STEP_START, e.stream)
        assert acl.mdl.execute(e.model_id, e.in_ds, e.out_ds) == 0
        e.call("acl.prof.get_step_timestamp", step, ACL_STEP_END, e.stream)
        assert acl.prof.get_step_timestamp(step, ACL_STEP_END, e.stream) != 0  # one END per step
        assert e.call("acl.prof.destroy_step_info", step) is None
        e.call("acl.prof.pop")
        rid, _r = e.call("acl.prof.range_start", stamp)
        e.call("acl.prof.range_stop", rid)
        assert e.call("acl.prof.destroy_stamp", stamp) is None
        assert acl.rt.synchronize_stream(e.stream) == 0
        e.call("acl.prof.stop", cfg)
        e.call("acl.prof.destroy_config", cfg)
        e.call("acl.prof.finalize")
        assert acl.prof.finalize() == 100043  # ACL_ERROR_PROF_NOT_RUN
        out = glob.glob(os.path.join(d, "PROF_*", "mindstudio_profiler_output"))
        assert len(out) == 1, os.listdir(d)
        tx = glob.glob(os.path.join(out[0], "msprof_tx_*.csv"))
        assert tx, os.listdir(out[0])
        with open(tx[0], encoding="utf-8") as f:
            text = f.read()
        assert "inventory" in text and "inventory mark_ex" in text
        assert glob.glob(os.path.join(out[0], "op_summary_*.csv"))
    finally:
        shutil.rmtree(d, ignore_errors=True)


@good("acl.prof.create_subscribe_config", "acl.prof.destroy_subscribe_config", "acl.prof.model_subscribe",
      "acl.prof.model_unsubscribe", "acl.prof.model_un_subscribe", "acl.prof.get_op_desc_size",
      "acl.prof.get_op_num", "acl.prof.get_op_type_len", "acl.prof.get_op_name_len", "acl.prof.get_op_type",
      "acl.prof.get_op_name", "acl.prof.get_op_type_v2", "acl.prof.get_op_name_v2", "acl.prof.get_op_start",
      "acl.prof.get_op_end", "acl.prof.get_op_duration", "acl.prof.get_model_id")
def _(e):
    ACL_AICORE_NONE = 255

    def subscribe_and_run(unsubscribe, runs):
        r, w = os.pipe()
        cfg = e.call("acl.prof.create_subscribe_config", 1, ACL_AICORE_NONE, w)
        assert cfg
        e.call("acl.prof.model_subscribe", e.model_id, cfg)
        for _ in range(runs):
            assert acl.mdl.execute(e.model_id, e.in_ds, e.out_ds) == 0
        e.call(unsubscribe, e.model_id)  # flushes and closes w: read() ends
        data = b""
        while True:
            chunk = os.read(r, 65536)
            if not chunk:
                break
            data += chunk
        os.close(r)
        e.call("acl.prof.destroy_subscribe_config", cfg)
        return data

    data = subscribe_and_run("acl.prof.model_un_subscribe", 1)
    size, _r = e.call("acl.prof.get_op_desc_size")
    assert size == 80 and data and len(data) % size == 0
    data = subscribe_and_run("acl.prof.model_unsubscribe", 2)  # two executions: at least two records
    p = acl.util.bytes_to_ptr(data)
    n, _r = e.call("acl.prof.get_op_num", p, len(data))
    assert n == len(data) // size and n >= 2
    tlen, _r = e.call("acl.prof.get_op_type_len", p, len(data), 0)
    nlen, _r = e.call("acl.prof.get_op_name_len", p, len(data), 0)
    assert tlen > 1 and nlen > 1  # lengths count the NUL
    op_type, _r = e.call("acl.prof.get_op_type", p, len(data), 0, tlen)
    op_name, _r = e.call("acl.prof.get_op_name", p, len(data), 0, nlen)
    assert len(op_type) == tlen - 1 and len(op_name) == nlen - 1
    assert acl.prof.get_op_type(p, len(data), 0, 4097) == ("", 100000)
    assert acl.prof.get_op_type(p, len(data), 0, tlen)[1] != 0  # each string is read once
    t2, _r = e.call("acl.prof.get_op_type_v2", p, len(data), 1)
    n2, _r = e.call("acl.prof.get_op_name_v2", p, len(data), 1)
    assert t2 and n2
    assert acl.prof.get_op_name_v2(p, len(data), 1)[0] is None  # read already
    start = e.call("acl.prof.get_op_start", p, len(data), 0)
    end = e.call("acl.prof.get_op_end", p, len(data), 0)
    assert 0 < start <= end
    assert e.call("acl.prof.get_op_duration", p, len(data), 0) == end - start
    assert e.call("acl.prof.get_model_id", p, len(data), 0) == e.model_id
    assert acl.prof.get_op_num(p, len(data) - 1) == (0, 100000)  # not whole records
    assert acl.prof.get_op_start(p, len(data), n) == 0  # index out of range


# -- acl.mdl: gears (docs/models.md "Gears", pyACL §4.3)

@good("acl.mdl.get_dynamic_batch", "acl.mdl.set_dynamic_batch_size")
def _(e):
    mid, d, idx, ds = e.gear("batch")
    assert idx == 1 and acl.mdl.get_num_inputs(d) == 2
    assert e.call("acl.mdl.get_dynamic_batch", d) == ({"batchCount": 4, "batch": [1, 2, 4, 8]}, 0)
    assert acl.mdl.get_dynamic_batch(e.desc) in (({}, 0), ({"batchCount": 0, "batch": []}, 0)) or \
        acl.mdl.get_dynamic_batch(e.desc)[1] != 0
    e.call("acl.mdl.set_dynamic_batch_size", mid, ds, idx, 2)
    assert acl.mdl.set_dynamic_batch_size(mid, ds, idx, 3) != 0  # not a gear
    assert acl.mdl.get_cur_output_dims(d, 0) == ({"name": "y", "dimCount": 2, "dims": [2, 3]}, 0)
    assert acl.mdl.get_output_dims(d, 0)[0]["dims"] == [8, 3]  # the largest gear
    assert acl.mdl.get_input_dims_range(d, 0) == ({"rangeCount": 2, "range": [[1, 8], [4, 4]]}, 0)


@good("acl.mdl.get_dynamic_hw", "acl.mdl.set_dynamic_hw_size")
def _(e):
    mid, d, idx, ds = e.gear("hw")
    info, _r = e.call("acl.mdl.get_dynamic_hw", d, 0)
    assert info == {"hwCount": 2, "hw": [[4, 4], [8, 8]]}
    assert [4, 4] in info["hw"]  # inner items are lists (§4.3)
    e.call("acl.mdl.set_dynamic_hw_size", mid, ds, idx, 4, 4)


@good("acl.mdl.get_input_dynamic_gear_count", "acl.mdl.get_input_dynamic_dims", "acl.mdl.set_input_dynamic_dims")
def _(e):
    mid, d, idx, ds = e.gear("dims")
    assert e.call("acl.mdl.get_input_dynamic_gear_count", d, -1) == (3, 0)  # index -1: the vendor's reserved value
    gears, _r = e.call("acl.mdl.get_input_dynamic_dims", d, -1, 3)
    assert [g["dims"] for g in gears] == [[1, 4], [2, 4], [8, 4]]
    assert all(list(g) == ["name", "dimCount", "dims"] and g["dimCount"] == 2 for g in gears)
    assert acl.mdl.get_input_dynamic_dims(d, -1, 4097) == (None, 100000)
    e.call("acl.mdl.set_input_dynamic_dims", mid, ds, idx, {"name": "", "dimCount": 2, "dims": [2, 4]})
    e.call("acl.mdl.set_input_dynamic_dims", mid, ds, idx, {"dimCount": 2, "dims": [8, 4]})  # name optional
    assert acl.mdl.set_input_dynamic_dims(mid, ds, idx, {"dimCount": 2, "dims": [3, 4]}) != 0


# -- acl.util (§2.4, §3.5, §3.6)

@good("acl.util.bytes_to_ptr", "acl.util.ptr_to_bytes")
def _(e):
    b = b"\x01\x02\x03\x04\x05\x06\x07\x08" * 4
    p = e.call("acl.util.bytes_to_ptr", b)
    assert p
    assert e.call("acl.util.ptr_to_bytes", p, 8) == b[:8]
    copy = e.call("acl.util.ptr_to_bytes", e.host, 0)
    assert copy == b""


@good("acl.util.numpy_to_ptr", "acl.util.numpy_contiguous_to_ptr", "acl.util.ptr_to_numpy")
def _(e):
    a = np.arange(6, dtype=np.float32)
    with pytest.warns(Warning):
        p = e.call("acl.util.numpy_to_ptr", a)
    assert p == a.ctypes.data
    with pytest.warns(Warning):
        p2, same = e.call("acl.util.numpy_contiguous_to_ptr", a)
    assert p2 == a.ctypes.data and same is a
    strided = np.arange(12, dtype=np.float32)[::2]
    with pytest.warns(Warning):
        p3, c = acl.util.numpy_contiguous_to_ptr(strided)
    assert c.flags["C_CONTIGUOUS"] and np.array_equal(c, strided) and p3 == c.ctypes.data
    with pytest.warns(Warning):
        v = e.call("acl.util.ptr_to_numpy", p, (2, 3), 11)
    assert v.shape == (2, 3) and v.dtype == np.float32 and v.flags["WRITEABLE"]
    v[0, 0] = 42.0  # a view, no copy
    assert a[0] == 42.0


@good("acl.util.start_thread", "acl.util.stop_thread")
def _(e):
    got = []
    arg = [e.ctx, 50]

    def fn(x):
        got.append((x, threading.get_ident()))
    tid, _r = e.call("acl.util.start_thread", fn, arg)
    assert tid
    assert e.call("acl.util.stop_thread", tid) == 0
    assert len(got) == 1 and got[0][0] is arg and got[0][1] == tid
    calls = []
    tid, r = acl.util.start_thread(lambda: calls.append("no arg"), None)  # fn() when arg is None
    assert r == 0 and acl.util.stop_thread(tid) == 0 and calls == ["no arg"]


GOOD_SUBPROCESS = {"acl.init", "acl.finalize", "acl.finalize_reference", "acl.rt.reset_device",
                   "acl.rt.reset_device_force"}  # test_lifecycle


def test_good_cases_cover_implemented_names():
    missing = [e.dotted for e in IMPLEMENTED if e.dotted not in GOOD and e.dotted not in GOOD_SUBPROCESS]
    assert missing == []


GOOD_GROUPS = []
for _fn in GOOD.values():
    if _fn not in GOOD_GROUPS:
        GOOD_GROUPS.append(_fn)
GOOD_IDS = [next(n for n, f in GOOD.items() if f is g) for g in GOOD_GROUPS]


@pytest.mark.parametrize("case", GOOD_GROUPS, ids=GOOD_IDS)
def test_good_arguments(env, case):
    """Each implemented name with valid arguments: the documented shape, ret 0."""
    names = [n for n, f in GOOD.items() if f is case]
    case(env)
    acl.rt.set_context(env.ctx)
    skipped = [n for n in names if n not in env.called]
    assert skipped == [], "the case did not call %s" % skipped


def test_zero_argument_functions_ignore_extras(env):
    assert acl.get_version(1, 2) == acl.get_version()
    assert acl.rt.get_run_mode("x") == (1, 0)
    assert acl.rt.get_device(None)[1] == 0
    s, r = acl.rt.create_stream(1)  # §3.1's example
    assert r == 0 and s and acl.rt.destroy_stream(s) == 0
    ds = acl.mdl.create_dataset(1, 2, 3)
    assert ds and acl.mdl.destroy_dataset(ds) == 0
    d = acl.mdl.create_desc([])
    assert d and acl.mdl.destroy_desc(d) == 0
    ev, r = acl.rt.create_event(0)
    assert r == 0 and acl.rt.destroy_event(ev) == 0
    assert isinstance(acl.get_soc_name(1), str)


def test_bytes_to_ptr_no_copy(env):
    """§3.5: the address of the bytes' own storage; C writes through it."""
    b = bytes(range(100, 116))
    p = acl.util.bytes_to_ptr(b)
    assert acl.util.bytes_to_ptr(b) == p  # the same storage every time
    assert acl.util.ptr_to_bytes(p, 16) == b
    out = np.zeros(4, np.float32).tobytes()
    src = np.array([1.5, 2.5, 3.5, 4.5], np.float32).tobytes()
    assert acl.rt.memcpy(env.dev, 16, acl.util.bytes_to_ptr(src), 16, 1) == 0
    assert acl.rt.memcpy(acl.util.bytes_to_ptr(out), 16, env.dev, 16, 2) == 0
    assert np.frombuffer(out, np.float32).tolist() == [1.5, 2.5, 3.5, 4.5]


def test_util_thread_exception(env):
    """§3.6: a thread function that raises makes stop_thread raise RuntimeError."""
    def boom(arg):
        raise KeyError("boom")
    tid, r = acl.util.start_thread(boom, [])
    assert r == 0
    with pytest.raises(RuntimeError) as exc:
        acl.util.stop_thread(tid)
    assert "KeyError" in str(exc.value)


def test_numpy_helpers_warn_with_base_warning(env):
    """§3.5: the numpy helpers warn with the base Warning category (not
    DeprecationWarning); numpy_to_ptr warns once more for a non-contiguous array."""
    a = np.arange(8, dtype=np.float32)
    calls = [lambda: acl.util.numpy_to_ptr(a), lambda: acl.util.numpy_contiguous_to_ptr(a),
             lambda: acl.util.ptr_to_numpy(env.host, (2,), 11)]
    for call in calls:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            call()
        assert [x.category for x in w] == [Warning], [(x.category, str(x.message)) for x in w]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        acl.util.numpy_to_ptr(a[::2])
    assert len(w) == 2 and all(x.category is Warning for x in w)


def test_ptr_to_numpy_types(env):
    """Every NumPy type number of §3.5 gives a view of that dtype."""
    codes = {0: "?", 1: "b", 2: "B", 3: "h", 4: "H", 5: "i", 6: "I", 7: "l", 8: "L", 9: "q", 10: "Q", 11: "f",
             12: "d", 13: "g", 14: "F", 15: "D", 16: "G", 23: "e"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for num, ch in codes.items():
            v = acl.util.ptr_to_numpy(env.host, (2,), num)
            assert v.dtype == np.dtype(ch), "type number %d gave %s" % (num, v.dtype)
        with pytest.raises(TypeError):
            acl.util.ptr_to_numpy(env.host, [2], 11)


# ---- subprocesses: lifecycle, after finalize, bogus pointers -------------------------------------


def run_json(code, **kw):
    """Runs code that prints one JSON list per line; returns (process, rows)."""
    p = run_python(code=code, **kw)
    rows = []
    for line in p.stdout.splitlines():
        if line.startswith("["):
            rows.append(json.loads(line))
    return p, rows


PRELUDE = r"""
import json, sys, acl
def show(label, f, *args):
    print(json.dumps([label, "call"]), flush=True)   # the last line before a crash names it
    try:
        r = f(*args)
    except Exception as exc:
        print(json.dumps([label, "raise", type(exc).__name__, str(exc)]), flush=True)
        return None
    print(json.dumps([label, "ok", r if isinstance(r, (int, str, type(None), tuple, list, dict, float)) else repr(r)]),
          flush=True)
    return r
"""


def results(rows):
    """{label: ('ok', value) | ('raise', type)}, with tuples as lists."""
    out = {}
    for row in rows:
        if row[1] == "ok":
            out[row[0]] = ("ok", row[2])
        elif row[1] == "raise":
            out[row[0]] = ("raise", row[2])
    return out


def test_lifecycle():
    code = PRELUDE + r"""
show("init", acl.init)
show("init_again", acl.init, "")
show("set_device", acl.rt.set_device, 0)
show("set_device_again", acl.rt.set_device, 0)
show("reset_device", acl.rt.reset_device, 0)
show("reset_device_force", acl.rt.reset_device_force, 0)
show("reset_device_unset", acl.rt.reset_device, 0)
show("finalize", acl.finalize)
show("finalize_again", acl.finalize)
show("init_after_finalize", acl.init, "")
show("finalize_reference", acl.finalize_reference)
show("finalize_reference_after", acl.finalize_reference)
show("finalize_end", acl.finalize)
"""
    p, rows = run_json(code)
    assert p.returncode == 0, describe(p)
    r = results(rows)
    assert r["init"] == ("ok", 0)
    assert r["init_again"] == ("ok", 100002)  # ACL_ERROR_REPEAT_INITIALIZE (§4.2 item 3)
    assert r["set_device"] == ("ok", 0) and r["set_device_again"] == ("ok", 0)
    assert r["reset_device"] == ("ok", 0)
    assert r["reset_device_force"] == ("ok", 0)
    assert r["reset_device_unset"][0] == "ok" and r["reset_device_unset"][1] != 0
    assert r["finalize"] == ("ok", 0)
    assert r["finalize_again"] == ("ok", 100037)  # ACL_ERROR_REPEAT_FINALIZE
    assert r["init_after_finalize"] == ("ok", 0)
    fr = r["finalize_reference"]
    assert fr[0] == "ok", fr
    check_shape(BY_NAME["acl.finalize_reference"], tuple(fr[1]))
    assert fr[1] == [0, 0], fr  # the last reference: finalised
    fr = r["finalize_reference_after"]
    assert fr[0] == "ok" and fr[1][-1] != 0, fr
    assert r["finalize_end"] == ("ok", 100037)


AFTER_FINALIZE_SETUP = r"""
assert acl.init("") == 0
assert acl.rt.set_device(0) == 0
ctx, _ = acl.rt.create_context(0)
stream, _ = acl.rt.create_stream()
event, _ = acl.rt.create_event()
dev, _ = acl.rt.malloc(64, 0)
host, _ = acl.rt.malloc_host(64)
model_id, _ = acl.mdl.load_from_file(MODEL)
desc = acl.mdl.create_desc()
assert acl.mdl.get_desc(desc, model_id) == 0
ds = acl.mdl.create_dataset()
buf = acl.create_data_buffer(dev, 24)
acl.mdl.add_dataset_buffer(ds, buf)
td = acl.create_tensor_desc(0, [2, 3], 2)
assert model_id and ctx and stream and dev and host and desc and ds and buf and td
"""

# (label, code, must fail): runtime calls must give an error code after finalize
AFTER_FINALIZE_CALLS = [
    ("rt.malloc", "acl.rt.malloc, 64, 0", True),
    ("rt.malloc_host", "acl.rt.malloc_host, 64", True),
    ("rt.memcpy", "acl.rt.memcpy, dev, 64, host, 64, 1", True),
    ("rt.memset", "acl.rt.memset, dev, 64, 0, 64", True),
    ("rt.memcpy_async", "acl.rt.memcpy_async, dev, 64, host, 64, 1, stream", True),
    ("mdl.execute", "acl.mdl.execute, model_id, ds, ds", True),
    ("mdl.execute_async", "acl.mdl.execute_async, model_id, ds, ds, stream", True),
    ("mdl.load_from_file", "acl.mdl.load_from_file, MODEL", True),
    ("mdl.get_desc", "acl.mdl.get_desc, desc, model_id", True),
    ("mdl.unload", "acl.mdl.unload, model_id", True),
    ("rt.create_stream", "acl.rt.create_stream", True),
    ("rt.synchronize_stream", "acl.rt.synchronize_stream, stream", True),
    ("rt.record_event", "acl.rt.record_event, event, stream", True),
    ("rt.destroy_event", "acl.rt.destroy_event, event", True),
    ("rt.destroy_stream", "acl.rt.destroy_stream, stream", True),
    ("rt.set_context", "acl.rt.set_context, ctx", True),
    ("rt.destroy_context", "acl.rt.destroy_context, ctx", True),
    ("rt.create_context", "acl.rt.create_context, 0", True),
    ("rt.free", "acl.rt.free, dev", True),
    ("rt.free_host", "acl.rt.free_host, host", True),
    ("rt.synchronize_device", "acl.rt.synchronize_device", True),
    ("rt.set_device", "acl.rt.set_device, 0", True),
    ("rt.reset_device", "acl.rt.reset_device, 0", True),
    ("rt.get_device", "acl.rt.get_device", True),
    ("rt.subscribe_report", "acl.rt.subscribe_report, 1, stream", True),
    ("rt.launch_callback", "acl.rt.launch_callback, print, None, 1, stream", True),
    ("finalize", "acl.finalize", True),
    ("mdl.get_num_inputs", "acl.mdl.get_num_inputs, desc", False),
    ("mdl.destroy_desc", "acl.mdl.destroy_desc, desc", False),
    ("mdl.destroy_dataset", "acl.mdl.destroy_dataset, ds", False),
    ("destroy_data_buffer", "acl.destroy_data_buffer, buf", False),
    ("destroy_tensor_desc", "acl.destroy_tensor_desc, td", False),
    ("get_recent_err_msg", "acl.get_recent_err_msg", False),
    ("rt.get_run_mode", "acl.rt.get_run_mode", False),
]


def test_calls_after_finalize(small_models):
    """§4.2 item 7: calls after acl.finalize return error codes, never crash."""
    code = "MODEL = %r\n" % str(small_models.affine) + PRELUDE + AFTER_FINALIZE_SETUP
    code += 'show("finalize_first", acl.finalize)\n'
    for label, call, _ in AFTER_FINALIZE_CALLS:
        code += "show(%r, %s)\n" % (label, call)
    p, rows = run_json(code)
    assert p.returncode == 0, describe(p)
    r = results(rows)
    assert r["finalize_first"] == ("ok", 0)
    bad = []
    for label, call, must_fail in AFTER_FINALIZE_CALLS:
        kind, v = r.get(label, ("missing", None))
        if kind != "ok":
            bad.append("%s: %s %s" % (label, kind, v))
            continue
        ret = v[-1] if isinstance(v, list) else v
        if must_fail and (not isinstance(ret, int) or ret == 0):
            bad.append("%s returned %r after acl.finalize" % (label, v))
    assert bad == [], "\n".join(bad)


def test_teardown_in_del_at_exit(small_models):
    """acllite's __del__ teardown may run at interpreter exit, after finalize."""
    code = "MODEL = %r\n" % str(small_models.affine) + r"""
import acl
class Resource:
    def __init__(self):
        assert acl.init("") == 0
        assert acl.rt.set_device(0) == 0
        self.ctx, _ = acl.rt.create_context(0)
        self.stream, _ = acl.rt.create_stream()
        self.model_id, _ = acl.mdl.load_from_file(MODEL)
        self.desc = acl.mdl.create_desc()
        acl.mdl.get_desc(self.desc, self.model_id)
        self.dev, _ = acl.rt.malloc(24, 0)
        self.ds = acl.mdl.create_dataset()
        self.buf = acl.create_data_buffer(self.dev, 24)
        acl.mdl.add_dataset_buffer(self.ds, self.buf)
    def __del__(self):
        rets = [acl.destroy_data_buffer(self.buf), acl.mdl.destroy_dataset(self.ds), acl.rt.free(self.dev),
                acl.mdl.destroy_desc(self.desc), acl.mdl.unload(self.model_id), acl.rt.destroy_stream(self.stream),
                acl.rt.destroy_context(self.ctx), acl.rt.reset_device(0), acl.finalize()]
        print("DEL", rets, flush=True)
keep = Resource()
print("FINALIZE", acl.finalize(), flush=True)
"""
    p = run_python(code=code)
    assert p.returncode == 0, describe(p)
    assert "FINALIZE 0" in p.stdout and "DEL [" in p.stdout, describe(p)
    rets = json.loads(p.stdout.split("DEL ", 1)[1].splitlines()[0])
    assert all(isinstance(x, int) for x in rets)
    assert rets[-1] == 100037 and rets[4] != 0 and rets[2] != 0, rets


# 1 << 40 lies in AddressSanitizer's shadow memory, mapped but inaccessible:
# left out when its runtime is preloaded (conftest.UNDER_ASAN).
BOGUS = [12345, (1 << 64) - 1, -1] + ([] if UNDER_ASAN else [1 << 40])

BOGUS_PRELUDE = PRELUDE + r"""
assert acl.init("") == 0
assert acl.rt.set_device(0) == 0
ctx, _ = acl.rt.create_context(0)
stream, _ = acl.rt.create_stream()
dev, _ = acl.rt.malloc(64, 0)
host, _ = acl.rt.malloc_host(64)
hb = bytes(64)
hp = acl.util.bytes_to_ptr(hb)
BOGUS = %r
""" % BOGUS

# group -> [(dotted, args template with B for the bogus value)]
BOGUS_GROUPS = {
    "memcpy": [("acl.rt.memcpy", "B, 64, hp, 64, 0"), ("acl.rt.memcpy", "hp, 64, B, 64, 0"),
               ("acl.rt.memcpy", "B, 64, hp, 64, 1"), ("acl.rt.memcpy", "dev, 64, B, 64, 1"),
               ("acl.rt.memcpy", "B, 64, dev, 64, 2"), ("acl.rt.memcpy", "hp, 64, B, 64, 2"),
               ("acl.rt.memcpy", "B, 64, dev, 64, 3"), ("acl.rt.memcpy", "dev, 64, B, 64, 3"),
               ("acl.rt.memcpy", "host, 64, B, 64, 0"), ("acl.rt.memcpy", "B, 64, host, 64, 0")],
    "memcpy_async": [("acl.rt.memcpy_async", "B, 64, hp, 64, 1, stream"),
                     ("acl.rt.memcpy_async", "hp, 64, B, 64, 2, stream"),
                     ("acl.rt.memcpy_async", "B, 64, host, 64, 0, stream"),
                     ("acl.rt.synchronize_stream", "stream")],
    "memcpy2d_memset": [("acl.rt.memcpy2d", "B, 8, hp, 8, 8, 4, 1"), ("acl.rt.memcpy2d", "dev, 8, B, 8, 8, 4, 1"),
                        ("acl.rt.memset", "B, 64, 0, 64"), ("acl.rt.memset_async", "B, 64, 0, 64, stream"),
                        ("acl.rt.synchronize_stream", "stream")],
    "ptr_to_bytes": [("acl.util.ptr_to_bytes", "B, 8"), ("acl.util.ptr_to_bytes", "B, 1 << 20")],
    "buffers": [("acl.destroy_data_buffer", "B"), ("acl.destroy_tensor_desc", "B"),
                ("acl.mdl.destroy_dataset", "B"), ("acl.mdl.destroy_desc", "B")],
    "runtime_handles": [("acl.rt.destroy_stream", "B"), ("acl.rt.destroy_stream_force", "B"),
                        ("acl.rt.destroy_event", "B"), ("acl.rt.destroy_context", "B"),
                        ("acl.rt.set_context", "B"), ("acl.rt.synchronize_stream", "B")],
    "memory": [("acl.rt.free", "B"), ("acl.rt.free_host", "B"), ("acl.rt.free", "dev + 8"),
               ("acl.rt.destroy_binary", "B"), ("acl.rt.binary_unload", "B"), ("acl.mdl.unload", "B & 0xffffffff")],
    "getters": [("acl.get_data_buffer_addr", "B"), ("acl.get_data_buffer_size", "B"),
                ("acl.get_data_buffer_size_v2", "B"), ("acl.update_data_buffer", "B, dev, 8"),
                ("acl.get_tensor_desc_num_dims", "B"), ("acl.get_tensor_desc_dim_v2", "B, 0"),
                ("acl.mdl.get_num_inputs", "B"), ("acl.mdl.get_input_size_by_index", "B, 0"),
                ("acl.mdl.get_input_dims", "B, 0"), ("acl.mdl.get_dataset_num_buffers", "B"),
                ("acl.mdl.get_dataset_buffer", "B, 0"), ("acl.mdl.add_dataset_buffer", "B, 0"),
                ("acl.mdl.execute", "1, B, B")],
}


@pytest.mark.parametrize("group", list(BOGUS_GROUPS))
def test_bogus_pointers(group):
    """Bogus ints as pointers or handles: error codes (or an exception for
    ptr_to_bytes, which has no ret), never a crash."""
    code = BOGUS_PRELUDE
    labels = []
    for k, (dotted, tmpl) in enumerate(BOGUS_GROUPS[group]):
        for v in BOGUS:
            label = "%s(%s) B=%#x" % (dotted, tmpl, v & ((1 << 64) - 1))
            labels.append((label, dotted, "B" in tmpl))
            code += "B = %d\nshow(%r, %s, %s)\n" % (v, label, dotted, tmpl)
    code += 'print("DONE", flush=True)\n'
    p, rows = run_json(code)
    assert p.returncode == 0 and "DONE" in p.stdout, describe(p)
    r = results(rows)
    bad = []
    for label, dotted, bogus in labels:
        kind, v = r[label]
        e = BY_NAME[dotted]
        kind_r, types = parse_returns(e.returns)
        if not bogus:
            if dotted == "acl.rt.synchronize_stream":
                continue  # the synchronisation after the asynchronous calls: any result
            bogus = True  # an interior pointer (free(dev + 8)) is bogus too
        if types == "bytes":
            if kind != "raise" or v == "SystemError":
                bad.append("%s: %s %r (want an exception)" % (label, kind, v))
            continue
        if kind != "ok":
            bad.append("%s raised %s (a C failure never raises)" % (label, v))
            continue
        if kind_r == "tuple":
            if not isinstance(v, list) or v[-1] == 0:
                bad.append("%s returned %r" % (label, v))
        elif types == "ret":
            if not isinstance(v, int) or v == 0:
                bad.append("%s returned %r" % (label, v))
        elif types == "None":
            if v is not None:
                bad.append("%s returned %r" % (label, v))
        elif v not in (0, None):
            bad.append("%s returned %r" % (label, v))
    assert bad == [], "\n".join(bad)
