"""The Python runner of ``decode`` cases for any generated package.

(Construct vectors, upstream's literals, the probes, generated values.) ``python
vectors.py PACKAGE`` with the generated package on the path: reads a JSON array of cases
on stdin (``schema`` the package's module, ``type``, ``inputText``, optional ``method``)
and prints one result per case (docs/CONFORMANCE.md, "Runners and the judge").
"""

import importlib
import json
import sys
from typing import Any


def state_result(c: dict[str, Any], package: Any, registry: Any) -> dict[str, Any]:
    """A ``state`` case: the messages applied in order to a new session state (from
    ``initialText`` when given), up to the first that fails."""
    from importlib import import_module

    module = c["schema"]
    if module not in registry.STATE_RULES:
        return {"unsupported": f"schema {module} has no x-state"}
    runtime = import_module(f"{package.__name__}._runtime.state")
    writer = import_module(f"{package.__name__}._runtime.writer")
    try:
        limits = runtime.StateLimits.from_json(c.get("limits", {}))
    except package.ParseError as e:
        return {"unsupported": f"limits at {e.path!r}: {e}"}
    state = runtime.SessionState(registry.STATE_RULES[module], registry.CODECS[module], limits)
    out: dict[str, Any] = {}
    warnings: list[dict[str, str]] = []
    messages = c["messages"]
    if "initialText" in c:
        try:
            state.restore(json.loads(c["initialText"]))
        except package.ParseError as e:
            out["error"] = {"kind": e.kind, "path": f"/initial{e.path}"}
            messages = []
    for i, m in enumerate(messages):
        try:
            ws = state.apply(m["type"], m["inputText"])
        except package.ParseError as e:
            out["error"] = {"kind": e.kind, "path": f"/messages/{i}/message{e.path}"}
            break
        warnings.extend({"kind": w.kind, "path": f"/messages/{i}/message{w.path}"} for w in ws)
    # The state is typed: every target decodes as its definition and writes back as itself.
    try:
        state.check_invariants()
    except AssertionError as e:
        out["invariant"] = str(e)
    w = writer.Writer()
    w.value(state.snapshot())
    out["state"] = w.finish()
    out["warnings"] = warnings
    # What the limits dropped, when they dropped anything (as the store's counters).
    counters = state.counters.to_json()
    if any(counters.values()):
        out["counters"] = counters
    return out


def result(c: dict[str, Any], package: Any, registry: Any) -> dict[str, Any]:
    """What the package gives for one case."""
    if c.get("kind") == "state":
        return state_result(c, package, registry)
    module, type_name, method = c["schema"], c["type"], c.get("method")
    if method is not None:
        table = registry.RESULTS.get(module, {}).get(type_name)
        if table is None:
            return {"unsupported": f"the package has no codec for {type_name} in {module}"}
        decode, serialize_result = table

        def parse(text: str) -> Any:
            return decode(method, json.loads(text))

        def serialize(value: Any) -> str:
            return str(serialize_result(method, value))

        def with_defaults(value: Any) -> Any:
            return value
    else:
        codec = registry.CODECS.get(module, {}).get(type_name)
        if codec is None:
            return {"unsupported": f"the package has no codec for {type_name} in {module}"}
        parse, serialize = codec
        with_defaults = registry.DEFAULTS.get(module, {}).get(type_name, lambda v: v)

    def decoded(text: str) -> dict[str, Any]:
        try:
            p = parse(text)
        except package.ParseError as e:
            return {"error": {"kind": e.kind, "path": e.path}, "message": e.message}
        r = {"output": serialize(p.value), "warnings": [{"kind": w.kind, "path": w.path} for w in p.warnings]}
        r["defaults"] = serialize(with_defaults(p.value))
        return r

    r = decoded(c["inputText"])
    if "output" in r:
        again = decoded(r["output"])
        again.pop("defaults", None)
        r["again"] = again
    return r


def main() -> None:
    """Reads the cases on stdin, prints the results."""
    package = importlib.import_module(sys.argv[1])
    registry = importlib.import_module(f"{sys.argv[1]}.registry")
    print(json.dumps([result(c, package, registry) for c in json.load(sys.stdin)]))


if __name__ == "__main__":
    main()
