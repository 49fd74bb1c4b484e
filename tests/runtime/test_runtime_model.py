"""Tests of what generated models share: WireModel, MISSING, construct, unknown members and unknown variants."""

from __future__ import annotations

import dataclasses
from typing import Literal

import pydantic
import pytest
from pydantic import Field, JsonValue

from runtime import model as model_module
from runtime.model import (
    MISSING,
    UnknownVariant,
    WireModel,
    construct,
    extra_of,
    is_unknown_variant,
    members_except,
    no_payload,
    unknown_variant,
    with_extra,
)


class Thing(WireModel):
    thing_id: str = Field(alias="thingId")
    note: str | None = Field(default=None, alias="note")
    label: str | MISSING | None = Field(default=MISSING, alias="label")
    meta: dict[str, JsonValue] | None = Field(default=None, alias="_meta")


class Ping(WireModel):
    """A tag-only variant."""

    kind: Literal["ping"] = Field(default="ping", alias="type")


class Holder(WireModel):
    item: Ping | UnknownVariant = Field(alias="item")


def test_missing_is_pydantics_sentinel() -> None:
    assert MISSING is pydantic.MISSING
    assert repr(MISSING) == "MISSING"


def test_wire_models_accept_names_and_aliases_and_dump_by_alias() -> None:
    a = Thing(thing_id="t")
    b = Thing.model_validate({"thingId": "t"})
    assert a == b
    assert a.model_dump() == {"thingId": "t", "note": None, "_meta": None}
    assert a.label is MISSING
    c = Thing.model_validate({"thingId": "t", "label": None, "zz": [1, {"b": 2, "a": 1}]})
    assert c.model_dump() == {"thingId": "t", "note": None, "label": None, "_meta": None, "zz": [1, {"b": 2, "a": 1}]}
    assert extra_of(c) == {"zz": [1, {"b": 2, "a": 1}]}
    assert extra_of(a) == {}


def test_construct_builds_without_validation_and_sets_what_was_on_the_wire() -> None:
    t = construct(Thing, {"thing_id": "t", "note": None, "label": None, "meta": None}, {"x": 1})
    assert t.thing_id == "t"
    assert t.label is None
    assert t.__pydantic_extra__ == {"x": 1}
    assert t.model_fields_set == {"thing_id", "label"}
    assert t == Thing.model_validate({"thingId": "t", "label": None, "x": 1})
    u = construct(Thing, {"thing_id": "u", "note": "n", "label": MISSING, "meta": {}})
    assert u.model_fields_set == {"thing_id", "note", "meta"}
    assert u.__pydantic_extra__ == {}
    assert u.model_dump(exclude_unset=True) == {"thingId": "u", "note": "n", "_meta": {}}
    v = construct(Thing, {"thing_id": "v", "note": None, "label": MISSING, "meta": None}, None, {"thing_id"})
    assert v.model_fields_set == {"thing_id"}
    assert Thing in model_module._NONE_DEFAULTS


def test_with_extra_replaces_unknown_members() -> None:
    t = Thing(thing_id="t")
    assert with_extra(t, {"b": 1, "a": 2}) is t
    assert list(extra_of(t)) == ["b", "a"]
    with_extra(t, None)
    assert extra_of(t) == {}


def test_unknown_variant_keeps_every_member_but_the_tag_in_input_order() -> None:
    u = unknown_variant("_x", {"b": 1, "type": "_x", "1": 2, "a": 3}, "type")
    assert u == UnknownVariant("_x", {"b": 1, "1": 2, "a": 3})
    assert list(u.members) == ["b", "1", "a"]
    assert is_unknown_variant(u)
    assert not is_unknown_variant(Ping())
    assert not is_unknown_variant({"tag": "x", "members": {}})
    with pytest.raises(dataclasses.FrozenInstanceError):
        u.tag = "y"  # type: ignore[misc]


def test_no_payload_keeps_the_other_members_as_unknown_ones() -> None:
    p = no_payload(Ping, {"z": 1, "type": "ping", "a": [2]}, "type")
    assert isinstance(p, Ping)
    assert p.kind == "ping"
    assert p.__pydantic_extra__ == {"z": 1, "a": [2]}
    assert no_payload(Ping, {"type": "ping"}, "type").__pydantic_extra__ == {}


def test_members_except() -> None:
    assert members_except({"a": 1, "b": 2, "c": 3}, ("b",)) == {"a": 1, "c": 3}


def test_unknown_variants_can_sit_in_models() -> None:
    h = Holder(item=UnknownVariant("_x", {"a": 1}))
    assert isinstance(h.item, UnknownVariant)
    assert Holder(item=Ping()).item == Ping()
