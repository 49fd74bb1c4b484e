"""What generated models share: the pydantic base, MISSING, unknown members and variants, the wire rules in pydantic.

``WireModel.model_validate``/``model_validate_json``, and ``TypeAdapter(...)`` of the
generated unions, enums and named strings, run the generated decoders: pydantic
validation of wire data is exactly as strict as ``parse_<name>``."""

from __future__ import annotations

from collections.abc import Callable, Container
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Self, TypeGuard, TypeVar

from pydantic import (
    MISSING,
    BaseModel,
    ConfigDict,
    ModelWrapValidatorHandler,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    model_validator,
)
from pydantic.config import ExtraValues
from pydantic_core import InitErrorDetails, PydanticCustomError

from .decode import Cx, decode_value
from .errors import DecodeError, ParseError, Problem
from .json import Json, JsonObject, check_value, parse_json

__all__ = [
    "MISSING",
    "TAGLESS_TAG",
    "UNKNOWN_TAG",
    "UnknownVariant",
    "WireModel",
    "construct",
    "discriminator",
    "extra_of",
    "is_unknown_variant",
    "members_except",
    "no_payload",
    "register_decoders",
    "unknown_from",
    "unknown_variant",
    "wire_rules",
    "with_extra",
]

_BUILDING: ContextVar[bool] = ContextVar("acp_terminal_building", default=False)
"""Set while a model is built from Python values (``Model(field=...)``): pydantic's own
validation then applies, not the wire rules (values are already ``bytes``, ...)."""

_DECODERS: dict[type[BaseModel], Callable[[Json, Cx], Any]] = {}
"""Per generated model class: the wire decoder ``model_validate`` runs (a union variant's
class maps to its union's decoder)."""


def register_decoders(decoders: dict[type[BaseModel], Callable[[Json, Cx], Any]]) -> None:
    """Called by each generated module: the wire decoder of each of its model classes."""
    _DECODERS.update(decoders)


