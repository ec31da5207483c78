"""Giving the memory a deck's passes freed back to the system (both front ends use it).

An index build allocates far more than it keeps (file texts, parsed frontmatter, the
helper processes' records, the overlap build's working sets). Python frees it, but the C
allocator keeps the freed pages of its heap for later and the process's resident size
stays at the build's high-water mark: ~8 MB more than the index needs at 10,000 skills
(benchmarks/README.md). After a build the server asks glibc to return what is free
(``malloc_trim``), and so does ``check`` after the deck-wide passes, before it renders
its report (the generated 10,000-skill deck's peak 151 -> 143 MB, 2-3 ms): the same
memory stays in use, the freed pages go back. Elsewhere (no glibc: musl, macOS,
Windows) there is nothing to call and nothing is done.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    import ctypes  # noqa: PLC0415 - only when memory is given back (a warm check never is)

    try:
        # The symbols the process already has (libc's among them): no library search,
        # which would run `ldconfig` in a child process (ctypes.util.find_library).
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None
    return trim


def release_free_memory() -> bool:
    """Return the C heap's free pages to the system; whether there was a way to."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
