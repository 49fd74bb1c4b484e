"""Absolute paths in POSIX or Windows form."""

from __future__ import annotations

__all__ = [
    "is_absolute_path",
    "why_not_absolute",
]


def _is_ascii_letter(c: str) -> bool:
    return ("a" <= c <= "z") or ("A" <= c <= "Z")


def is_absolute_path(p: str) -> bool:
    """Says whether ``p`` is absolute: POSIX (``/...``), a Windows drive path (``C:\\...``,
    ``C:/...``) or a UNC path (``\\\\server\\share...`` with a non-empty server and share)."""
    if p.startswith("/"):
        return True
    if len(p) >= 3 and p[1] == ":" and (p[2] == "\\" or p[2] == "/") and _is_ascii_letter(p[0]):
        return True
    if p.startswith("\\\\"):
        server = p.find("\\", 2)
        if server < 0:
            return False  # no share at all
        share_end = p.find("\\", server + 1)
        share = len(p) - server - 1 if share_end < 0 else share_end - server - 1
        return server > 2 and share > 0
    return False


def why_not_absolute(p: str) -> str:
    """Explains why ``p`` is not absolute, for an error message."""
    if p == "":
        return "the path is empty; give an absolute path such as `/workspace/project`"
    if len(p) >= 2 and _is_ascii_letter(p[0]) and p[1] == ":":
        drive = p[0]
        return f"`{p}` is relative to the current directory of drive {drive}:; write `{drive}:\\...`"
    if p[0] == "\\":
        return f"`{p}` has no drive or server; write `C:\\...` or `\\\\server\\share\\...`"
    return f"`{p}` is relative; paths here must be absolute (`/...`, `C:\\...` or `\\\\server\\share\\...`)"
