"""cargo xtask compare: what datamodel-code-generator's pydantic models do.

Usage: python datamodel_probe.py MODELS.py SCHEMA.json PROBES.json

Prints JSON: `defined`, the schema's `$defs` names the module defines, and `results`,
one per probe: `{"output": text}` when the type reads the probe's text
(`TypeAdapter(T).validate_json`, pydantic's documented way to read JSON into a type)
and writes it back (`dump_json(by_alias=True, exclude_unset=True)`, which keeps what
was sent and leaves out what was not), `{"error": message}` when it refuses it, or
`{"missing": true}` when the module has no such type.
"""

import importlib.util
import json
import sys

from pydantic import TypeAdapter, ValidationError

models_path, schema_path, probes_path = sys.argv[1:4]
spec = importlib.util.spec_from_file_location("generated_models", models_path)
assert spec is not None and spec.loader is not None
module = importlib.util.module_from_spec(spec)
sys.modules["generated_models"] = module
spec.loader.exec_module(module)

with open(schema_path, encoding="utf-8") as f:
    names = list(json.load(f)["$defs"])
defined = []
for name in names:
    if hasattr(module, name):
        try:
            TypeAdapter(getattr(module, name))
        except Exception:  # a type pydantic cannot build is not defined
            continue
        defined.append(name)

with open(probes_path, encoding="utf-8") as f:
    probes = json.load(f)["cases"]
results = []
for probe in probes:
    if probe["type"] not in defined:
        results.append({"missing": True})
        continue
    adapter = TypeAdapter(getattr(module, probe["type"]))
    try:
        value = adapter.validate_json(probe["inputText"])
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        results.append({"error": f"{e.error_count()} errors; first at {where or '(root)'}: {first['msg']}"})
        continue
    results.append({"output": adapter.dump_json(value, by_alias=True, exclude_unset=True).decode()})
print(json.dumps({"defined": defined, "results": results}))