def _loc(path: str) -> tuple[str | int, ...]:
    """An RFC 6901 pointer as a pydantic ``loc`` (array indexes as ``int``)."""
    if path == "":
        return ()
    out: list[str | int] = []
    for token in path[1:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        out.append(int(token) if token.isdigit() and (token == "0" or token[0] != "0") else token)
    return tuple(out)


def validation_error(problem: Problem, title: str, input_value: Any) -> ValidationError:
    """A pydantic ``ValidationError`` carrying a wire problem: its ``type`` is the
    problem's kind (``invalid_base64``, ``relative_path``, ...), its ``loc`` the JSON
    pointer's tokens, its message the problem's sentence and pointer; ``ctx`` holds
    ``kind``, ``pointer`` and ``message``: the problem, as ``ParseError`` has it."""
    error = PydanticCustomError(
        problem.kind,
        "{message}" if problem.path == "" else "{message} (at {pointer})",
        {"kind": problem.kind, "pointer": problem.path, "message": problem.message},
    )
    details: list[InitErrorDetails] = [{"type": error, "loc": _loc(problem.path), "input": input_value}]
    return ValidationError.from_exception_data(title, details)


def _wire_decode(data: Any, decode: Callable[[Json, Cx], Any], title: str, from_text: bool) -> Any:
    """Runs ``decode`` on ``data`` as ``parse_<name>`` does. ``from_text``: pydantic
    parsed ``data`` from JSON text (``validate_json``), so what the text itself could
    not hold (NaN, 1e400, too deep) is reported as ``parse_<name>(text)`` reports it:
    ``invalid_json`` at the document root."""
    try:
        return decode_value(data, decode).value
    except ParseError as e:
        problem = e.problem
        if from_text and problem.kind == "invalid_json":
            problem = Problem("invalid_json", "", f"the text is not valid JSON: {problem.message}")
        raise validation_error(problem, title, data) from None


def wire_rules(name: str, decode: Callable[[Json, Cx], Any], *, python_values: bool = False) -> WrapValidator:
    """The ``Annotated`` metadata that makes pydantic validation of a generated type
    alias (a union, a string enum, a named string) apply the wire rules: a JSON value is
    checked and decoded by ``decode`` (the same decoder ``parse_<name>`` runs), then
    handed to pydantic's own validation. While a model is built from Python values the
    decoder is skipped, unless ``python_values`` (strings, which are the same in both)."""

    def validate(v: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo) -> Any:
        if isinstance(v, (BaseModel, UnknownVariant)) or (not python_values and _BUILDING.get()):
            return handler(v)
        return handler(_wire_decode(v, decode, name, info.mode == "json"))

    return WrapValidator(validate)


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

    def __init__(self, /, **data: Any) -> None:
        """Builds a model from Python values (``bytes`` for bytes members, attribute or
        wire names), with pydantic's validation; ``model_validate`` takes wire values."""
        token = _BUILDING.set(True)
        try:
            super().__init__(**data)
        finally:
            _BUILDING.reset(token)

    __init__.__pydantic_base_init__ = True  # type: ignore[attr-defined]

    @model_validator(mode="wrap")
    @classmethod
    def _wire_rules(cls, data: Any, handler: ModelWrapValidatorHandler[Self], info: ValidationInfo) -> Self:
        """``model_validate`` (and pydantic validation of a field of this type) of a JSON
        value applies the wire rules through the generated decoder, exactly as
        ``parse_<name>`` does; a model instance, or building from Python values, goes to
        pydantic."""
        decode = _DECODERS.get(cls)
        if decode is None or _BUILDING.get() or isinstance(data, BaseModel):
            return handler(data)
        out = _wire_decode(data, decode, cls.__name__, info.mode == "json")
        if type(out) is not cls:
            tag = out.tag if isinstance(out, UnknownVariant) else type(out).__name__
            raise validation_error(
                Problem(
                    "wrong_type", "", f"expected a {cls.__name__}, got the variant {tag!r}; validate the union instead"
                ),
                cls.__name__,
                data,
            )
        return out

    @classmethod
    def model_validate_json(
        cls,
        json_data: str | bytes | bytearray,
        *,
        strict: bool | None = None,
        extra: ExtraValues | None = None,
        context: Any | None = None,
        by_alias: bool | None = None,
        by_name: bool | None = None,
    ) -> Self:
        """Parses JSON text with the wire rules (``parse_<name>``'s, repeated member
        names included) and raises pydantic's ``ValidationError`` with the problem."""
        if cls not in _DECODERS:
            return super().model_validate_json(
                json_data, strict=strict, extra=extra, context=context, by_alias=by_alias, by_name=by_name
            )
        try:
            text = json_data if isinstance(json_data, str) else bytes(json_data).decode("utf-8")
        except UnicodeDecodeError as e:
            problem = Problem("invalid_json", "", f"the text is not valid UTF-8: {e.reason} at byte {e.start}")
            raise validation_error(problem, cls.__name__, json_data) from None
        try:
            value = parse_json(text)
        except DecodeError as e:
            raise validation_error(e.problem, cls.__name__, json_data) from None
        return cls.model_validate(
            value, strict=strict, extra=extra, context=context, by_alias=by_alias, by_name=by_name
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


TAGLESS_TAG = "__tagless__"
"""The pydantic tag of a union's variant without a tag (chosen when the tag member is
absent, and for an unknown tag when the union has no catch-all)."""


def discriminator(
    tag_name: str,
    attr: str,
    known: tuple[str, ...],
    *,
    open_union: bool,
    tagless: bool = False,
    optional_tag: str | None = None,
) -> Callable[[Any], str | None]:
    """A callable discriminator for pydantic validation of a tagged union: the variant
    named by the tag member (``tag_name`` in a dict, ``attr`` on a model); for an open
    union, any other string tag selects the fallback branch, so a known tag with a bad
    payload is still an error, never unknown. With a ``tagless`` variant, an object
    without the tag member selects it (and so does an unknown tag when the union is not
    open); with an ``optional_tag`` (``"strict"`` or ``"lenient"``), so does a ``null``
    tag, and, when lenient, a tag that is not a string. ``None`` (no branch) when the tag
    is missing or not a string."""

    absent = object()

    def tag_of(v: Any) -> str | None:
        if isinstance(v, UnknownVariant):
            return UNKNOWN_TAG if open_union else None
        if isinstance(v, dict):
            tag = v.get(tag_name, absent)
        elif isinstance(v, WireModel):
            tag = getattr(v, attr, absent)
        else:
            return None
        if tag is absent or (optional_tag is not None and tag is None):
            return TAGLESS_TAG if tagless else None
        if not isinstance(tag, str):
            return TAGLESS_TAG if tagless and optional_tag == "lenient" else None
        if tag in known:
            return tag
        if open_union:
            return UNKNOWN_TAG
        return TAGLESS_TAG if tagless else None

    return tag_of


def unknown_from(tag_name: str) -> Callable[[Any], Any]:
    """A before-validator for an open union's fallback branch: a JSON object becomes an
    ``UnknownVariant`` keeping its tag and every other member, in order."""

    def convert(v: Any) -> Any:
        if isinstance(v, dict) and isinstance(v.get(tag_name), str):
            try:
                check_value(v)
            except DecodeError as e:
                raise ValueError(str(e)) from None
            return unknown_variant(v[tag_name], v, tag_name)
        return v

    return convert
