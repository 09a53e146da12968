"""``openacl.Session``: a model on a device, run with numpy arrays.

A Session owns, in the order it makes them: one share of ``acl.init``
(_runtime), the device (``acl.rt.set_device``), its own context
(``acl.rt.create_context``), the loaded model and its description, and the
input and output datasets with one device buffer per model input and
output.  ``close()`` releases them in the reverse, documented order:
datasets and buffers, ``acl.mdl.unload``, ``acl.mdl.destroy_desc``,
``acl.rt.destroy_context``, ``acl.rt.reset_device``, and ``acl.finalize``
when the package made the ``acl.init`` and no other Session holds it.

A run (``Session.run``) copies each input array into its device buffer
with ``acl.rt.memcpy`` straight from the array's memory, gives inputs with
dynamic dimensions their actual shape with a tensor descriptor on the
input dataset, executes (the extension releases the GIL), and copies each
output into a new numpy array, shaped by the descriptor the model leaves
in the output dataset for outputs whose shape the model does not declare.
Buffers and descriptors are reused while the input shapes stay the same,
so a loop of same-shaped runs does no Python work beyond the copies.

Threads: one lock serialises runs and close() on a Session; each run makes
the Session's context current on the calling thread.  ``run_async`` runs on
one worker thread per Session and returns a ``concurrent.futures.Future``.
"""
from __future__ import annotations

import errno
import logging
import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _acl, _runtime
from ._acl import acl
from .errors import AclError, check

__all__ = ["Session", "TensorInfo", "Inputs"]

Inputs = Union[Sequence[Any], Mapping[str, Any], np.ndarray]

_H2D = _acl.ACL_MEMCPY_HOST_TO_DEVICE
_D2H = _acl.ACL_MEMCPY_DEVICE_TO_HOST
_MIN_BYTES = 64  # device buffers are never empty: the runtime refuses NULL data
_log = logging.getLogger("openacl")


@dataclass(frozen=True)
class TensorInfo:
    """An input or output of the model, as its description declares it.

    Attributes:
        name: the tensor's name in the model.
        index: its position among the inputs (outputs).
        shape: the declared dimensions, -1 for a dynamic (symbolic) one;
            None when the model does not declare the shape at all.
        dtype: the numpy dtype, or None for a type numpy has no dtype for
            (bfloat16, string) or that the model leaves undeclared.
        acl_dtype: the aclDataType value (0 float32, 1 float16, 9 int64 ...).
        format: the aclFormat name ("NCHW", "ND" ...).
        size: bytes of one tensor of the declared shape; 0 when dynamic.
    """

    name: str
    index: int
    shape: Optional[Tuple[int, ...]]
    dtype: Optional[np.dtype]
    acl_dtype: int
    format: str
    size: int

    @property
    def dynamic(self) -> bool:
        """Whether some dimension (or the whole shape) is left open."""
        return self.shape is None or any(d < 0 for d in self.shape)

    @property
    def type_name(self) -> str:
        if self.dtype is not None:
            return str(self.dtype)
        return _acl.DTYPE_OTHER.get(self.acl_dtype, f"aclDataType {self.acl_dtype}")

    def __str__(self) -> str:
        return f"{self.name}: {self.type_name} {_fmt_model_shape(self.shape)}"


def _raw_dtype(itemsize: int) -> Optional[np.dtype]:
    """An unsigned integer dtype of itemsize bytes (the raw bits of a type numpy lacks), or None."""
    return np.dtype("u%d" % itemsize) if itemsize in (1, 2, 4, 8) else None


def _fmt_model_shape(shape: Optional[Tuple[int, ...]]) -> str:
    if shape is None:
        return "[any shape]"
    return "[" + ", ".join("?" if d < 0 else str(d) for d in shape) + "]"


def _fmt_shape(shape: Tuple[int, ...]) -> str:
    return str(tuple(int(d) for d in shape))


