"""Regenerates the Node-made expectations in this folder (run once; the output is committed).

    python3 tests/runtime/data/make_data.py

- ecmascript_numbers.json: doubles (as 64-bit patterns) and integers (as decimal text)
  with the text Node's `String(x)` gives for them (ECMAScript Number::toString).
- stringify.json: what `JSON.stringify` writes for each UTF-16 code unit alone (only
  those it does not write as themselves are listed: escapes, and lone surrogates), and
  for a few strings with surrogate pairs and lone surrogates.
"""

from __future__ import annotations

import json
import math
import random
import struct
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent


def bits(x: float) -> str:
    return f"0x{struct.unpack('<Q', struct.pack('<d', x))[0]:016x}"


def doubles() -> list[float]:
    rng = random.Random(20240601)
    out: list[float] = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.1,
        0.5,
        1.5,
        100.0,
        123.0,
        1e21,
        1e-7,
        1e-6,
        5e-324,
        2.2250738585072014e-308,
    ]
    out.append(1.7976931348623157e308)
    for e in range(-325, 309):
        for m in (1.0, 1.2345678901234567):
            x = float(f"{m}e{e}")
            if math.isfinite(x) and x != 0.0:
                out += [x, math.nextafter(x, math.inf), math.nextafter(x, 0.0)]
    for p in range(0, 1024, 9):
        x = 2.0**p
        out += [x, math.nextafter(x, math.inf), math.nextafter(x, 0.0)]
    for p in range(-1074, 0, 19):
        out.append(2.0**p)
    for _ in range(1000):  # random bit patterns
        x = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
        if math.isfinite(x):
            out.append(x)
    for _ in range(1000):  # random short decimals at every scale
        digits = rng.randint(1, 17)
        m = rng.randint(1, 10**digits - 1)
        x = float(f"{m}e{rng.randint(-330, 300)}")
        if math.isfinite(x):
            out.append(x)
    for _ in range(600):  # values around the thresholds of the three forms
        x = float(f"{rng.randint(1, 10 ** rng.randint(1, 17))}e{rng.randint(-30, 30)}")
        out.append(x)
    for _ in range(300):  # whole numbers, some past 2^53
        out.append(float(rng.randint(0, 10 ** rng.randint(1, 25))))
    seen: set[str] = set()
    unique: list[float] = []
    for x in out:
        b = bits(x)
        if b not in seen:
            seen.add(b)
            unique.append(x)
    return unique


def integers() -> list[int]:
    rng = random.Random(7)
    out = [0, 1, -1, 2**53 - 1, 2**53, 2**53 + 1, -(2**53) - 1, 2**63, 2**64, 12345678901234567890, 10**21, 10**21 - 1]
    out += [10**22, 10**300, 2**1023, 2**1024 - 2**971, -(10**308)]
    for _ in range(200):
        n = rng.randint(0, 10 ** rng.randint(15, 40))
        out += [n, -n]
    return out


def node(script: str, data: object) -> object:
    r = subprocess.run(["node", "-e", script], input=json.dumps(data), capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


NUMBERS_JS = r"""
let s = ""; process.stdin.on("data", (d) => (s += d)); process.stdin.on("end", () => {
  const { doubles, integers } = JSON.parse(s);
  const f = new Float64Array(1), u = new BigUint64Array(f.buffer);
  const out = {
    doubles: doubles.map((h) => { u[0] = BigInt(h); return [h, String(f[0])]; }),
    integers: integers.map((t) => [t, String(Number(t))]),
  };
  process.stdout.write(JSON.stringify(out));
});
"""

STRINGIFY_JS = r"""
const special = {};
for (let c = 0; c <= 0xffff; c++) {
  const s = String.fromCharCode(c);
  const out = JSON.stringify(s);
  if (out !== `"${s}"`) special[c] = out;
}
const strings = [
  "\ud800\udc00", "\udbff\udfff", "a\ud83d\ude00b", "a\ud83d", "\ude00b", "\udc00\ud800", "\ud800\ud800",
  "x\u2028\u2029\u007f\u0000",
];
const codePoints = (s) => [...s].map((c) => c.codePointAt(0));
process.stdout.write(JSON.stringify({ special, strings: strings.map((s) => [codePoints(s), JSON.stringify(s)]) }));
"""


def compact(data: object) -> str:
    """One `[input, expected]` pair a line."""
    assert isinstance(data, dict)
    parts = []
    for name, pairs in data.items():
        lines = ",\n".join(json.dumps(p) for p in pairs)
        parts.append(f"{json.dumps(name)}: [\n{lines}\n]")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main() -> None:
    ds = doubles()
    numbers = node(NUMBERS_JS, {"doubles": [bits(x) for x in ds], "integers": [str(n) for n in integers()]})
    (HERE / "ecmascript_numbers.json").write_text(compact(numbers), encoding="utf-8")
    strings = node(STRINGIFY_JS, None)
    (HERE / "stringify.json").write_text(json.dumps(strings, ensure_ascii=True) + "\n", encoding="utf-8")
    print(f"{len(ds)} doubles, {len(numbers['integers'])} integers")  # type: ignore[index]


if __name__ == "__main__":
    main()
