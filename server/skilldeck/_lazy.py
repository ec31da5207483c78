"""Lazy re-exports for a package's ``__init__``: a name is imported from its private module
on first use (PEP 562), so importing a package costs nothing until one of its names is
used, and each command pays only for the modules it touches.

The ``TYPE_CHECKING`` imports of each ``__init__`` are what type checkers and readers see;
``tests/test_architecture.py`` holds them equal to the table given here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(
    package: str, table: Mapping[str, tuple[str, ...]], *, also: tuple[str, ...] = ()
) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """``__getattr__``, ``__dir__`` and ``__all__`` for ``package``, whose ``table`` maps
    each private module (``"_scan"``) to the names it exports; ``also`` names what the
    package defines itself."""
    where: dict[str, str] = {}
    for module, names in table.items():
        if isinstance(names, str):  # ("name") is a string, not a one-name tuple
            raise TypeError(f"{package}: the names of {module} must be a tuple")
        where.update(dict.fromkeys(names, f"{package}.{module}"))
    namespace = importlib.import_module(package).__dict__

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *where})

    return __getattr__, __dir__, sorted([*where, *also])