class _Buf:
    """One device buffer wrapped in an aclDataBuffer, for one model input or output."""

    __slots__ = ("info", "dev", "cap", "buf", "nbytes", "shape", "ok_shape", "fmt", "dynamic", "itemsize", "np_dtype")

    def __init__(self, info: TensorInfo, fmt: int, itemsize: int) -> None:
        self.info = info
        self.dev = 0  # device pointer
        self.cap = 0  # its bytes
        self.buf = 0  # aclDataBuffer
        self.nbytes = 0  # bytes the data buffer says (inputs: this run's)
        self.shape: Optional[Tuple[int, ...]] = None  # inputs: the shape staged in the dataset
        self.ok_shape: Optional[Tuple[int, ...]] = None  # inputs: the last shape that passed the checks
        self.fmt = fmt
        self.dynamic = info.dynamic
        self.itemsize = itemsize
        # the dtype of the arrays: the tensor's, or its raw bits (uint16 for bfloat16) when numpy has none
        self.np_dtype = info.dtype if info.dtype is not None else _raw_dtype(itemsize)


class Session:
    """A model loaded on a device, run with numpy arrays.

    ``Session(model_path, device=0, config=None)`` initialises ACL if
    needed (with the acl.json ``config`` file, if given), opens ``device``,
    makes a context on it and loads the ONNX model.  ``inputs`` and
    ``outputs`` describe the model; ``run`` executes it.  Use it as a
    context manager, or call ``close()``; a Session still open at
    interpreter exit is closed then.

    Raises FileNotFoundError for a missing model file and AclError when ACL
    refuses (an invisible device, a model it cannot parse ...).

    Attributes: ``inputs`` and ``outputs`` (lists of TensorInfo, in the
    model's order), ``model_path``, ``device``; ``model_id`` and ``context``
    for acl calls of your own; ``closed``.
    """

    inputs: List[TensorInfo]
    outputs: List[TensorInfo]

    def __init__(self, model_path: Union[str, "os.PathLike[str]"], device: int = 0, *,
                 config: Optional[str] = None) -> None:
        self._lock = threading.RLock()
        self._closed = False
        self._closing = False  # close() has begun: no new run_async
        self._acquired = False
        self._device_set = False
        self._ctx = 0
        self._model_id = 0
        self._desc = 0
        self._ds_in = 0
        self._ds_out = 0
        self._in: List[_Buf] = []
        self._out: List[_Buf] = []
        self._executor: Optional[ThreadPoolExecutor] = None
        self.model_path = os.fspath(model_path)
        if isinstance(device, bool) or not isinstance(device, int):
            raise TypeError(f"device must be an int (a device id), not {type(device).__name__}")
        self.device = device
        if not os.path.exists(self.model_path):
            raise FileNotFoundError(errno.ENOENT, "model file not found", self.model_path)
        if os.path.isdir(self.model_path):
            raise IsADirectoryError(errno.EISDIR, "the model path is a directory, not an ONNX file", self.model_path)
        try:
            self._open(config)
        except BaseException:
            self.close()
            raise
        _runtime.register(self)

    # --- opening -----------------------------------------------------------

    def _open(self, config: Optional[str]) -> None:
        _runtime.acquire(config)
        self._acquired = True
        dev = self.device
        check(acl.rt.set_device(dev), "aclrtSetDevice", f"opening device {dev}")
        self._device_set = True
        _log.debug("device %d set", dev)
        self._ctx, ret = acl.rt.create_context(dev)
        check(ret, "aclrtCreateContext", f"creating a context on device {dev}")
        _log.debug("context created on device %d", dev)
        self._model_id, ret = acl.mdl.load_from_file(self.model_path)
        check(ret, "aclmdlLoadFromFile", f"loading model '{self.model_path}'")
        _log.debug("model %d loaded from '%s'", self._model_id, self.model_path)
        self._desc = acl.mdl.create_desc()
        if not self._desc:
            raise AclError(_acl.ACL_ERROR_BAD_ALLOC, "aclmdlCreateDesc", context="describing the model")
        check(acl.mdl.get_desc(self._desc, self._model_id), "aclmdlGetDesc", "describing the model")
        n_in = acl.mdl.get_num_inputs(self._desc)
        n_out = acl.mdl.get_num_outputs(self._desc)
        self._in = [self._describe(i, False) for i in range(n_in)]
        self._out = [self._describe(i, True) for i in range(n_out)]
        if any(b.info.name == _acl.ACL_DYNAMIC_TENSOR_NAME for b in self._in):
            raise ValueError(
                f"model '{self.model_path}' was loaded with gears (OPENACL_DYNAMIC_BATCH, OPENACL_DYNAMIC_HW or "
                "OPENACL_DYNAMIC_DIMS is set): Session gives dynamic dimensions their size itself, with tensor "
                "descriptors; unset the variable")
        self._in_by_name = {b.info.name: b for b in self._in}
        self.inputs: List[TensorInfo] = [b.info for b in self._in]
        self.outputs: List[TensorInfo] = [b.info for b in self._out]
        self._ds_in = acl.mdl.create_dataset()
        self._ds_out = acl.mdl.create_dataset()
        if not self._ds_in or not self._ds_out:
            raise AclError(_acl.ACL_ERROR_BAD_ALLOC, "aclmdlCreateDataset", context="preparing the datasets")
        for ds, bufs, what in ((self._ds_in, self._in, "input"), (self._ds_out, self._out, "output")):
            for b in bufs:
                # static tensors get their exact size now; dynamic ones grow at the first run
                self._alloc(b, b.info.size if b.info.size > 0 else _MIN_BYTES, f"{what} '{b.info.name}'")
                _, ret = acl.mdl.add_dataset_buffer(ds, b.buf)
                check(ret, "aclmdlAddDatasetBuffer", f"preparing the {what} dataset")

    def _describe(self, i: int, output: bool) -> _Buf:
        mdl, desc = acl.mdl, self._desc
        dims, ret = (mdl.get_output_dims if output else mdl.get_input_dims)(desc, i)
        check(ret, "aclmdlGetOutputDims" if output else "aclmdlGetInputDims", "describing the model")
        name = (mdl.get_output_name_by_index if output else mdl.get_input_name_by_index)(desc, i) or dims["name"]
        acl_dtype = (mdl.get_output_data_type if output else mdl.get_input_data_type)(desc, i)
        fmt = (mdl.get_output_format if output else mdl.get_input_format)(desc, i)
        size = (mdl.get_output_size_by_index if output else mdl.get_input_size_by_index)(desc, i)
        np_name = _acl.DTYPE_NUMPY.get(acl_dtype)
        dtype = np.dtype(np_name) if np_name else None
        itemsize = dtype.itemsize if dtype is not None else (acl.data_type_size(acl_dtype) if acl_dtype >= 0 else 0)
        shape: Optional[Tuple[int, ...]] = tuple(int(d) for d in dims["dims"])
        if not shape and size == 0 and acl_dtype != 13:
            shape = None  # no dims and no size: the model does not declare the shape (a scalar has a size)
        info = TensorInfo(name, i, shape, dtype, acl_dtype, _acl.FORMAT_NAMES.get(fmt, str(fmt)), int(size))
        return _Buf(info, fmt, itemsize)

    def _alloc(self, b: _Buf, nbytes: int, what: str) -> None:
        """Gives b a device buffer of nbytes (replacing a smaller one); its data buffer says nbytes."""
        dev, ret = acl.rt.malloc(nbytes, _acl.ACL_MEM_MALLOC_HUGE_FIRST)
        check(ret, "aclrtMalloc", f"allocating {nbytes} bytes of device memory for {what}")
        old = b.dev
        if b.buf:
            ret = acl.update_data_buffer(b.buf, dev, nbytes)
            if ret != 0:
                acl.rt.free(dev)
                check(ret, "aclUpdateDataBuffer", f"preparing {what}")
        else:
            b.buf = acl.create_data_buffer(dev, nbytes)
            if not b.buf:
                acl.rt.free(dev)
                raise AclError(_acl.ACL_ERROR_INVALID_PARAM, "aclCreateDataBuffer", context=f"preparing {what}")
        b.dev, b.cap, b.nbytes = dev, nbytes, nbytes
        if old:
            acl.rt.free(old)

    # --- description ---------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def model_id(self) -> int:
        """The ACL model id (for acl.mdl calls of your own); 0 once closed."""
        return self._model_id

    @property
    def context(self) -> int:
        """The Session's ACL context (acl.rt.set_context(s.context) to use it yourself); 0 once closed."""
        return self._ctx

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"model_id={self._model_id}"
        return f"<openacl.Session {self.model_path!r} device={self.device} {state}>"

    # --- running -------------------------------------------------------------

    def run(self, inputs: Inputs) -> List[np.ndarray]:
        """Runs the model once; returns the outputs as new numpy arrays, in the model's order.

        ``inputs``: a list (or tuple) of arrays in the model's input order, a
        dict ``{input name: array}``, or one array for a one-input model.
        Each array must have the input's dtype (TypeError otherwise: no
        silent conversion; lists and scalars are converted to it) and its
        shape, any size where the model leaves a dimension open (ValueError
        for a wrong rank or size, a wrong number of inputs, a missing or
        unknown name).  Raises AclError when the execution fails and
        RuntimeError once the Session is closed.
        """
        arrays = self._prepare(inputs)
        with self._lock:
            if self._closed:
                raise self._closed_error()
            return self._execute(arrays)

    def run_async(self, inputs: Inputs) -> "Future[List[np.ndarray]]":
        """Starts ``run(inputs)`` on the Session's worker thread; returns a Future of the outputs.

        The inputs are checked now (the same errors as ``run``, raised here);
        execution errors come out of ``future.result()``.  The arrays must
        not change until the future is done.  Runs queue up in call order;
        ``close()`` waits for them.
        """
        arrays = self._prepare(inputs)
        with self._lock:
            if self._closed or self._closing:
                raise self._closed_error()
            if self._executor is None:
                self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="openacl-session")
            return self._executor.submit(self._run_prepared, arrays)

    def _run_prepared(self, arrays: List[np.ndarray]) -> List[np.ndarray]:
        with self._lock:
            if self._closed:
                raise self._closed_error()
            return self._execute(arrays)

    def _closed_error(self) -> RuntimeError:
        return RuntimeError(f"this Session of '{self.model_path}' is closed; create a new Session to run the model")

    def _prepare(self, inputs: Inputs) -> List[np.ndarray]:
        """The input arrays in model order, checked, C-contiguous."""
        bufs = self._in
        if isinstance(inputs, np.ndarray):
            if len(bufs) != 1:
                raise ValueError(f"model '{self.model_path}' has {self._count_inputs()}; pass a list of arrays in "
                                 "that order or a dict {name: array}, not one array")
            items: Sequence[Any] = (inputs,)
        elif isinstance(inputs, Mapping):
            unknown = [k for k in inputs if k not in self._in_by_name]
            if unknown:
                raise ValueError(f"unknown input {', '.join(repr(k) for k in unknown)}: model '{self.model_path}' "
                                 f"has {self._count_inputs()}")
            missing = [b.info.name for b in bufs if b.info.name not in inputs]
            if missing:
                raise ValueError(f"missing input {', '.join(repr(k) for k in missing)}: model '{self.model_path}' "
                                 f"has {self._count_inputs()}")
            items = [inputs[b.info.name] for b in bufs]
        elif isinstance(inputs, (list, tuple)):
            if len(inputs) != len(bufs):
                raise ValueError(f"{len(inputs)} input{'s' if len(inputs) != 1 else ''} given, but model "
                                 f"'{self.model_path}' has {self._count_inputs()}")
            items = inputs
        else:
            raise TypeError("run() takes a list of arrays in the model's input order, a dict {input name: array} "
                            f"or one array for a one-input model, not {type(inputs).__name__}")
        out = []
        for b, a in zip(bufs, items):
            if not isinstance(a, np.ndarray):
                a = self._convert(b, a)
            want = b.info.dtype
            if want is None or a.dtype != want:  # (a dtype compares equal to None when it is float64)
                self._check_dtype(b, a)
            if a.shape != b.ok_shape:
                self._check_shape(b, a.shape)
                b.ok_shape = a.shape
            if not a.flags.c_contiguous:
                a = np.ascontiguousarray(a)
            out.append(a)
        return out

    def _count_inputs(self) -> str:
        n = len(self._in)
        names = ", ".join(str(b.info) for b in self._in)
        return f"{n} input{'s' if n != 1 else ''} ({names})" if n else "no inputs"

    def _convert(self, b: _Buf, value: Any) -> np.ndarray:
        info = b.info
        if info.dtype is None:
            raise TypeError(f"input '{info.name}' is {info.type_name}: pass a numpy array of {b.itemsize}-byte "
                            f"items holding its raw bits ({b.np_dtype}), not {type(value).__name__}")
        try:
            return np.asarray(value, dtype=info.dtype)
        except (TypeError, ValueError, OverflowError) as exc:
            raise TypeError(f"input '{info.name}' expects {info.type_name} data; {type(value).__name__} "
                            f"could not be converted: {exc}") from None

    def _check_dtype(self, b: _Buf, a: np.ndarray) -> None:
        info = b.info
        if info.dtype is None:
            # bfloat16 and friends: items of the right size holding the raw bits (uint16, ml_dtypes.bfloat16 ...)
            if b.itemsize and a.dtype.itemsize == b.itemsize and a.dtype.kind in "uifV" and a.dtype.isnative:
                return
            raise TypeError(f"input '{info.name}' expects {info.type_name} (its raw bits as {b.np_dtype} or "
                            f"another {b.itemsize}-byte type), got a {a.dtype} array")
        raise TypeError(f"input '{info.name}' expects {info.type_name}, got a {a.dtype} array "
                        f"(convert it with .astype(numpy.{info.dtype}))")

    def _check_shape(self, b: _Buf, shape: Tuple[int, ...]) -> None:
        info = b.info
        want = info.shape
        if want is None:
            return
        if len(shape) != len(want):
            raise ValueError(f"input '{info.name}' expects {len(want)} dimension{'s' if len(want) != 1 else ''} "
                             f"{_fmt_model_shape(want)}, got {len(shape)}: shape {_fmt_shape(shape)}")
        for k, (got, exp) in enumerate(zip(shape, want)):
            if exp >= 0 and got != exp:
                raise ValueError(f"input '{info.name}' expects shape {_fmt_model_shape(want)}, got "
                                 f"{_fmt_shape(shape)}: dimension {k} must be {exp}, not {got}")

    def _execute(self, arrays: List[np.ndarray]) -> List[np.ndarray]:
        """One run; called with the lock held and the Session open."""
        rt = acl.rt
        check(rt.set_context(self._ctx), "aclrtSetCurrentContext", "making the Session's context current")
        memcpy = rt.memcpy
        staged = True
        for b, a in zip(self._in, arrays):
            if a.shape != b.shape:
                self._stage(b, a)
                staged = False
            n = a.nbytes
            if n:
                ret = memcpy(b.dev, b.cap, a.__array_interface__["data"][0], n, _H2D)
                if ret:
                    check(ret, "aclrtMemcpy", f"copying input '{b.info.name}' to the device")
        if not staged:
            self._size_outputs(arrays)
        ret = acl.mdl.execute(self._model_id, self._ds_in, self._ds_out)
        if ret:
            ret = self._retry(ret)
        outs = []
        for i, b in enumerate(self._out):
            info = b.info
            if b.dynamic:
                shape, dtype = self._output_shape(i, b)
            else:
                shape, dtype = info.shape, b.np_dtype
                if dtype is None:
                    raise TypeError(f"output '{info.name}' is {info.type_name}, which numpy has no dtype for")
            arr = np.empty(shape, dtype)  # type: ignore[arg-type]
            n = arr.nbytes
            if n:
                if n > b.cap:
                    raise AclError(_acl.ACL_ERROR_MODEL_OUTPUT_NOT_MATCH, "aclmdlExecute",
                                   f"output '{info.name}' came out as {_fmt_shape(arr.shape)} ({n} bytes), more "
                                   f"than its {b.cap}-byte buffer", context=f"running model '{self.model_path}'")
                ret = memcpy(arr.__array_interface__["data"][0], n, b.dev, n, _D2H)
                if ret:
                    check(ret, "aclrtMemcpy", f"copying output '{info.name}' from the device")
            outs.append(arr)
        return outs

    def _stage(self, b: _Buf, a: np.ndarray) -> None:
        """Gives input b the buffer size (and, when dynamic, the descriptor) of a's shape."""
        n = a.nbytes
        what = f"input '{b.info.name}'"
        if n > b.cap:
            self._alloc(b, max(n, _MIN_BYTES), what)
        if b.nbytes != n:
            check(acl.update_data_buffer(b.buf, b.dev, n), "aclUpdateDataBuffer", f"preparing {what}")
            b.nbytes = n
        if b.dynamic:
            desc = acl.create_tensor_desc(b.info.acl_dtype, list(a.shape), b.fmt)
            if not desc:
                raise AclError(_acl.ACL_ERROR_INVALID_PARAM, "aclCreateTensorDesc",
                               context=f"giving {what} its shape {_fmt_shape(a.shape)}")
            try:
                _, ret = acl.mdl.set_dataset_tensor_desc(self._ds_in, desc, b.info.index)
            finally:
                acl.destroy_tensor_desc(desc)
            check(ret, "aclmdlSetDatasetTensorDesc", f"giving {what} its shape {_fmt_shape(a.shape)}")
        b.shape = a.shape

    def _size_outputs(self, arrays: List[np.ndarray]) -> None:
        """Buffers for outputs the model leaves open, estimated from the input shapes (the
        first open dimension takes the batch, the others the largest input dimension; an
        output of unknown rank, the inputs' bytes).  An estimate is a first guess: when it
        cannot be allocated the buffer stays as it is, and _retry grows buffers that the
        model finds too small."""
        batch, largest, total = 1, 1, 0
        for a in arrays:
            total += a.nbytes
            if a.ndim:
                batch = max(batch, a.shape[0])
                largest = max(largest, max(a.shape))
        for b in self._out:
            if not b.dynamic:
                continue
            shape = b.info.shape
            if shape is None:
                need = total
            else:
                need = b.itemsize or 8
                for k, d in enumerate(shape):
                    need *= d if d >= 0 else (batch if k == 0 else largest)
            if need > b.cap:
                try:
                    self._alloc(b, max(need, _MIN_BYTES), f"output '{b.info.name}'")
                except AclError:
                    pass  # a guess too big for the device: the execution says what it needs

    def _retry(self, ret: int) -> int:
        """After a failed execution: grows the open outputs' buffers while the model says they are
        too small (ACL_ERROR_MODEL_OUTPUT_NOT_MATCH), running again; raises on any other failure."""
        grows = 0
        while ret == _acl.ACL_ERROR_MODEL_OUTPUT_NOT_MATCH and grows < 12:
            growable = [b for b in self._out if b.dynamic and b.cap < (1 << 34)]
            if not growable:
                break
            acl.get_recent_err_msg()  # the too-small message is answered by growing
            for b in growable:
                self._alloc(b, b.cap * 4, f"output '{b.info.name}'")
            grows += 1
            ret = acl.mdl.execute(self._model_id, self._ds_in, self._ds_out)
        if ret:
            raise AclError(ret, "aclmdlExecute", context=f"running model '{self.model_path}'")
        return ret

    def _output_shape(self, i: int, b: _Buf) -> Tuple[Tuple[int, ...], Any]:
        """The shape and dtype the execution gave output i (from its descriptor in the output dataset)."""
        d = acl.mdl.get_dataset_tensor_desc(self._ds_out, i)
        if not d:
            if b.info.shape is None or b.np_dtype is None:
                raise AclError(_acl.ACL_ERROR_MODEL_OUTPUT_NOT_MATCH, "aclmdlGetDatasetTensorDesc",
                               f"the execution left no shape for output '{b.info.name}'",
                               context=f"running model '{self.model_path}'")
            return b.info.shape, b.np_dtype
        rank = acl.get_tensor_desc_num_dims(d)
        shape = tuple(acl.get_tensor_desc_dim(d, k) for k in range(rank))
        dtype = b.np_dtype
        if b.info.dtype is None:  # undeclared or a type numpy lacks: the one the execution gave
            t = acl.get_tensor_desc_type(d)
            np_name = _acl.DTYPE_NUMPY.get(t)
            dtype = np.dtype(np_name) if np_name else _raw_dtype(acl.data_type_size(t) if t >= 0 else 0)
            if dtype is None:
                raise TypeError(f"output '{b.info.name}' is {_acl.DTYPE_OTHER.get(t, t)}, which numpy has no "
                                "dtype for")
        return shape, dtype

    # --- closing -------------------------------------------------------------

    def close(self) -> None:
        """Waits for queued run_async calls, then releases everything in the documented order.

        Idempotent; never raises for ACL failures (ACL may already be
        finalized by the program).
        """
        with self._lock:
            self._closing = True
            executor = self._executor
        if executor is not None:
            in_worker = threading.current_thread().name.startswith("openacl-session")
            executor.shutdown(wait=not in_worker)
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._executor = None
            _runtime.unregister(self)
            try:
                self._release()
            finally:
                if self._acquired:
                    self._acquired = False
                    _runtime.release()

    def _release(self) -> None:
        rt, mdl = acl.rt, acl.mdl
        failed = 0  # a failing call (ACL finalized by the program, say) changes nothing: go on
        if self._ctx:
            failed |= rt.set_context(self._ctx)  # unload and free belong to this context
        if self._ds_in or self._ds_out or any(b.buf or b.dev for b in self._in + self._out):
            for ds in (self._ds_in, self._ds_out):
                if ds:
                    failed |= mdl.destroy_dataset(ds)
            self._ds_in = self._ds_out = 0
            for b in self._in + self._out:
                if b.buf:
                    failed |= acl.destroy_data_buffer(b.buf)
                if b.dev:
                    failed |= rt.free(b.dev)
                b.buf = b.dev = b.cap = 0
            _log.debug("released: datasets and device buffers")
        if self._model_id:
            failed |= mdl.unload(self._model_id)
            _log.debug("released: model %d unloaded", self._model_id)
            self._model_id = 0
        if self._desc:
            failed |= mdl.destroy_desc(self._desc)
            self._desc = 0
            _log.debug("released: model description")
        if self._ctx:
            failed |= rt.destroy_context(self._ctx)
            self._ctx = 0
            _log.debug("released: context")
        if self._device_set:
            failed |= rt.reset_device(self.device)
            self._device_set = False
            _log.debug("released: device %d reset", self.device)
        if failed:
            acl.get_recent_err_msg()  # their messages would otherwise show in the next AclError

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        if getattr(self, "_closed", True) or _runtime is None or acl is None:
            return
        try:
            self.close()
        except Exception:
            pass
