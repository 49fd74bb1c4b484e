"""Hygiene of the runtime sources the generator copies verbatim: header, relative imports, any package name."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

RUNTIME = Path(__file__).resolve().parents[2] / "templates" / "python" / "runtime"
FILES = sorted(p.name for p in RUNTIME.glob("*.py"))
# pydantic is required; pybase64 is used when installed (runtime/base64.py).
ALLOWED_THIRD_PARTY = {"pydantic", "pydantic_core", "pybase64"}  # pydantic_core: pydantic's own core, its errors


def tree(name: str) -> ast.Module:
    return ast.parse((RUNTIME / name).read_text(encoding="utf-8"), name)


def test_the_runtime_has_its_files() -> None:
    expected = ["__init__.py", "base64.py", "decode.py", "errors.py", "json.py", "model.py", "path.py", "transcript.py"]
    for name in [*expected, "pattern.py", "writer.py"]:
        assert name in FILES, f"{name} is missing"
    assert not [p for p in RUNTIME.iterdir() if p.suffix not in (".py",) and p.name != "__pycache__"]


def test_each_file_starts_with_a_one_line_docstring_saying_what_it_is() -> None:
    for name in FILES:
        doc = ast.get_docstring(tree(name))
        assert doc, name
        assert doc.split("\n\n")[0].count("\n") == 0, f"{name}: the summary is one line"
        assert (RUNTIME / name).read_text(encoding="utf-8").startswith('"""'), name


def test_siblings_are_imported_relatively_and_nothing_else_but_the_standard_library_and_pydantic_pybase64() -> None:
    siblings = {n.removesuffix(".py") for n in FILES}
    for name in FILES:
        for node in ast.walk(tree(name)):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    assert node.level == 1, f"{name}: {ast.unparse(node)}"
                    assert node.module is None or node.module.split(".")[0] in siblings, f"{name}: {ast.unparse(node)}"
                    continue
                root = (node.module or "").split(".")[0]
            elif isinstance(node, ast.Import):
                roots = {a.name.split(".")[0] for a in node.names}
                assert len(roots) == 1, f"{name}: {ast.unparse(node)}"
                root = roots.pop()
            else:
                continue
            assert root == "__future__" or root in sys.stdlib_module_names or root in ALLOWED_THIRD_PARTY, (
                f"{name}: {ast.unparse(node)}"
            )


def test_no_debugging_or_dynamic_code() -> None:
    for name in FILES:
        for node in ast.walk(tree(name)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in {"print", "eval", "exec", "breakpoint"}, name


def test_the_runtime_works_under_another_package_name() -> None:
    """As the generator copies it to acp_terminal/_runtime/: nothing depends on the name `runtime`."""
    name = "copied_acp_terminal_runtime"
    spec = importlib.util.spec_from_file_location(
        name, RUNTIME / "__init__.py", submodule_search_locations=[str(RUNTIME)]
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
        parsed = module.decode_text('{"a":[1,2.0]}', module.decode_json)
        assert module.encode_text(parsed.value, module.encode_json) == '{"a":[1,2]}'
        assert sys.modules[f"{name}.json"].MAX_DEPTH == 127
    finally:
        for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
            del sys.modules[key]


def test_the_package_exports_what_it_lists() -> None:
    import runtime

    for export in runtime.__all__:
        assert hasattr(runtime, export), export
    assert runtime.MISSING is runtime.model.MISSING
