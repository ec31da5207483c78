"""JSON for the cache files and helper processes: orjson when it says the same thing,
the standard library otherwise.

orjson encodes a 10,000-file index cache about eight times faster than ``json`` and
decodes it about twice as fast, which is a tenth of a cold ``skilldeck check``. It
refuses what the standard library accepts here: strings with surrogates (file names
that are not UTF-8 travel as surrogate escapes), integers beyond 64 bits, invalid UTF-8
in a file. Those fall back to ``json`` with ``surrogateescape``, so every payload round
trips exactly as before. orjson writes non-finite floats as ``null``, so callers must
not hand it NaN or infinities (the index cache never stores an analysis holding one).

No file skilldeck writes nests deeper than a few dozen levels, so a value nested
deeper than :data:`MAX_DEPTH` is not one of them: reading it is a ``ValueError``, as for
any corrupt cache file (it is rebuilt), never a ``RecursionError``. About a thousand
levels stop the decoders themselves (orjson at 1,024, the standard library at its
recursion limit); a few hundred less pass them and then stop whoever walks or prints the
value (a cache reader's error message). orjson's encoder stops at 255 levels, so
encoding what it decoded is the depth check on the fast path (a tenth of the decoding
time); without orjson the value is walked level by level. Every cache file is decoded
here.

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


#: The deepest nesting of arrays and objects a value read back may have (orjson's
#: encoder refuses 255 levels: encoding a decoded value checks it).
MAX_DEPTH = 254


def load_bytes(data: bytes) -> Any:
    """The value of JSON ``data``; ``ValueError`` when it is not JSON or nests deeper
    than :data:`MAX_DEPTH`."""
    if _FAST:
        try:
            value = orjson.loads(data)
        except orjson.JSONDecodeError:
            pass
        else:
            try:
                orjson.dumps(value)  # what orjson decoded it encodes, unless too deep
            except TypeError:
                raise ValueError(_TOO_DEEP) from None
            return value
    return load_text(data.decode("utf-8", "surrogateescape"))


def load_text(text: str) -> Any:
    """The value of the JSON ``text``; ``ValueError`` when it is not JSON or nests deeper
    than :data:`MAX_DEPTH`."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError(_TOO_DEEP) from None
    if _nests_deeper(value, MAX_DEPTH):
        raise ValueError(_TOO_DEEP)
    return value


_TOO_DEEP = f"JSON nested deeper than {MAX_DEPTH} levels"


def _nests_deeper(value: object, limit: int) -> bool:
    """Whether arrays and objects in ``value`` nest deeper than ``limit`` (a walk one
    level at a time, never a recursion)."""
    level = [value]
    for _depth in range(limit):
        below: list[object] = []
        for item in level:
            if type(item) is dict:
                below += [child for child in item.values() if type(child) in _CONTAINERS]
            elif type(item) is list:
                below += [child for child in item if type(child) in _CONTAINERS]
        if not below:
            return False
        level = below
    return True


_CONTAINERS = (dict, list)


def has_non_finite(value: object) -> bool:
    """Whether a plain-data value holds a NaN or an infinity (which orjson cannot keep)."""
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, dict):
        return any(has_non_finite(item) for item in value.values())
    if isinstance(value, list):
        return any(has_non_finite(item) for item in value)
    return False
