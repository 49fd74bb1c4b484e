"""What generated models share: the pydantic base, the MISSING sentinel, unknown members and variants."""

from __future__ import annotations

from collections.abc import Callable, Container
from dataclasses import dataclass
from typing import Any, TypeGuard, TypeVar

from pydantic import MISSING, BaseModel, ConfigDict

from .json import JsonObject

__all__ = [
    "MISSING",
    "UnknownVariant",
    "WireModel",
    "construct",
    "discriminator",
    "extra_of",
    "is_unknown_variant",
    "members_except",
    "no_payload",
    "unknown_from",
    "unknown_variant",
    "with_extra",
]


class WireModel(BaseModel):
    """The base of every generated model.

    Unknown members of a known object are kept in ``__pydantic_extra__`` (``extra="allow"``),
    in input order, and written back after the known members. Fields are named in
    snake_case with the wire name as alias; both names are accepted when validating, and
    ``model_dump(by_alias=True)`` is the default. Patch members are ``T | None | MISSING``:
    ``MISSING`` (the default) means "unchanged" and is left out of every dump.

    The wire format (strict parsing, canonical output) is the generated
    ``parse_<name>``/``serialize_<name>`` functions' business, not pydantic's: pydantic's
    own ``model_validate_json``/``model_dump_json`` are not strict, not canonical, and
    (with ``ser_json_bytes="base64"``) would write URL-safe base64, so none of that is
    configured here.
    """

    model_config = ConfigDict(
        # Parsing goes through the generated decoders and `construct`, so pydantic's
        # validator and serializer are only built when first used (import stays fast).
        defer_build=True,
        extra="allow",
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
    )


M = TypeVar("M", bound=BaseModel)

_new = object.__new__
_setattr = object.__setattr__
_NONE_DEFAULTS: dict[type[BaseModel], frozenset[str]] = {}
"""Per model class: the fields whose default is ``None`` (optional, not patch, members)."""


def _none_defaults(cls: type[BaseModel]) -> frozenset[str]:
    names = frozenset(name for name, field in cls.model_fields.items() if field.default is None)
    _NONE_DEFAULTS[cls] = names
    return names


def construct(
    cls: type[M], values: dict[str, Any], extra: JsonObject | None = None, fields_set: set[str] | None = None
) -> M:
    """Builds a model from checked values without validation, faster than
    ``model_construct``: ``values`` must hold *every* field of ``cls`` by attribute name
    (no defaults are filled in, no aliases are looked up) and becomes the instance's
    ``__dict__``. ``extra`` becomes ``__pydantic_extra__`` (unknown members, in input
    order).

    ``fields_set`` (``model_fields_set``, what ``exclude_unset`` keeps) defaults to what
    was on the wire: every field except those that are ``MISSING`` (an omitted patch
    member) and those that are ``None`` where ``None`` is the default (an omitted or
    ``null`` optional member; a patch member's ``None``, "clear", counts as set)."""
    m = _new(cls)
    setattr_ = _setattr
    setattr_(m, "__dict__", values)
    if fields_set is None:
        none_defaults = _NONE_DEFAULTS.get(cls)
        if none_defaults is None:
            none_defaults = _none_defaults(cls)
        fields_set = {k for k, v in values.items() if v is not MISSING and (v is not None or k not in none_defaults)}
    setattr_(m, "__pydantic_fields_set__", fields_set)
    setattr_(m, "__pydantic_extra__", extra if extra is not None else {})
    setattr_(m, "__pydantic_private__", None)
    return m


def extra_of(model: BaseModel) -> JsonObject:
    """The unknown members of a model, in input order (empty when there are none)."""
    extra = model.__pydantic_extra__
    return extra if extra is not None else {}


def with_extra(model: M, extra: JsonObject | None) -> M:
    """Replaces a model's unknown members (in place) and returns the model."""
    object.__setattr__(model, "__pydantic_extra__", extra if extra is not None else {})
    return model


def members_except(obj: JsonObject, names: Container[str]) -> JsonObject:
    """The members of ``obj`` other than those named in ``names``, in input order."""
    return {k: v for k, v in obj.items() if k not in names}


@dataclass(frozen=True, slots=True)
class UnknownVariant:
    """A union variant this version does not know: its tag and every other member, in
    input order, written back unchanged (tag first)."""

    tag: str
    """The tag value."""
    members: JsonObject
    """Every member except the tag, in input order."""


def unknown_variant(tag: str, obj: JsonObject, tag_name: str) -> UnknownVariant:
    """Builds an unknown variant from an object, leaving out its tag member."""
    return UnknownVariant(tag, members_except(obj, (tag_name,)))


def is_unknown_variant(v: object) -> TypeGuard[UnknownVariant]:
    """Whether a union value is a variant this version does not know."""
    return type(v) is UnknownVariant


def no_payload(cls: type[M], obj: JsonObject, tag_name: str) -> M:
    """A tag-only variant: an instance of ``cls`` with its defaults (the tag) and the
    object's other members as unknown members, in input order."""
    out = cls.model_construct()
    object.__setattr__(out, "__pydantic_extra__", {k: v for k, v in obj.items() if k != tag_name})
    return out


UNKNOWN_TAG = "__unknown__"
"""The pydantic tag of an open union's fallback branch (``UnknownVariant``)."""


def discriminator(tag_name: str, attr: str, known: tuple[str, ...], *, open_union: bool) -> Callable[[Any], str | None]:
    """A callable discriminator for pydantic validation of a tagged union: the variant
    named by the tag member (``tag_name`` in a dict, ``attr`` on a model); for an open
    union, any other string tag selects the fallback branch, so a known tag with a bad
    payload is still an error, never unknown. ``None`` (no branch) when the tag is
    missing or not a string."""

    def tag_of(v: Any) -> str | None:
        if isinstance(v, UnknownVariant):
            return UNKNOWN_TAG if open_union else None
        tag = v.get(tag_name) if isinstance(v, dict) else getattr(v, attr, None)
        if not isinstance(tag, str):
            return None
        if tag in known:
            return tag
        return UNKNOWN_TAG if open_union else None

    return tag_of


def unknown_from(tag_name: str) -> Callable[[Any], Any]:
    """A before-validator for an open union's fallback branch: a JSON object becomes an
    ``UnknownVariant`` keeping its tag and every other member, in order."""

    def convert(v: Any) -> Any:
        if isinstance(v, dict) and isinstance(v.get(tag_name), str):
            return unknown_variant(v[tag_name], v, tag_name)
        return v

    return convert
