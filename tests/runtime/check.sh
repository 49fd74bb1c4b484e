#!/usr/bin/env bash
# Lints, type-checks and tests the Python runtime (templates/python/runtime).
# Uses the virtual environment $VENV (default: <repo>/.venv, git-ignored), creating it and
# installing ../requirements-dev.txt (the one test environment) when missing. Extra arguments go to pytest.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="${VENV:-$root/.venv}"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import pydantic, pybase64, pytest, mypy, ruff" 2>/dev/null; then
  "$venv/bin/pip" install -q -r "$here/../requirements-dev.txt"
fi
cd "$here"
export PYTHONDONTWRITEBYTECODE=1
"$venv/bin/ruff" check --config "$here/pyproject.toml" "$root/templates/python/runtime" "$here"
"$venv/bin/ruff" format --check --config "$here/pyproject.toml" "$root/templates/python/runtime" "$here"
"$venv/bin/mypy" --config-file "$here/pyproject.toml"
"$venv/bin/python" -m pytest -c "$here/pyproject.toml" "$here" "$@"
