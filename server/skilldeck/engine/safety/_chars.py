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
zero-width joiner or non-joiner between two non-ASCII characters (emoji sequences,
Persian, Indic text); a lone left-to-right, right-to-left or Arabic letter mark in a
line that holds right-to-left text, unless it splits a left-to-right word (Hebrew and
Arabic text put one between a word and ASCII punctuation);
the tag characters of an emoji flag sequence (U+1F3F4 followed by tag letters and
U+E007F CANCEL TAG, the flags of Scotland, England and Wales); a lone soft hyphen
between two letters of a word of a language that hyphenates (typography: where a line
may break), unless the word it splits is one the instruction grammars know (a trigger
word split to slip past a word filter); a variation selector
that completes a variation sequence Unicode defines with the character before it
(U+FE0F after an emoji that has both styles, U+FE00-U+FE02 after a base of a
standardized variant, U+E0100-U+E01EF after a CJK ideograph). Every other variation
selector is reported: one after a letter carries bytes a reader never sees.
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
#: A run of invisible characters, variation selectors included (one that completes a
#: variation sequence with the character before it is left out of the run afterwards).
_RUN = re.compile(f"[{_INVISIBLE_CLASS}{_CONTROL_CLASS}\ufe00-\ufe0f]+")
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
    closers: set[int] = set()  # the PDIs of balanced isolates already allowed
    for match in _RUN.finditer(text, start, stop):
        for first, last in _split_at_sequences(text, *match.span()):
            run = text[first:last]
            if first == 0 and run == "\ufeff":
                continue  # the byte order mark
            if run == "\u2069" and first in closers:
                continue
            if run in _ISOLATES:
                closer = _balanced_isolate(text, first, stop)
                if closer is not None:
                    closers.add(closer)
                    continue
            if run == "\ufeff" or len(run) > 1 or run not in _JOINERS:
                if _is_flag_tags(text, first, run) or _hyphenation(text, first, run):
                    continue
                runs.append(InvisibleRun(first, last, run))
                continue
            if not _joiner_needed(text, first, run):
                runs.append(InvisibleRun(first, last, run))
    return runs


def _split_at_sequences(text: str, first: int, last: int) -> list[tuple[int, int]]:
    """The run ``text[first:last]`` without the variation selectors that complete a
    variation sequence with the character before them (``\u2705\ufe0f``): the parts
    left, each a run."""
    if not any(
        "\ufe00" <= char <= "\ufe0f" or "\U000e0100" <= char <= "\U000e01ef"
        for char in text[first:last]
    ):
        return [(first, last)]
    parts: list[tuple[int, int]] = []
    at = first
    for index in range(first, last):
        if index > 0 and sequence_base(text[index - 1], text[index]):
            if at < index:
                parts.append((at, index))
            at = index + 1
    if at < last:
        parts.append((at, last))
    return parts


def sequence_base(base: str, selector: str) -> bool:
    """Whether ``base`` followed by the variation selector ``selector`` is a variation
    sequence real text writes: an emoji presentation selector (U+FE0E, U+FE0F) after a
    character with the Unicode ``Emoji`` property (keyboards add U+FE0F to emoji that
    need none), a standardized variant (U+FE00-U+FE02) or an ideographic variation
    sequence (U+E0100-U+E01EF after a CJK ideograph)."""
    point = ord(selector)
    if 0xE0100 <= point <= 0xE01EF:
        return unicodedata.name(base, "").startswith("CJK UNIFIED IDEOGRAPH")
    return ord(base) in _bases(point)


@lru_cache(maxsize=8)
def _bases(selector: int) -> frozenset[int]:
    from skilldeck.engine.safety._variation import RANGES  # noqa: PLC0415 (rarely needed)

    points: set[int] = set()
    for item in RANGES.get(selector, "").split():
        first, _, last = item.partition("-")
        points.update(range(int(first, 16), int(last or first, 16) + 1))
    return frozenset(points)


