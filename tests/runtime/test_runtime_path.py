"""Tests of absolute paths: POSIX or Windows form, the cases of schema/tests/wire_rules.rs and the TS runtime."""

from __future__ import annotations

import pytest

from runtime.path import is_absolute_path, why_not_absolute

ABSOLUTE = ["/", "/workspace/project", "C:\\work", "c:/work", "\\\\server\\share", "\\\\server\\share\\dir", "//net/x"]
ABSOLUTE += ["z:\\", "/é"]
RELATIVE = ["", "src", "./src", "C:", "C:src", "\\src", "\\\\server", "\\\\server\\", "~/x", "1:\\x", "\\\\\\share"]
RELATIVE += ["é:/x", " /x", "\\\\\\", "\\\\\\\\", "ß:\\x"]


@pytest.mark.parametrize("path", ABSOLUTE)
def test_absolute(path: str) -> None:
    assert is_absolute_path(path)


@pytest.mark.parametrize("path", RELATIVE)
def test_relative(path: str) -> None:
    assert not is_absolute_path(path)
    assert why_not_absolute(path)


def test_the_reason_says_what_to_write_instead() -> None:
    assert "the path is empty" in why_not_absolute("")
    assert why_not_absolute("C:src") == "`C:src` is relative to the current directory of drive C:; write `C:\\...`"
    assert "drive d:" in why_not_absolute("d:")
    assert "has no drive or server" in why_not_absolute("\\src")
    assert "has no drive or server" in why_not_absolute("\\\\server")
    assert "`src` is relative; paths here must be absolute" in why_not_absolute("src")
