"""A setting's value as the user wrote it: TOML (or JSON, for editor settings) spelling,
never Python's (``false``, not ``False``; ``"x"``, not ``'x'``), for error messages."""

from __future__ import annotations

import datetime
import json
import math
from collections.abc import Mapping


def toml_text(value: object, limit: int = 80) -> str:
    """``value`` as TOML writes it, cut to about ``limit`` characters."""
    text = _toml(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"  # no TOML value: a JSON setting's null
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, Mapping):
        inner = ", ".join(f"{_key(k)} = {_toml(v)}" for k, v in value.items())
        return "{" + inner + "}" if inner else "{}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def _key(key: object) -> str:
    text = str(key)
    bare = text and all(c.isascii() and (c.isalnum() or c in "-_") for c in text)
    return text if bare else json.dumps(text, ensure_ascii=False)