_ISOLATES = frozenset("\u2066\u2067\u2068")
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: What Trojan Source hides in an isolate: the code around a comment or a string.
_CODE_MARKS = ('"', "'", "`", "/*", "*/", "//", "#", ";", "{", "}", "(", ")", "=")


def _balanced_isolate(text: str, first: int, stop: int) -> int | None:
    """The offset of the PDI that closes the isolate opened at ``first`` when it is how
    bidirectional text is written (W3C, "Inline markup and bidirectional text"): closed
    on its own line, nothing else directional inside, a line holding right-to-left
    text, and no code punctuation inside (Trojan Source stretches a comment or a string
    that way); else ``None``."""
    line_end = stop
    for mark in ("\n", "\r"):
        at = text.find(mark, first, stop)
        if 0 <= at < line_end:
            line_end = at
    closer = text.find("\u2069", first + 1, line_end)
    if closer < 0:
        return None
    inside = text[first + 1 : closer]
    if not inside.strip() or any(char in _BIDI_CONTROLS for char in inside):
        return None
    if any(mark in inside for mark in _CODE_MARKS):
        return None
    line_start = max(text.rfind("\n", 0, first), text.rfind("\r", 0, first)) + 1
    outside = text[line_start:first] + text[closer + 1 : line_end]
    if not any(unicodedata.bidirectional(char) in _RIGHT_TO_LEFT for char in outside):
        return None
    return closer


#: The bidirectional classes of strong right-to-left characters.
_RIGHT_TO_LEFT = frozenset({"R", "AL"})
_DIRECTION_MARKS = frozenset("\u200e\u200f\u061c")


def _joiner_needed(text: str, first: int, run: str) -> bool:
    """Whether a lone joiner or direction mark is how the text around it is written.

    A zero-width joiner or non-joiner between two non-ASCII characters (emoji sequences,
    Persian, Indic) is. A direction mark (LRM, RLM, ALM) is in a line that holds
    right-to-left text: there it gives neutral characters (punctuation, digits, spaces)
    their direction, ASCII punctuation included; but not between two left-to-right
    letters, where it only splits a word. In a line without right-to-left text it
    does nothing a reader could see."""
    before = text[first - 1] if first > 0 else "a"
    after = text[first + 1] if first + 1 < len(text) else "a"
    if run not in _DIRECTION_MARKS:
        return not before.isascii() and not after.isascii()
    if unicodedata.bidirectional(before) == "L" and unicodedata.bidirectional(after) == "L":
        return False
    line_start = max(text.rfind("\n", 0, first), text.rfind("\r", 0, first)) + 1
    line_end = len(text)
    for stop in ("\n", "\r"):
        at = text.find(stop, first)
        if 0 <= at < line_end:
            line_end = at
    return any(
        unicodedata.bidirectional(char) in _RIGHT_TO_LEFT
        for char in text[line_start:line_end]
        if not char.isascii() and char not in _DIRECTION_MARKS
    )


_SOFT_HYPHEN = "\u00ad"
#: The scripts whose words are hyphenated (a soft hyphen marks where a line may break).
_HYPHENATED_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "GEORGIAN")


def _hyphenated_letter(char: str) -> bool:
    if not char.isalpha():
        return False
    return char.isascii() or unicodedata.name(char, "").startswith(_HYPHENATED_SCRIPTS)


