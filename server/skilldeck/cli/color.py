"""Terminal colour: on only for a TTY, off under ``NO_COLOR``, forced by ``--color``."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal, TextIO

ColorChoice = Literal["auto", "always", "never"]

_RESET = "\x1b[0m"


def color_enabled(choice: ColorChoice, stream: TextIO) -> bool:
    """Whether to colour output written to ``stream``.

    ``always`` and ``never`` win; ``auto`` colours only a TTY and only when ``NO_COLOR``
    is unset or empty (https://no-color.org) and ``TERM`` is not ``dumb``.
    """
    if choice == "always":
        return True
    if choice == "never":
        return False
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


@dataclass(frozen=True, slots=True)
class Palette:
    """ANSI styling helpers; every method returns its text unchanged when disabled."""

    enabled: bool

    def _wrap(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}{_RESET}" if self.enabled else text

    def bold(self, text: str) -> str:
        return self._wrap("1", text)

    def red(self, text: str) -> str:
        return self._wrap("31", text)

    def yellow(self, text: str) -> str:
        return self._wrap("33", text)

    def cyan(self, text: str) -> str:
        return self._wrap("36", text)

    def green(self, text: str) -> str:
        return self._wrap("32", text)
