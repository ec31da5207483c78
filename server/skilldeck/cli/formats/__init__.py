"""Output formats of ``skilldeck check``: ``text``, ``json``, ``sarif`` and ``github``.

Each module exposes ``render(report, palette)``: the text (``json``: the text in pieces
that concatenate to it, made one at a time, so a large report is never held whole).
:data:`FORMATS` gives every format as pieces; they are written to stdout as they are
made (the text ends with a newline when it is not empty).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from skilldeck.cli.color import Palette
from skilldeck.cli.formats import github, sarif, text
from skilldeck.cli.formats import json as json_format
from skilldeck.cli.report import CheckReport

Renderer = Callable[[CheckReport, Palette], Iterable[str]]


def _whole(render: Callable[[CheckReport, Palette], str]) -> Renderer:
    """A renderer of one text as a renderer of pieces (the text is one piece)."""
    return lambda report, palette: (render(report, palette),)


#: Format name -> renderer of the output's pieces, in the order ``--help`` lists them.
FORMATS: dict[str, Renderer] = {
    "text": _whole(text.render),
    "json": json_format.render,
    "sarif": _whole(sarif.render),
    "github": _whole(github.render),
}
