"""Output formats of ``skilldeck check``: ``text``, ``json``, ``sarif`` and ``github``.

Each module exposes ``render(report, palette) -> str``; the text returned is written to
stdout as is (it ends with a newline when it is not empty).
"""

from __future__ import annotations

from collections.abc import Callable

from skilldeck.cli.color import Palette
from skilldeck.cli.formats import github, sarif, text
from skilldeck.cli.formats import json as json_format
from skilldeck.cli.report import CheckReport

Renderer = Callable[[CheckReport, Palette], str]

#: Format name -> renderer, in the order ``--help`` lists them.
FORMATS: dict[str, Renderer] = {
    "text": text.render,
    "json": json_format.render,
    "sarif": sarif.render,
    "github": github.render,
}
