"""Reading and writing skilldeck's own files safely: its cache files (regular files only,
opened without blocking, so a FIFO never hangs a run) and their JSON (orjson, with the
standard library as an exact fallback).

Invariant: nothing here follows a FIFO or a device, and a damaged file reads as absent.
"""

from skilldeck.engine.disk._cache_file import (
    file_sha256,
    open_regular,
    read_cache_bytes,
    read_cache_text,
)
from skilldeck.engine.disk._json_codec import dump_bytes, has_non_finite, load_bytes

__all__ = [
    "dump_bytes",
    "file_sha256",
    "has_non_finite",
    "load_bytes",
    "open_regular",
    "read_cache_bytes",
    "read_cache_text",
]
