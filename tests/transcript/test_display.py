"""``acp_terminal.safe_display`` against the shared hostile corpus tests/display/corpus.json:
the same expected output as Rust and TypeScript.

Run with ``python -m pytest tests/transcript`` from the repository root (the generated package
on ``PYTHONPATH``).
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from acp_terminal import safe_display

ROOT = Path(__file__).resolve().parents[2]
CORPUS: dict[str, Any] = json.loads((ROOT / "tests" / "display" / "corpus.json").read_text(encoding="utf-8"))


def test_enough_cases() -> None:
    assert len(CORPUS["cases"]) >= 40


@pytest.mark.parametrize("case", CORPUS["cases"], ids=lambda c: str(c["name"]))
def test_hostile_corpus(case: dict[str, str]) -> None:
    assert safe_display(case["input"]) == case["expect"]


@pytest.mark.parametrize("case", CORPUS["lone_surrogates"], ids=lambda c: str(c["name"]))
def test_lone_surrogates(case: dict[str, Any]) -> None:
    units: list[int] = case["units"]
    text = b"".join(u.to_bytes(2, "little") for u in units).decode("utf-16-le", "surrogatepass")
    assert safe_display(text) == case["expect"]


def test_the_output_is_one_line_without_controls_or_invisible_characters() -> None:
    every = "".join(chr(cp) for cp in range(sys.maxunicode + 1))
    out = safe_display(every)
    # What remains unescaped: no control, format, separator or non-U+0020 space character.
    bad = re.compile("[\x00-\x1f\x7f-\xa0\xad\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff\ud800-\udfff]")
    assert bad.search(out) is None
    for c in set(out):
        assert unicodedata.category(c) not in {"Cc", "Cf", "Zl", "Zp", "Cs"}, repr(c)
