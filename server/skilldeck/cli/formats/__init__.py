"""Output formats of ``skilldeck check``: ``text``, ``json``, ``sarif`` and ``github``.

Each module exposes ``render(report, palette)``: the text (``json``: the text in pieces
that concatenate to it, made one at a time, so a large report is never held whole).
:func:`renderer` gives a format as pieces; they are written to stdout as they are made
(the text ends with a newline when it is not empty). A format's module is imported only
when a run renders it: a warm ``check`` answered by its memo renders nothing.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from skilldeck.cli.color import Palette
    from skilldeck.cli.report import CheckReport

Renderer = Callable[["CheckReport", "Palette"], Iterable[str]]

#: The formats, in the order ``--help`` lists them; ``json`` renders pieces itself.
FORMAT_NAMES: tuple[str, ...] = ("text", "json", "sarif", "github")
_PIECES = frozenset({"json"})


def renderer(name: str) -> Renderer:
    """The renderer of format ``name`` (one of :data:`FORMAT_NAMES`) as pieces."""
    if name not in FORMAT_NAMES:
        raise KeyError(name)
    module = importlib.import_module(f"skilldeck.cli.formats.{name}")
    if name in _PIECES:
        return cast("Renderer", module.render)
    whole = cast("Callable[[CheckReport, Palette], str]", module.render)
    return lambda report, palette: (whole(report, palette),)
