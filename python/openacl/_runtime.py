"""Process-wide state: ACL initialisation shared with the program, and the open Sessions.

``acquire()`` is one ``acl.init`` and ``release()`` one
``acl.finalize_reference``: the library counts them (the first aclInit
initialises, each later one adds one and returns
ACL_ERROR_REPEAT_INITIALIZE; aclFinalizeReference removes one and tears
down at zero).  So ACL is finalized after the last Session closes only
when nobody else holds it: a program that called ``acl.init`` itself keeps
ACL initialised until its own ``acl.finalize``.
"""
from __future__ import annotations

import atexit
import logging
import os
import re
import warnings
import weakref
from typing import Optional, Tuple

from . import _acl
from ._acl import acl
from .errors import AclError

# Every open Session, closed at interpreter exit before the modules go away.
_live: "weakref.WeakSet" = weakref.WeakSet()
_log = logging.getLogger("openacl")


def acquire(config_path: Optional[str] = None) -> None:
    """One acl.init: initialises ACL, or counts one more holder of it."""
    ret = acl.init(config_path) if config_path else acl.init()
    if ret == _acl.ACL_SUCCESS:
        _log.debug("acl.init done")
        # The library keeps its warnings (an unknown acl.json key, a malformed
        # visibility variable) off stderr unless the log level asks for them;
        # a Python user hears of them as warnings.
        text, wret = acl._openacl.init_warnings()
        for line in text.splitlines() if wret == _acl.ACL_SUCCESS else ():
            warnings.warn("openacl: " + line, RuntimeWarning, stacklevel=3)
    elif ret == _acl.ACL_ERROR_REPEAT_INITIALIZE:
        # Already initialised (by the program or another Session): counted.  A
        # different configuration file is ignored by the library, which says so.
        if config_path:
            msg = acl.get_recent_err_msg()
            if msg:
                warnings.warn(f"ACL was already initialised; acl.init({config_path!r}): {msg}", RuntimeWarning,
                              stacklevel=3)
    else:
        what = f"initialising ACL with {config_path!r}" if config_path else "initialising ACL"
        raise AclError(ret, "aclInit", context=what)


def release() -> None:
    """Undoes one acquire(): ACL is finalized when that was the last holder."""
    count, ret = acl.finalize_reference()
    if ret == _acl.ACL_SUCCESS and count == 0:
        _log.debug("released: acl.finalize done (no other holder)")
    # a failure here (the program finalized ACL already) is nothing to act on


def register(session: object) -> None:
    _live.add(session)


def unregister(session: object) -> None:
    _live.discard(session)


@atexit.register
def _close_all() -> None:
    """Closes what is still open while the interpreter can still run code."""
    for s in list(_live):
        try:
            s.close()  # type: ignore[attr-defined]
        except Exception:
            pass


# --- visibility, without acl.init ------------------------------------------


def visible_devices() -> Tuple[int, str]:
    """How many devices ``acl.init`` will show this process, asked of the
    library without initialising it (openaclGetVisibleDeviceCount: the
    simulated devices after ASCEND_VISIBLE_DEVICES and
    ASCEND_RT_VISIBLE_DEVICES), so that a device id can be checked before
    ``acl.init``.  Returns (count, why): why is "" or the reason every device
    call will fail (a malformed list)."""
    count, ret = acl._openacl.visible_device_count()
    if ret != 0:
        msg = acl.get_recent_err_msg() or ""
        m = re.search(r"no device is visible because (.*?)\. Remedy", msg)
        return 0, m.group(1) if m else msg
    return count, ""


def device_problem(device_id: int) -> str:
    """"" when ``device_id`` will be visible after ``acl.init``, else why not."""
    count, why = visible_devices()
    if why:
        return f"device {device_id} cannot be used: {why}"
    if 0 <= device_id < count:
        return ""
    ids = ", ".join(map(str, range(count)))
    seen = "no device" if count == 0 else f"{count} device{'s' if count != 1 else ''} ({ids})"
    env = ", ".join(
        f"{v}={os.environ[v]!r}"
        for v in ("OPENACL_DEVICE_COUNT", "ASCEND_VISIBLE_DEVICES", "ASCEND_RT_VISIBLE_DEVICES")
        if v in os.environ
    )
    return (f"device {device_id} is not visible: this process sees {seen}"
            f"{' (' + env + ')' if env else ' (OPENACL_DEVICE_COUNT sets how many simulated devices exist)'}")
