"""Reading the params of skilldeck's custom requests (plain JSON objects)."""

from __future__ import annotations

from pygls.exceptions import JsonRpcInvalidParams


def optional_uri(params: object) -> str | None:
    """The ``uri`` member of ``params`` (``None`` when absent); raises InvalidParams if wrong."""
    if params is None:
        return None
    value = params.get("uri") if isinstance(params, dict) else getattr(params, "uri", None)
    if value is None:
        return None
    if not isinstance(value, str) or not value.startswith("file:"):
        raise JsonRpcInvalidParams(message=f"'uri' must be a file: URI string, got {value!r}")
    return value


def required_uri(params: object) -> str:
    """The ``uri`` member of ``params``; raises InvalidParams when missing or wrong."""
    value = optional_uri(params)
    if value is None:
        raise JsonRpcInvalidParams(message="'uri' is required (a document or folder URI)")
    return value
