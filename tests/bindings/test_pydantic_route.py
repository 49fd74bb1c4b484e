"""The pydantic route is as strict as ``parse_*``: every decode vector goes through
``parse_<name>`` and through pydantic (``TypeAdapter(T).validate_python``,
``validate_json``, and for model classes ``Model.model_validate`` and
``Model.model_validate_json``), and both must accept or reject alike, with the same
kind and JSON pointer, and give equal values.

The one documented difference: pydantic's own JSON parser (used by
``TypeAdapter.validate_json``) keeps the last of a repeated member name before any
validator can see it, so there the outcome is that of the de-duplicated value;
``Model.model_validate_json`` and ``parse_*`` reject the text."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError

from acp_terminal import ParseError, v1, v2
from acp_terminal._runtime.writer import Writer
from acp_terminal.registry import CODECS

VECTORS = Path(__file__).resolve().parents[1] / "vectors"
MODULES = {"v1": v1, "v2": v2}


@dataclass(frozen=True)
class Case:
    id: str
    schema: str
    type_name: str
    text: str


def _text(c: dict[str, Any]) -> str:
    if isinstance(c.get("inputText"), str):
        return str(c["inputText"])
    w = Writer()
    w.value(c["input"])
    return w.finish()


def decode_cases() -> list[Case]:
    out: list[Case] = []
    for f in sorted(VECTORS.rglob("*.json")):
        doc = json.loads(f.read_text(encoding="utf-8"))
        if not isinstance(doc, dict):
            continue
        for c in doc.get("cases", []):
            if c.get("kind") != "decode" or ("input" not in c and "inputText" not in c):
                continue
            rel = f.relative_to(VECTORS).as_posix()
            out.append(Case(f"{rel}: {c.get('name')}", c.get("schema", "v2"), c["type"], _text(c)))
    return out


CASES = decode_cases()


@cache
def adapter(schema: str, type_name: str) -> TypeAdapter[Any]:
    return TypeAdapter(getattr(MODULES[schema], type_name))


@dataclass(frozen=True)
class Outcome:
    """Accepted (``value``, canonical ``text``) or rejected (``kind``, ``path``)."""

    value: Any = None
    text: str | None = None
    kind: str | None = None
    path: str | None = None


def by_parse(case: Case, data: Any) -> Outcome:
    """``parse_<name>(data)``; a parsed value that is a string is passed as its text
    (``parse_*`` reads a ``str`` as JSON text)."""
    parse, serialize = CODECS[case.schema][case.type_name]
    if isinstance(data, str) and data is not case.text:
        data = case.text
    try:
        value = parse(data).value
    except ParseError as e:
        return Outcome(kind=e.kind, path=e.path)
    return Outcome(value=value, text=serialize(value))


def pointer(loc: tuple[str | int, ...]) -> str:
    return "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in loc)


def by_pydantic(case: Case, validate: Callable[[], Any]) -> Outcome:
    _, serialize = CODECS[case.schema][case.type_name]
    try:
        value = validate()
    except ValidationError as e:
        errors = e.errors()
        assert len(errors) == 1, f"{case.id}: one problem expected, got {errors}"
        err = errors[0]
        if err["type"] == "json_invalid":  # pydantic's own JSON parser said no
            return Outcome(kind="invalid_json", path="")
        ctx = err.get("ctx") or {}
        assert ctx.get("kind") == err["type"], err
        assert pointer(tuple(err["loc"])) == ctx["pointer"], f"{case.id}: loc {err['loc']} is not {ctx['pointer']!r}"
        return Outcome(kind=err["type"], path=ctx["pointer"])
    return Outcome(value=value, text=serialize(value))


def same(case: Case, route: str, want: Outcome, got: Outcome) -> None:
    if want.kind is not None:
        assert (got.kind, got.path) == (want.kind, want.path), (
            f"{case.id} [{route}]: parse_* says {want}, pydantic {got}"
        )
    else:
        assert got.kind is None, f"{case.id} [{route}]: parse_* accepts, pydantic rejects with {got.kind} at {got.path}"
        assert got.value == want.value, f"{case.id} [{route}]: values differ"
        assert type(got.value) is type(want.value), f"{case.id} [{route}]"
        assert got.text == want.text, f"{case.id} [{route}]: canonical bytes differ"


def python_value(text: str) -> tuple[bool, Any]:
    """What ``json.loads`` makes of the text (NaN, lone surrogates and 1e400 included),
    as a caller holding an already parsed value would pass it."""
    try:
        return True, json.loads(text)
    except (ValueError, RecursionError):
        return False, None


def test_every_decode_vector_is_covered() -> None:
    assert len(CASES) > 800  # a floor: the loader must find the vectors
    kinds = {by_parse(c, c.text).kind for c in CASES}
    assert {"invalid_base64", "relative_path", "duplicate_key", "invalid_json", None} <= kinds


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_validate_python_agrees_with_parse(case: Case) -> None:
    ok, value = python_value(case.text)
    if not ok:
        pytest.skip("json.loads rejects the text")
    same(
        case,
        "validate_python",
        by_parse(case, value),
        by_pydantic(case, lambda: adapter(case.schema, case.type_name).validate_python(value)),
    )


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_validate_json_agrees_with_parse(case: Case) -> None:
    want = by_parse(case, case.text)
    if want.kind == "duplicate_key":
        # pydantic's JSON parser keeps the last repeat: the outcome of that value.
        want = by_parse(case, json.loads(case.text))
    same(
        case,
        "validate_json",
        want,
        by_pydantic(case, lambda: adapter(case.schema, case.type_name).validate_json(case.text)),
    )


def model_class(case: Case) -> type[BaseModel] | None:
    t = getattr(MODULES[case.schema], case.type_name)
    return t if isinstance(t, type) and issubclass(t, BaseModel) else None


MODEL_CASES = [c for c in CASES if model_class(c) is not None]


@pytest.mark.parametrize("case", MODEL_CASES, ids=lambda c: c.id)
def test_model_validate_and_model_validate_json_agree_with_parse(case: Case) -> None:
    cls = model_class(case)
    assert cls is not None
    same(
        case,
        "model_validate_json",
        by_parse(case, case.text),
        by_pydantic(case, lambda: cls.model_validate_json(case.text)),
    )
    ok, value = python_value(case.text)
    if ok:
        same(case, "model_validate", by_parse(case, value), by_pydantic(case, lambda: cls.model_validate(value)))
