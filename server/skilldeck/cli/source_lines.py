"""Line texts of reported files, read only when a format needs to convert columns."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class SourceLines:
    """Reads each file at most once (per instance) and answers column conversions.

    Engine positions count code points of the decoded text. A file that cannot be read
    or decoded now is treated as ASCII: code points and UTF-16 units then coincide.
    """

    _lines: dict[str, list[str] | None] = field(default_factory=dict)

    def line(self, path: str, line: int) -> str | None:
        """The text of 0-based ``line`` of ``path`` (without its line break), if known."""
        if path not in self._lines:
            self._lines[path] = _read_lines(path)
        lines = self._lines[path]
        if lines is None or not 0 <= line < len(lines):
            return None
        return lines[line]

    def utf16_character(self, path: str, line: int, character: int) -> int:
        """Convert a code-point ``character`` on ``line`` to UTF-16 code units."""
        text = self.line(path, line)
        if text is None:
            return character
        prefix = text[:character]
        units = len(prefix.encode("utf-16-le")) // 2
        return units + max(0, character - len(prefix))


def _read_lines(path: str) -> list[str] | None:
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError):
        return None
    return [line.removesuffix("\r") for line in text.split("\n")]
