"""ACL errors as Python exceptions, and ``explain`` for any code or name.

The texts come from the C library's error table (``acl._openacl.error_info``),
the same table ``openacl explain`` prints, so there is no second copy here.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Optional, Tuple, Union

from ._acl import acl

__all__ = ["AclError", "ErrorInfo", "explain", "error_list"]


@dataclass(frozen=True)
class ErrorInfo:
    """One entry of openacl's error table."""

    name: str
    code: int
    meaning: str
    causes: str
    remedy: str
    aliases: Tuple[str, ...] = field(default=())

    def __str__(self) -> str:
        text = f"{self.name} ({self.code})\n"
        if self.aliases:
            text += f"  also named: {', '.join(self.aliases)}\n"
        return text + f"  meaning: {self.meaning}\n  causes:  {self.causes}\n  remedy:  {self.remedy}"


def _info(d: Optional[dict]) -> Optional[ErrorInfo]:
    if not d:
        return None
    aliases = tuple(e["name"] for e in acl._openacl.error_list() if e["code"] == d["code"] and e["name"] != d["name"])
    return ErrorInfo(d["name"], d["code"], d["meaning"], d["causes"], d["remedy"], aliases)


class AclError(Exception):
    """A failed ACL call.

    Attributes:
        code: the aclError value (``107002``).
        name: its name in the error table (``ACL_ERROR_RT_CONTEXT_NULL``),
            ``UNKNOWN_ERROR`` when the table does not have it.
        api: the C function that failed (``aclrtSetDevice``), when known.
        message: what the library recorded for ``acl.get_recent_err_msg()``
            (which argument, which value, which rule), or ``""``.
        meaning, remedy: from the error table (``""`` when unknown).
        context: what the package was doing (``"loading model 'm.onnx'"``).
    """

    def __init__(self, code: int, api: str = "", message: Optional[str] = None, context: str = "") -> None:
        self.code = int(code)
        self.api = api
        self.context = context
        info = acl._openacl.error_info(self.code)
        self.name: str = info["name"] if info else "UNKNOWN_ERROR"
        self.meaning: str = info["meaning"] if info else ""
        self.remedy: str = info["remedy"] if info else ""
        self.causes: str = info["causes"] if info else ""
        self.message: str = message if message is not None else _recent_message(self.code)
        super().__init__(self._text())

    def _text(self) -> str:
        head = f"{self.context}: " if self.context else ""
        head += f"{self.api} failed: " if self.api else ""
        text = f"{head}{self.name} ({self.code})"
        # The library's own message already names the API, the code and the
        # remedy ("aclX failed: NAME (code): cause. Remedy: ..."); keep its cause.
        detail = self.message
        prefix = re.compile(r"^\S+ failed: \S+ \(-?\d+\): ")
        lines = [prefix.sub("", line) for line in detail.splitlines() if line.strip()]
        if lines:
            text += ": " + "; ".join(lines)
        elif self.meaning:
            text += ": " + self.meaning
        if self.remedy and "Remedy:" not in text:
            text += f". Remedy: {self.remedy}"
        return text

    def __reduce__(self):  # picklable (futures, multiprocessing)
        return (_rebuild, (self.code, self.api, self.message, self.context))


def _rebuild(code: int, api: str, message: str, context: str) -> AclError:
    return AclError(code, api, message, context)


def _recent_message(code: int) -> str:
    """The calling thread's unread messages that mention ``code``, newest
    first (all of them when none does); reading clears them."""
    try:
        text = acl.get_recent_err_msg()
    except Exception:  # pragma: no cover - the extension at interpreter exit
        return ""
    if not text:
        return ""
    lines = list(dict.fromkeys(line for line in text.splitlines() if line.strip()))  # unique, newest first
    mine = [line for line in lines if f"({code})" in line]
    return "\n".join(mine or lines)


def check(ret: int, api: str, context: str = "") -> None:
    """Raises AclError unless ``ret`` is ACL_SUCCESS."""
    if ret != 0:
        raise AclError(ret, api, context=context)


def error_list() -> list:
    """Every entry of the error table, in the table's order."""
    return [ErrorInfo(e["name"], e["code"], e["meaning"], e["causes"], e["remedy"]) for e in acl._openacl.error_list()]


_SHORT_PREFIXES = ("ACL_ERROR_RT_", "ACL_ERROR_GE_", "ACL_ERROR_", "ACL_")


def _short(name: str) -> str:
    for p in _SHORT_PREFIXES:
        if name.startswith(p):
            return name[len(p):]
    return name


def explain(code_or_name: Union[int, str]) -> ErrorInfo:
    """What an ACL error code means, its usual causes and the remedy.

    ``code_or_name`` is a code (``107002``, ``"107002"``, ``"0x1a1fa"``) or a
    name in any case, with or without its ``ACL_``, ``ACL_ERROR_``,
    ``ACL_ERROR_RT_`` or ``ACL_ERROR_GE_`` prefix (``"context_null"``), as
    ``openacl explain`` takes it.  Raises ValueError for an unknown code or
    name (suggesting close ones) and TypeError for anything else.
    """
    if isinstance(code_or_name, bool) or not isinstance(code_or_name, (int, str)):
        raise TypeError(f"explain() takes an error code (int) or name (str), not {type(code_or_name).__name__}")
    code: Optional[int] = None
    if isinstance(code_or_name, int):
        code = code_or_name
    else:
        s = code_or_name.strip()
        if re.fullmatch(r"-?0[xX][0-9a-fA-F]+", s):
            code = int(s, 16)
        elif re.fullmatch(r"-?\d+", s):
            code = int(s, 10)
    if code is not None:
        if not -(2**31) <= code < 2**31:
            raise ValueError(f"{code_or_name!r} is out of the range of ACL error codes (a 32-bit int)")
        info = _info(acl._openacl.error_info(code))
        if info is None:
            near = sorted(
                {e["code"]: e["name"] for e in acl._openacl.error_list() if abs(e["code"] - code) < 1000}.items(),
                key=lambda kv: abs(kv[0] - code),
            )[:3]
            hint = ("; the nearest known codes are " + ", ".join(f"{c} ({n})" for c, n in near)) if near else ""
            raise ValueError(f"{code} is not a code in openacl's error table{hint}")
        return info
    key = re.sub(r"[- ]", "_", code_or_name.strip()).upper()
    if not key:
        raise ValueError("explain() needs an error code or name, got an empty string")
    for prefix in ("", "ACL_", "ACL_ERROR_"):
        info = _info(acl._openacl.error_info_by_name(prefix + key))
        if info is not None:
            return info
    rt = _info(acl._openacl.error_info_by_name("ACL_ERROR_RT_" + key))
    ge = _info(acl._openacl.error_info_by_name("ACL_ERROR_GE_" + key))
    if rt is not None and ge is not None:
        raise ValueError(f"{code_or_name!r} is ambiguous: {rt.name} ({rt.code}) or {ge.name} ({ge.code})?")
    if rt is not None or ge is not None:
        return rt if rt is not None else ge  # type: ignore[return-value]
    names = [e["name"] for e in acl._openacl.error_list()]
    candidates = {**{_short(n): n for n in names}, **{n: n for n in names}}
    close = difflib.get_close_matches(key, list(candidates), n=3, cutoff=0.75)
    close += [n for n in names if len(key) >= 4 and key in n and n not in close]
    close = list(dict.fromkeys(candidates.get(c, c) for c in close))[:3]
    hint = f"; did you mean {', '.join(close)}?" if close else "; openacl.error_list() lists every name"
    raise ValueError(f"no error code is named {code_or_name!r}{hint}")
