"""``openacl.devices()``: the devices this process sees, as ``openacl devices`` lists them."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import List, Optional

from . import _acl, _runtime
from ._acl import acl
from .errors import check

__all__ = ["DeviceInfo", "devices", "visible_device_count"]


@dataclass(frozen=True)
class DeviceInfo:
    """One visible device (docs/devices.md).

    ``memory_free`` is None unless ``devices(free_memory=True)`` asked for it:
    reading it brings the device up (``acl.rt.set_device``).
    """

    id: int
    physical_id: int
    backend: str
    soc_name: str
    memory_total: int
    executor_threads: int
    ai_cores: int
    vector_cores: int
    memory_free: Optional[int] = None


def _backend() -> str:
    """The backend's name, as ``openacl devices`` finds it."""
    try:
        text, ret = acl._openacl.effective_config()
    except Exception:  # pragma: no cover - an extension without it
        text, ret = "", 1
    key = '"OPENACL_BACKEND": "'
    if ret == 0 and key in text:
        at = text.index(key) + len(key)
        return text[at:text.index('"', at)]
    return "null" if os.environ.get("OPENACL_BACKEND") == "null" else "cpu"


def _attr(device: int, attr: int, what: str) -> int:
    value, ret = acl.rt.get_device_info(device, attr)
    check(ret, "aclrtGetDeviceInfo", f"reading {what} of device {device}")
    return int(value)


def devices(free_memory: bool = False) -> List[DeviceInfo]:
    """Every device this process sees (after ASCEND_VISIBLE_DEVICES and
    ASCEND_RT_VISIBLE_DEVICES), id order.

    Initialises ACL for the call if the program has not (and finalizes it
    again after, unless a Session or the program holds it).  With
    ``free_memory`` each device is set, its free memory read with
    ``acl.rt.get_mem_info`` and the device reset; the thread's current
    context is restored after.  Raises AclError when the devices cannot be
    listed (a malformed visibility variable, say).
    """
    _runtime.acquire()
    try:
        count, ret = acl.rt.get_device_count()
        check(ret, "aclrtGetDeviceCount", "listing the devices")
        soc = acl.get_soc_name() or ""
        backend = _backend()
        rows = []
        for d in range(count):
            free = _free_memory(d) if free_memory else None
            rows.append(
                DeviceInfo(
                    id=d,
                    physical_id=_attr(d, _acl.ACL_DEV_ATTR_PHY_CHIP_ID, "the physical id"),
                    backend=backend,
                    soc_name=soc,
                    memory_total=_attr(d, _acl.ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, "the memory capacity"),
                    executor_threads=_attr(d, _acl.ACL_DEV_ATTR_AICPU_CORE_NUM, "the executor threads"),
                    ai_cores=_attr(d, _acl.ACL_DEV_ATTR_AICORE_CORE_NUM, "the AI-core count"),
                    vector_cores=_attr(d, _acl.ACL_DEV_ATTR_VECTOR_CORE_NUM, "the vector-core count"),
                    memory_free=free,
                )
            )
        return rows
    finally:
        _runtime.release()


def _free_memory(device: int) -> int:
    ctx, ret = acl.rt.get_context()
    saved = ctx if ret == 0 else 0
    check(acl.rt.set_device(device), "aclrtSetDevice", f"opening device {device}")
    try:
        free, _total, ret = acl.rt.get_mem_info(_acl.ACL_HBM_MEM)
        check(ret, "aclrtGetMemInfo", f"reading the free memory of device {device}")
        return int(free)
    finally:
        acl.rt.reset_device(device)
        if saved:
            acl.rt.set_context(saved)


def visible_device_count() -> int:
    """How many devices ``acl.init`` will show, without ``acl.init``:
    OPENACL_DEVICE_COUNT, ASCEND_VISIBLE_DEVICES and
    ASCEND_RT_VISIBLE_DEVICES as docs/devices.md describes them.  Raises
    ValueError when a visibility variable is malformed (every device call
    would then fail with ACL_ERROR_RT_INVALID_DEVICEID)."""
    count, why = _runtime.visible_devices()
    if why:
        raise ValueError(why)
    return count
