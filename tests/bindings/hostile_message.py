"""``python hostile_message.py parse|store FILE``: decodes one ``SessionUpdate`` message,
the way a Client would, for ``cargo xtask fuzz --only message`` (which runs it under
``/usr/bin/time -v`` to read its peak memory and time). Prints what it kept and counted as
one JSON line."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from acp_terminal import ParseError, TerminalStore
from acp_terminal.v2 import parse_session_update


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python hostile_message.py parse|store FILE", file=sys.stderr)
        return 2
    route, file = argv
    text = Path(file).read_text(encoding="utf-8")
    try:
        if route == "parse":
            parsed = parse_session_update(text)
            warnings, dropped = len(parsed.warnings), parsed.warnings_dropped
        elif route == "store":
            store = TerminalStore()
            warnings = len(store.apply_text(text))
            dropped = store.counters.warnings_dropped
        else:
            print(f"unknown route {route!r}: parse or store", file=sys.stderr)
            return 2
    except ParseError as e:
        print(e, file=sys.stderr)
        return 1
    print(json.dumps({"warnings": warnings, "warningsDropped": dropped}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
