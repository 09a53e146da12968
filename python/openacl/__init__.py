"""openacl: run models on openacl's (simulated) NPU from Python without pointer arithmetic.

    import numpy as np, openacl
    with openacl.Session("models/shapes/shapes.onnx", device=0) as s:
        print(s.inputs)                      # [TensorInfo(name='image', shape=(-1, 3, 64, 64), ...)]
        scores, = s.run([np.zeros((4, 3, 64, 64), np.float32)])

Everything here is built on the ``acl`` extension module (pyACL's ``import
acl``), so it runs on the same C library as C programs do.  Contents:

- ``Session``: load a model on a device; ``run`` / ``run_async`` with numpy arrays.
- ``AclError``: a failed ACL call, with ``code``, ``name``, ``message`` and ``remedy``.
- ``explain(code_or_name)``: what an error code means (``openacl explain``).
- ``devices()``: the visible devices (``openacl devices``); ``visible_device_count()``
  works them out without ``acl.init``.
- ``python3 -m openacl.infer``: the recipe runner (``openacl.recipes``).
"""
from __future__ import annotations

from .devices import DeviceInfo, devices, visible_device_count
from .errors import AclError, ErrorInfo, error_list, explain
from .session import Inputs, Session, TensorInfo

__all__ = [
    "AclError",
    "DeviceInfo",
    "ErrorInfo",
    "Inputs",
    "Session",
    "TensorInfo",
    "devices",
    "error_list",
    "explain",
    "visible_device_count",
]

__version__ = "0.1.0"