def _hyphenation(text: str, first: int, run: str) -> bool:
    """Whether the run is a lone soft hyphen between two letters of a word of a
    language that hyphenates (``Donau\u00addampf\u00adschiff``): typography, where a
    line may break. Not when the word, joined, is one the instruction grammars know
    (``instruc\u00adtions``, ``Dis\u00adregard``): a trigger word split to slip past a
    word filter is hidden, whatever else the text says."""
    if run != _SOFT_HYPHEN or first == 0 or first + 1 >= len(text):
        return False
    if not (_hyphenated_letter(text[first - 1]) and _hyphenated_letter(text[first + 1])):
        return False
    start = first
    while start > 0 and (text[start - 1] == _SOFT_HYPHEN or _hyphenated_letter(text[start - 1])):
        start -= 1
    end = first + 1
    while end < len(text) and (text[end] == _SOFT_HYPHEN or _hyphenated_letter(text[end])):
        end += 1
    word = text[start:end].replace(_SOFT_HYPHEN, "").casefold()
    return word not in _trigger_words()


@lru_cache(maxsize=1)
def _trigger_words() -> frozenset[str]:
    from skilldeck.engine.safety._intent import vocabulary  # noqa: PLC0415 (rarely needed)

    return vocabulary()


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


_SMALL_CAPITAL = re.compile(r"\bSMALL CAPITAL ([A-Z])$")


def _ascii_look_alike(char: str, data: dict[str, list[dict[str, str]]]) -> tuple[str, str] | None:
    """The ASCII text ``char`` passes for, and how: its compatibility form (NFKC:
    fullwidth letters, ligatures, superscripts), a confusable in the Unicode confusables
    data (dotless i, script g, Cyrillic a), or the letter a small capital is named for."""
    compatible = unicodedata.normalize("NFKC", char)
    if compatible != char and compatible.isascii() and compatible.isalnum():
        return compatible.lower(), "is a compatibility form of"
    for glyph in data.get(char, []):
        text = str(glyph["c"])
        if text.isascii() and text.isalnum():
            return text.lower(), "looks like"
    small = _SMALL_CAPITAL.search(unicodedata.name(char, ""))
    if small is not None:
        return small.group(1).lower(), "is a small capital"
    return None


@lru_cache(maxsize=256)
def name_confusion(name: str) -> NameConfusion | None:
    """Whether a non-ASCII ``name`` passes for a Latin name it is not.

    Reported: a name every non-ASCII character of which passes for ASCII text, when
    what they spell could be a skill's name -- a look-alike in another script (``exe``
    spelt in Cyrillic) or in Latin itself (``sk\\u0131ll`` with a dotless i, ``pay``
    in fullwidth letters, the ``fi`` ligature, small capitals); and a name that mixes
    scripts with a letter that passes for a Latin letter (``paypal`` spelt with U+0430
    CYRILLIC SMALL LETTER A). A name in another script, alone or beside Latin words
    (``日本語-tools``, ``привет``), or with letters that only look like themselves
    (``café-tools``), is fine. The test is UTS #39's: NFKC and the confusables data
    (``confusable_homoglyphs``), and the character's name for small capitals, which
    that data maps to other small capitals.
    """
    if name.isascii():
        return None
    from confusable_homoglyphs import categories, confusables  # noqa: PLC0415 (~50 ms)

    scripts = tuple(
        sorted(alias for alias in categories.unique_aliases(name) if alias not in ("COMMON",))
    )
    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    look_alikes: list[str] = []
    latin_parts: list[str] = []
    for char in name:
        if char.isascii():
            latin_parts.append(char)
            continue
        found = _ascii_look_alike(char, data)
        if found is None:
            latin_parts.append(char)
            continue
        text, how = found
        latin_parts.append(text)
        if char.isalnum():
            look_alikes.append(f"`{char}` ({code_point_name(char)}) {how} `{text}`")
    latin = "".join(latin_parts)
    look_alikes = list(dict.fromkeys(look_alikes))
    letters = [char for char in name if char.isalpha()]
    # all look-alikes, and what they spell could be a skill's name (``exe``, not ``HABblK``)
    all_look_alike = bool(letters) and latin.isascii() and is_skill_name(latin)
    mixed = len(scripts) > 1 and bool(look_alikes)
    if not mixed and not all_look_alike:
        return None
    return NameConfusion(scripts, tuple(look_alikes), latin)
