"""Reading and writing skilldeck's own files safely: its cache files (regular files only,
opened without blocking, so a FIFO never hangs a run) and their JSON (orjson, with the
standard library as an exact fallback).

Invariant: nothing here follows a FIFO or a device, and a damaged file reads as absent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skilldeck._lazy import lazy_exports

if TYPE_CHECKING:
    from skilldeck.engine.disk._cache_file import file_sha256 as file_sha256
    from skilldeck.engine.disk._cache_file import open_regular as open_regular
    from skilldeck.engine.disk._cache_file import read_cache_bytes as read_cache_bytes
    from skilldeck.engine.disk._cache_file import read_cache_text as read_cache_text
    from skilldeck.engine.disk._json_codec import dump_bytes as dump_bytes
    from skilldeck.engine.disk._json_codec import has_non_finite as has_non_finite
    from skilldeck.engine.disk._json_codec import load_bytes as load_bytes
    from skilldeck.engine.disk._json_codec import load_text as load_text
else:
    __getattr__, __dir__, __all__ = lazy_exports(
        __name__,
        {
            "_cache_file": ("file_sha256", "open_regular", "read_cache_bytes", "read_cache_text"),
            "_json_codec": ("dump_bytes", "has_non_finite", "load_bytes", "load_text"),
        },
    )
