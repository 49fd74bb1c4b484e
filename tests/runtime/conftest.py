"""Makes templates/python/runtime importable as the package `runtime`, without copying it.

The generator copies that folder verbatim to generated/python/src/acp_terminal/_runtime/;
its modules only import each other relatively, so any package name works. The folder
holding it (templates/python) has no Python modules of its own besides it.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Keep __pycache__ out of the template folder the generator copies from.
sys.dont_write_bytecode = True

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "python"
if str(TEMPLATES) not in sys.path:
    sys.path.insert(0, str(TEMPLATES))
