"""Invisible and deceptive characters in what the model reads (SD1001-SD1004).

A skill's name, description and body reach the model verbatim, but a person reading
the file, a rendered page or a diff does not see every character: Unicode tag
characters (U+E0000-U+E007F) carry a hidden copy of ASCII text ("ASCII smuggling"),
zero-width characters and format controls render as nothing (control characters such
as ESC too, where a terminal does not act on them), bidirectional controls
reorder what is shown ("Trojan Source"), private-use characters show as blanks or
icons. :func:`invisible_runs` finds each run of them in one pass of one regular
expression; :func:`describe_run` says what a run holds (the code points, the decoded
tag text); :func:`name_confusion` judges a non-ASCII ``name`` with the Unicode
confusables data of ``confusable_homoglyphs`` (mixed scripts, or a name that is all
look-alikes of Latin letters).

Not reported, because real text needs them: a leading byte order mark; a lone
zero-width joiner / non-joiner or left-to-right / right-to-left / Arabic letter mark
between two non-ASCII characters (emoji sequences, Persian, Indic and Hebrew text);
the tag characters of an emoji flag sequence (U+1F3F4 followed by tag letters and
U+E007F CANCEL TAG, the flags of Scotland, England and Wales); a single variation
selector U+FE00-U+FE0F (emoji presentation).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from skilldeck.engine.registry import is_skill_name

#: Every format character (Unicode category Cf, Unicode 15.1; the test compares it
#: with the running Python's ``unicodedata``), the private-use planes, the variation
#: selectors supplement (used to smuggle bytes behind an emoji), the combining grapheme
#: joiner and the Hangul fillers (they render as blank space).
_INVISIBLE_CLASS = (
    "\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u180e"
    "\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ue000-\uf8ff\ufeff"
    "\uffa0\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0000-\U000e007f\U000e0100-\U000e01ef"
    "\U000f0000-\U000ffffd\U00100000-\U0010fffd"
)
#: The control characters (Unicode category Cc) but the tab and the line breaks: a
#: terminal acts on them (ESC starts sequences that hide, recolour or clear text) and a
#: rendered page shows nothing, while the model reads them.
_CONTROL_CLASS = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
#: A run of invisible characters, or of two or more variation selectors (one after an
#: emoji is ordinary emoji presentation; a string of them encodes bytes).
_RUN = re.compile(f"(?:[{_INVISIBLE_CLASS}{_CONTROL_CLASS}]|[\ufe00-\ufe0f]{{2,}})+")
#: Runs of printable ASCII characters, tabs and line breaks (none is invisible): what a
#: text without them holds decides whether it can hold a run (two variation selectors
#: it puts side by side only cost a full scan).
_ASCII = re.compile(r"[\t\n\r\x20-\x7e]+")
#: The ASCII bytes that are not control characters, with the tab and the line breaks:
#: an ASCII text that holds only these has no invisible character.
_PRINTABLE_ASCII = bytes(range(0x20, 0x7F)) + b"\t\n\r"
#: The names of the ASCII control characters (Unicode's name aliases; ``unicodedata``
#: names none of them).
_CONTROL_NAMES = (
    "NULL", "START OF HEADING", "START OF TEXT", "END OF TEXT", "END OF TRANSMISSION",
    "ENQUIRY", "ACKNOWLEDGE", "BELL", "BACKSPACE", "CHARACTER TABULATION", "LINE FEED",
    "LINE TABULATION", "FORM FEED", "CARRIAGE RETURN", "SHIFT OUT", "SHIFT IN",
    "DATA LINK ESCAPE", "DEVICE CONTROL ONE", "DEVICE CONTROL TWO", "DEVICE CONTROL THREE",
    "DEVICE CONTROL FOUR", "NEGATIVE ACKNOWLEDGE", "SYNCHRONOUS IDLE",
    "END OF TRANSMISSION BLOCK", "CANCEL", "END OF MEDIUM", "SUBSTITUTE", "ESCAPE",
    "INFORMATION SEPARATOR FOUR", "INFORMATION SEPARATOR THREE",
    "INFORMATION SEPARATOR TWO", "INFORMATION SEPARATOR ONE",
)  # fmt: skip
#: Lone characters that real scripts use between two non-ASCII characters.
_JOINERS = frozenset("\u200c\u200d\u200e\u200f\u061c")
_TAG_FIRST, _TAG_LAST = 0xE0000, 0xE007F
_BLACK_FLAG = "\U0001f3f4"
_CANCEL_TAG = "\U000e007f"
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff")
#: How many distinct code points a message names before it says "and N more".
_SHOWN_POINTS = 3
#: How much decoded tag text a message quotes.
_SHOWN_TAG_TEXT = 80


@dataclass(frozen=True, slots=True)
class InvisibleRun:
    """One run of invisible characters at ``start:end`` of the scanned text."""

    start: int
    end: int
    text: str

    @property
    def has_tags(self) -> bool:
        """Whether the run holds Unicode tag characters (hidden ASCII text)."""
        return any(_TAG_FIRST <= ord(char) <= _TAG_LAST for char in self.text)


def invisible_runs(text: str, start: int = 0, end: int | None = None) -> list[InvisibleRun]:
    """Each run of invisible characters in ``text[start:end]``, offsets into ``text``.

    Linear in the text: ASCII text is answered by one byte scan for a control character
    (``str.isascii`` and ``bytes.translate`` are memory scans); other text first loses
    its printable ASCII runs (a fast scan), and only when what remains holds an
    invisible character does the character class scan the text.
    """
    stop = len(text) if end is None else end
    if start >= stop:
        return []
    if text.isascii() and plain_ascii(
        text if start == 0 and stop == len(text) else text[start:stop]
    ):
        return []
    if _RUN.search(_ASCII.sub("", text[start:stop])) is None:
        return []  # every run holds a non-ASCII character: judge those alone (~60x faster)
    runs: list[InvisibleRun] = []
    for match in _RUN.finditer(text, start, stop):
        first, last = match.span()
        run = match.group()
        if first == 0 and run == "\ufeff":
            continue  # the byte order mark
        if run == "\ufeff" or len(run) > 1 or run not in _JOINERS:
            if _is_flag_tags(text, first, run):
                continue
            runs.append(InvisibleRun(first, last, run))
            continue
        before = text[first - 1] if first > 0 else "a"
        after = text[last] if last < len(text) else "a"
        if before.isascii() or after.isascii():
            runs.append(InvisibleRun(first, last, run))
    return runs


def plain_ascii(text: str) -> bool:
    """Whether ``text`` is ASCII without a control character (but tabs and line breaks):
    no invisible character can be in it. A byte scan (~10x faster than a regular
    expression)."""
    return text.isascii() and not text.encode("ascii").translate(None, _PRINTABLE_ASCII)


def _is_flag_tags(text: str, first: int, run: str) -> bool:
    """An emoji tag sequence: the black flag, tag letters, CANCEL TAG (and nothing else)."""
    return (
        first > 0
        and text[first - 1] == _BLACK_FLAG
        and run.endswith(_CANCEL_TAG)
        and 2 <= len(run) <= 8
        and all(
            0xE0061 <= ord(char) <= 0xE007A or 0xE0030 <= ord(char) <= 0xE0039 for char in run[:-1]
        )
    )


def strip_invisible(text: str) -> str:
    """``text`` without the runs :func:`invisible_runs` reports."""
    runs = invisible_runs(text)
    if not runs:
        return text
    parts: list[str] = []
    at = 0
    for run in runs:
        parts.append(text[at : run.start])
        at = run.end
    parts.append(text[at:])
    return "".join(parts)


def hidden_tag_text(run: str) -> str:
    """The ASCII text that the tag characters of ``run`` spell (others dropped)."""
    return "".join(chr(ord(char) - _TAG_FIRST) for char in run if 0xE0020 <= ord(char) <= 0xE007E)


def code_point_name(char: str) -> str:
    """``U+200B ZERO WIDTH SPACE`` (private-use and unnamed characters say so)."""
    point = ord(char)
    if point < len(_CONTROL_NAMES):
        name = _CONTROL_NAMES[point]
    else:
        name = "DELETE" if point == 0x7F else unicodedata.name(char, "")
    if not name:
        category = unicodedata.category(char)
        name = "PRIVATE USE CHARACTER" if category == "Co" else f"UNNAMED ({category})"
    return f"U+{ord(char):04X} {name}"


def describe_points(run: str) -> str:
    """The distinct code points of ``run`` in order of appearance (at most three named)."""
    distinct = list(dict.fromkeys(run))
    shown = ", ".join(code_point_name(char) for char in distinct[:_SHOWN_POINTS])
    more = len(distinct) - _SHOWN_POINTS
    return f"{shown} and {more} more" if more > 0 else shown


def run_kinds(run: str) -> str:
    """What the run is made of, in words (``zero-width``, ``bidirectional control``...)."""
    kinds: list[str] = []
    for char in run:
        point = ord(char)
        if _TAG_FIRST <= point <= _TAG_LAST:
            kind = "tag"
        elif char in _BIDI:
            kind = "bidirectional control"
        elif point < 0x20 or 0x7F <= point <= 0x9F:
            kind = "control"
        elif char in _ZERO_WIDTH:
            kind = "zero-width"
        elif unicodedata.category(char) == "Co":
            kind = "private-use"
        elif 0xFE00 <= point <= 0xFE0F or 0xE0100 <= point <= 0xE01EF:
            kind = "variation selector"
        else:
            kind = "format"
        if kind not in kinds:
            kinds.append(kind)
    return ", ".join(kinds)


def describe_tag_text(run: str) -> str:
    """The decoded tag text, quoted and cut for a message."""
    hidden = hidden_tag_text(run)
    if len(hidden) > _SHOWN_TAG_TEXT:
        hidden = hidden[: _SHOWN_TAG_TEXT - 3] + "..."
    return hidden.replace("`", "'")


def run_at(text: str, offset: int) -> InvisibleRun | None:
    """The run of invisible characters at or just before ``offset`` (for a hover)."""
    window_start = max(0, offset - 4096)
    for run in invisible_runs(text, window_start, min(len(text), offset + 4096)):
        if run.start <= offset <= run.end:
            return run
    return None


# --- names ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NameConfusion:
    """Why a name deceives: the scripts it mixes, or the Latin text it imitates."""

    scripts: tuple[str, ...]
    #: One sentence per look-alike: the character, its code point and name, the Latin
    #: letter it passes for.
    look_alikes: tuple[str, ...]
    #: The name with each look-alike replaced by the Latin letter it imitates.
    latin: str


@lru_cache(maxsize=256)
def name_confusion(name: str) -> NameConfusion | None:
    """Whether a non-ASCII ``name`` passes for a Latin name it is not.

    Reported: a name that mixes scripts and has a letter that passes for a Latin letter
    (``paypal`` spelt with U+0430 CYRILLIC SMALL LETTER A), and a name every letter of
    which passes for a Latin letter (``exe`` spelt in Cyrillic). A name in another script,
    alone or beside Latin words (``日本語-tools``, ``привет``), is fine. The scripts and
    the look-alikes come from the Unicode confusables data (``confusable_homoglyphs``).
    """
    if name.isascii():
        return None
    from confusable_homoglyphs import categories, confusables  # noqa: PLC0415 (~50 ms)

    scripts = tuple(
        sorted(alias for alias in categories.unique_aliases(name) if alias not in ("COMMON",))
    )
    found = confusables.is_confusable(name, greedy=True, preferred_aliases=["latin"]) or []
    look_alikes: list[str] = []
    latin = name
    for item in found:
        char = str(item["character"])
        ascii_glyphs = [
            str(glyph["c"])
            for glyph in item["homoglyphs"]
            if str(glyph["c"]).isascii() and str(glyph["c"]).isalnum()
        ]
        if ascii_glyphs and char.isalnum():
            look_alikes.append(f"`{char}` ({code_point_name(char)}) looks like `{ascii_glyphs[0]}`")
            latin = latin.replace(char, ascii_glyphs[0])
    letters = [char for char in name if char.isalpha()]
    # all look-alikes, and what they spell could be a skill's name (``exe``, not ``HABblK``)
    all_look_alike = bool(letters) and latin.isascii() and is_skill_name(latin)
    mixed = len(scripts) > 1 and bool(look_alikes)
    if not mixed and not all_look_alike:
        return None
    return NameConfusion(scripts, tuple(dict.fromkeys(look_alikes)), latin)
