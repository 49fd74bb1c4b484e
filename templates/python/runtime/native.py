"""The optional native path: the Rust transcript and strict base64, when their wheel is installed.

``pip install acp-terminal[native]`` adds the wheel ``acp-terminal-native`` (the Rust transcript
and strict base64 behind the same API), and this package then uses it. Without it, or with the
environment variable ``ACP_TERMINAL_PURE`` set to anything but ``0``, everything stays pure
Python (what a vendoring SDK copies is complete).
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Final

__all__ = ["MODULE", "NATIVE"]

_API: Final = 1
"""The version of the native module's API this package speaks."""


def _load() -> ModuleType | None:
    if os.environ.get("ACP_TERMINAL_PURE", "") not in ("", "0"):
        return None
    try:
        import acp_terminal_native as module  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        return None
    # A wheel of another version of this package is not used.
    return module if getattr(module, "API", None) == _API else None


MODULE: Final = _load()
"""The native module in use, or None."""
NATIVE: Final = MODULE is not None
"""Whether the native path is in use."""
