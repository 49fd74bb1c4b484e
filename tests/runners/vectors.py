"""The Python runner of the construct vectors and generated values.

(xtask/src/construct_vectors.rs) `python vectors.py PACKAGE` with the generated package
on the path: reads a JSON array of cases on stdin and prints one result per case.
"""

import importlib
import json
import sys
from typing import Any


def result(c: dict[str, Any], package: Any, registry: Any) -> dict[str, Any]:
    """What the package gives for one case."""
    if "method" in c:
        table = registry.RESULTS.get(c["module"], {}).get(c["type"])
        if table is None:
            return {"missing": True}
        decode, serialize_result = table
        try:
            p = decode(c["method"], json.loads(c["text"]))
        except package.ParseError as e:
            return {"error": [e.kind, e.path]}
        text = serialize_result(c["method"], p.value)
        return {"output": text, "warnings": [[w.kind, w.path] for w in p.warnings], "defaults": text}
    codec = registry.CODECS.get(c["module"], {}).get(c["type"])
    if codec is None:
        return {"missing": True}
    parse, serialize = codec
    try:
        p = parse(c["text"])
    except package.ParseError as e:
        return {"error": [e.kind, e.path]}
    with_defaults = registry.DEFAULTS.get(c["module"], {}).get(c["type"], lambda v: v)
    return {
        "output": serialize(p.value),
        "warnings": [[w.kind, w.path] for w in p.warnings],
        "defaults": serialize(with_defaults(p.value)),
    }


def main() -> None:
    """Reads the cases on stdin, prints the results."""
    package = importlib.import_module(sys.argv[1])
    registry = importlib.import_module(f"{sys.argv[1]}.registry")
    print(json.dumps([result(c, package, registry) for c in json.load(sys.stdin)]))


if __name__ == "__main__":
    main()
