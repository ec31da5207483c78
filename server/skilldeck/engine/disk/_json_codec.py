"""JSON for the cache files and helper processes: orjson when it says the same thing,
the standard library otherwise.

orjson encodes a 10,000-file index cache about eight times faster than ``json`` and
decodes it about twice as fast, which is a tenth of a cold ``skilldeck check``. It
refuses what the standard library accepts here: strings with surrogates (file names
that are not UTF-8 travel as surrogate escapes), integers beyond 64 bits, invalid UTF-8
in a file. Those fall back to ``json`` with ``surrogateescape``, so every payload round
trips exactly as before. orjson writes non-finite floats as ``null``, so callers must
not hand it NaN or infinities (the index cache never stores an analysis holding one).

orjson is compiled; the server bundled in the VS Code extension is pure Python and runs
without it: then every payload goes through ``json`` (the same values, read back equal).
"""

from __future__ import annotations

import json
import math
from typing import Any

try:
    import orjson
except ImportError:  # the pure-Python bundle (clients/vscode/bundled/libs)
    _FAST = False
else:
    _FAST = True


def dump_bytes(payload: object) -> bytes:
    """Compact UTF-8 JSON of ``payload`` (surrogate escapes kept as raw bytes)."""
    if _FAST:
        try:
            return orjson.dumps(payload)
        except TypeError:  # orjson.JSONEncodeError: surrogates, big integers
            pass
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return text.encode("utf-8", "surrogateescape")


def load_bytes(data: bytes) -> Any:
    """The value of JSON ``data``; ``ValueError`` when it is not JSON."""
    if _FAST:
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass
    return json.loads(data.decode("utf-8", "surrogateescape"))


def has_non_finite(value: object) -> bool:
    """Whether a plain-data value holds a NaN or an infinity (which orjson cannot keep)."""
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, dict):
        return any(has_non_finite(item) for item in value.values())
    if isinstance(value, list):
        return any(has_non_finite(item) for item in value)
    return False
