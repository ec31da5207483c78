"""Hidden Markdown, instructions aimed at the model, and routing hijacks (SD1005-SD1010).

Every pattern here is a phrase, not a guess at intent, and each rule looks only where
its phrase means what it says: instructions (SD1007-SD1009) are judged in prose, not
in code blocks, inline code or quotation marks, so a skill that teaches about prompt
injection can quote the phrases; hidden Markdown (SD1005) is what renders to nothing;
an instruction inside hidden Markdown is SD1006 (an error). A cheap keyword test on the
lowered text runs before each regular expression, so a body without the trigger words
costs a few substring searches. No static scan catches every rephrasing
(``docs/safety.md``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from skilldeck.engine.safety._hits import Gate, Hit, folded, present_marks, shorten, word_matches

_I = re.IGNORECASE
_IS = re.IGNORECASE | re.DOTALL

# --- instructions aimed at the model ---------------------------------------------------

_OVERRIDE = re.compile(
    r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|every\s+)?(?:of\s+)?"
    r"(?:the\s+|your\s+|my\s+|these\s+|those\s+)?(?:previous|prior|earlier|above|preceding|"
    r"former|original|system|initial)\s+(?:\w+\s+)?(?:instructions?|prompts?|rules|guidelines|"
    r"directions|directives|messages|guardrails|policies|context)\b"
    r"|\b(?:ignore|disregard)\s+(?:all\s+)?(?:of\s+)?your\s+(?:instructions|system\s+prompt|"
    r"guidelines|rules|programming)\b",
    _I,
)
_IDENTITY = re.compile(
    r"\b(?:you\s+are\s+now|from\s+now\s+on,?\s+you\s+are|act\s+as|pretend\s+(?:to\s+be|you\s+are)"
    r"|become)\s+(?:an?\s+|in\s+)?(?:\w+\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken|"
    r"DAN\b|evil|amoral|developer\s+mode|god\s+mode)"
    r"|\b(?:forget|abandon)\s+(?:who|what)\s+you\s+(?:are|were)\b"
    r"|\byou\s+are\s+no\s+longer\s+(?:an?\s+)?(?:ai|assistant|claude|bound|restricted|limited)\b"
    r"|\byour\s+(?:new|true|real)\s+(?:identity|name|self|instructions)\s+(?:is|are)\b"
    r"|\b(?:enter|enable|activate|switch\s+to)\s+(?:developer|god|jailbreak|DAN)\s+mode\b",
    _I,
)
_ROLE_MARKERS = re.compile(
    r"<\|im_start\|>|<\|system\|>|\[/?INST\]|<<SYS>>|<\|start_header_id\|>"
    r"|\b(?:new|updated)\s+system\s+(?:prompt|instructions?)\s*:"
    r"|^\s*system\s+(?:override|prompt)\s*:",
    re.IGNORECASE | re.MULTILINE,
)
_CONCEAL = re.compile(
    r"\b(?:do\s+not|don't|never)\s+(?:tell|inform|notify|alert|let)\s+(?:the\s+)?users?\b"
    r"(?!\s+to\b)"
    r"|\b(?:do\s+not|don't|never)\s+(?:mention|reveal|disclose|show|report)\s+"
    r"(?:(?:this|that|it|these|them|any\s+of\s+this|the\s+\w+)\s+)?to\s+the\s+users?\b"
    r"|\b(?:hide|conceal)\s+(?:this|these|that|it|them|(?:the|your|any)\s+\w+)\s+from\s+"
    r"(?:the\s+)?users?\b"
    r"|\bwithout\s+the\s+user(?:'s)?\s+(?:knowing|knowledge|noticing|seeing|awareness)\b"
    r"|\b(?:the\s+user|they)\s+(?:must|should)\s+(?:not|never)\s+(?:know|see|notice|find\s+out)\b",
    _I,
)
_STEALTH = re.compile(
    r"\b(?:secretly|covertly|surreptitiously|stealthily)\b"
    r"|\b(?:silently|quietly)\s+(?:send|upload|post|exfiltrate|transmit|copy|forward|collect)\b",
    _I,
)
_EXFILTRATE = re.compile(
    r"\b(?:send|upload|post|transmit|exfiltrate|forward|leak|email|copy)\b"
    r"(?:[^.\n]|\.(?=\S)){0,60}?"
    r"(?P<what>\b(?:api[ _-]?keys?|credentials?|secrets?|access\s+tokens?|tokens?|passwords?|"
    r"private\s+keys?|ssh\s+keys?|id_rsa|cookies|environment\s+variables)\b|\.env\b)"
    r"(?:[^.\n]|\.(?=\S)){0,60}?\b(?:to|at)\s+(?:https?://|\S+@\S+\.\w+|(?:an?\s+|the\s+|my\s+|our\s+|this\s+)?"
    r"(?:external|remote|attacker|webhook|third[- ]party|collector|endpoint|server))",
    _I,
)
#: Words before a match, in its sentence, that make it a prohibition.
_NEGATION = re.compile(r"\b(?:never|not|don't|avoid|prevent|without|no)\b", _I)

#: (pattern, rule, what the message says the text asks, the gate that must open for the
#: pattern to be tried: :class:`~skilldeck.engine.safety._hits.Gate`)
_INSTRUCTIONS: tuple[tuple[re.Pattern[str], str, str, Gate], ...] = (
    (
        _OVERRIDE,
        "SD1007",
        "ignore earlier instructions",
        Gate(("ignore", "disregard", "forget", "override", "bypass")),
    ),
    (
        _IDENTITY,
        "SD1007",
        "take another identity",
        Gate(("unrestricted", "unfiltered", "uncensored", "jailbr", " dan", "evil", "amoral",
              "developer mode", "god mode", "forget", "abandon", "no longer", "your new ",
              "your true ", "your real ")),
    ),
    (
        _ROLE_MARKERS,
        "SD1007",
        "read chat-template role markers",
        Gate(("<|", "[inst]", "[/inst]", "<<sys>>", "system prompt", "system instruction",
              "system override")),
    ),
    (
        _CONCEAL,
        "SD1008",
        "keep something from the user",
        Gate(("user", "they "), also=("not", "n't", "never", "hide", "conceal", "without")),
    ),
    (
        _STEALTH,
        "SD1008",
        "keep something from the user",
        Gate(("secretly", "covertly", "surreptitiously", "stealthily", "silently", "quietly")),
    ),
    (
        _EXFILTRATE,
        "SD1009",
        "send data out",
        Gate(
            ("send", "upload", "post", "transmit", "exfiltrate", "forward", "leak", "email",
             "copy"),
            also=("key", "credential", "secret", "token", "password", ".env", "id_rsa",
                  "cookie", "environment variable"),
        ),
    ),
)  # fmt: skip

#: The words every match of a pattern begins with (lowercase): the pattern
#: is tried only where one occurs (:func:`~skilldeck.engine.safety._hits.word_matches`).
_STARTS: dict[re.Pattern[str], tuple[str, ...]] = {
    _OVERRIDE: ("ignore", "disregard", "forget", "override", "bypass"),
    _IDENTITY: ("you", "from", "act", "pretend", "become", "forget", "abandon", "enter",
                "enable", "activate", "switch"),
    _CONCEAL: ("do", "never", "hide", "conceal", "without", "the"),
    _STEALTH: ("secretly", "covertly", "surreptitiously", "stealthily", "silently", "quietly"),
    _EXFILTRATE: ("send", "upload", "post", "transmit", "exfiltrate", "forward", "leak",
                  "email", "copy"),
}  # fmt: skip

# --- Markdown that renders to nothing ---------------------------------------------------

_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})", re.MULTILINE)
_COMMENT = re.compile(r"<!--(?P<comment>.*?)(?:-->|\Z)", re.DOTALL)
_REFERENCE = re.compile(
    r"^[ \t]{0,3}\[[^\]\n]*\]:[ \t]*(?:#|<>)[ \t]*(?:\((?P<refp>[^\n]*)\)|\"(?P<refq>[^\n]*)\""
    r"|'(?P<refs>[^\n]*)')[ \t]*$",
    re.MULTILINE,
)
_ELEMENT = re.compile(
    r"<(?P<tag>[a-zA-Z][\w-]*)\b[^>]*?(?:\shidden\b|style\s*=\s*[\"'][^\"']*(?:display\s*:\s*"
    r"none|visibility\s*:\s*hidden|font-size\s*:\s*0))[^>]*>(?P<element>.*?)</(?P=tag)\s*>",
    re.IGNORECASE | re.DOTALL,
)
#: Each kind of hidden Markdown: its pattern, what it is called, and the gate that opens
#: when the text holds one of the strings the pattern needs (found with every other
#: gate's marks in one pass, :func:`~skilldeck.engine.safety._hits.present_marks`).
_HIDDEN: tuple[tuple[re.Pattern[str], str, Gate], ...] = (
    (_COMMENT, "an HTML comment", Gate(("<!--",))),
    (_REFERENCE, "a comment-style link definition", Gate(("]:",))),
    (_ELEMENT, "a hidden HTML element", Gate(("hidden", "display", "visibility", "font-size"))),
)
_WORD = re.compile(r"[^\W\d_]{2,}")
#: Hidden text of this many words or fewer is a marker, not prose.
_MARKER_WORDS = 3

# --- descriptions that claim every request --------------------------------------------

_QUALIFIER = (
    r"(?!\s*(?:involving|that|which|where|related|relating|about|regarding|concerning|with|in"
    r"|on|for|of|to|from|using|when|whenever|if|like|mentioning|requiring|needing|around)\b)"
)
_HIJACK = re.compile(
    r"\b(?:use|invoke|call|load|trigger|activate|apply|run|select|choose|pick)\s+(?:this"
    r"(?:\s+skill)?|me|it)\s+(?:for|on|with|in)\s+(?:all|every|any|each)\s+(?:single\s+)?"
    r"(?:requests?|tasks?|quer(?:y|ies)|questions?|prompts?|messages?|conversations?|"
    r"interactions?|situations?|cases?|turns?|user\s+(?:requests?|inputs?|messages?))\b"
    + _QUALIFIER
    + r"|\b(?:use|invoke|call|load|trigger|activate|apply|run|consult|read)\s+(?:this(?:\s+skill)?"
    r"|me)\s+(?:first|before\s+(?:any|all|every)\s+(?:other\s+)?(?:skills?|tools?|tasks?|"
    r"requests?|actions?|responses?|answers?))\b"
    + _QUALIFIER
    + r"|\b(?:regardless\s+of|no\s+matter)\s+(?:what\s+)?(?:the\s+)?(?:task|request|query|"
    r"question|topic|user\s+asks)\b"
    r"|\b(?:instead\s+of|over|before)\s+(?:any|all|every)\s+other\s+skills?\b"
    r"|\bfor\s+(?:everything|any\s+and\s+all\s+\w+)\b",
    _I,
)
#: One of these is in every phrase :data:`_HIJACK` matches (its gate; a test holds the two
#: to the same answers).
_HIJACK_WORDS = (
    "all", "every", "any", "each", "first", "regardless", "no matter", "other skill"
)  # fmt: skip


class CodeBlocks:
    """The fenced code blocks of ``text[start:end]`` (:func:`fenced_code`), found when
    first asked about: most bodies hold nothing that needs them."""

    __slots__ = ("_blocks", "_end", "_start", "_text")

    def __init__(self, text: str, start: int, end: int) -> None:
        self._text, self._start, self._end = text, start, end
        self._blocks: tuple[tuple[int, int], ...] | None = None

    def holds(self, offset: int) -> bool:
        """Whether ``offset`` falls in a fenced code block."""
        if self._blocks is None:
            self._blocks = fenced_code(self._text, self._start, self._end)
        return any(a <= offset < b for a, b in self._blocks)


@dataclass(frozen=True, slots=True)
class Regions:
    """Where prose is not: fenced code blocks and hidden Markdown (sorted offset pairs)."""

    code: CodeBlocks
    hidden: tuple[tuple[int, int], ...]

    def inside(self, offset: int) -> bool:
        """Whether ``offset`` falls in code or hidden Markdown."""
        return self.code.holds(offset) or any(a <= offset < b for a, b in self.hidden)


def _fences(text: str, start: int, end: int) -> Iterator[tuple[int, str]]:
    """Each fence line's start and its fence (three or more backticks or tildes, indented
    by at most three spaces), found by substring search (no regular expression scans the
    whole text)."""
    found: list[int] = []
    for mark in ("```", "~~~"):
        at = text.find(mark, start, end)
        while at >= 0:
            found.append(at)
            line_end = text.find("\n", at, end)
            at = -1 if line_end < 0 else text.find(mark, line_end, end)
    for at in sorted(found):
        line_start = text.rfind("\n", 0, at) + 1
        if line_start < start or len(text[line_start:at].expandtabs(4)) > 3:
            continue
        if text[line_start:at].strip(" \t"):
            continue
        match = _FENCE.match(text, line_start, end)
        if match is not None:
            yield line_start, match.group(1)


def fenced_code(text: str, start: int, end: int) -> tuple[tuple[int, int], ...]:
    """The fenced code blocks of ``text[start:end]`` (an unclosed fence runs to the end)."""
    if "```" not in text and "~~~" not in text:
        return ()
    blocks: list[tuple[int, int]] = []
    opening: tuple[int, str] | None = None
    for at, fence in _fences(text, start, end):
        if opening is None:
            opening = (at, fence)
        elif fence[0] == opening[1][0] and len(fence) >= len(opening[1]):
            fence_end = text.index(fence, at) + len(fence)
            line_end = text.find("\n", fence_end)
            rest = text[fence_end : end if line_end < 0 else line_end]
            if not rest.strip():
                blocks.append((opening[0], fence_end))
                opening = None
    if opening is not None:
        blocks.append((opening[0], end))
    return tuple(blocks)


@dataclass(frozen=True, slots=True)
class HiddenMarkdown:
    """One piece of Markdown that renders to nothing: what it is and the text it holds."""

    what: str
    start: int
    end: int
    text_start: int
    text: str


def hidden_markdown(
    text: str, start: int, end: int, code: CodeBlocks, present: frozenset[str]
) -> list[HiddenMarkdown]:
    """HTML comments, comment-style link definitions and hidden HTML elements outside
    code blocks in ``text[start:end]``, whose marks (:func:`present_marks` of the text
    folded) are ``present``."""
    found: list[HiddenMarkdown] = []
    for pattern, what, gate in _HIDDEN:
        if not gate.opens(present):
            continue
        for match in pattern.finditer(text, start, end):
            if code.holds(match.start()):
                continue
            group = next(
                name
                for name, value in match.groupdict().items()
                if value is not None and name != "tag"
            )
            found.append(
                HiddenMarkdown(
                    what, match.start(), match.end(), match.start(group), match.group(group)
                )
            )
    found.sort(key=lambda item: item.start)
    return found


def _quoted(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` sits inside inline code or quotation marks on its line."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    before = text[line_start:start]
    after = text[end : len(text) if line_end < 0 else line_end]
    if before.count("`") % 2 == 1 and "`" in after:
        return True
    if before.count('"') % 2 == 1 and '"' in after:
        return True
    if before.count("\u201c") > before.count("\u201d") and "\u201d" in after:
        return True
    # 'single quotes' only when the opening one starts a word (not an apostrophe)
    opened = re.findall(r"(?:^|[\s(\[:])'", before)
    closed = re.findall(r"'(?:$|[\s).,;:!?\]])", before)
    return len(opened) > len(closed) and "'" in after


def _negated(text: str, start: int) -> bool:
    """Whether the sentence before ``start`` forbids what follows (``never send ...``)."""
    sentence = max(text.rfind(". ", 0, start), text.rfind("\n", 0, start)) + 1
    return _NEGATION.search(text, sentence, start) is not None


def instruction_hits(
    text: str,
    start: int,
    end: int,
    present: frozenset[str],
    skip: Regions | None,
    *,
    lowered: str | None = None,
) -> Iterator[Hit]:
    """SD1007-SD1009 in ``text[start:end]``; ``present`` is ``present_marks`` of that
    text lowered (the keyword test); matches inside ``skip`` regions or quotation marks
    are left out. ``lowered``: :func:`~skilldeck.engine.safety._hits.folded` of ``text``
    (patterns are then tried only at their first words,
    :func:`~skilldeck.engine.safety._hits.word_matches`)."""
    for pattern, code, kind, gate in _INSTRUCTIONS:
        if not gate.opens(present):
            continue
        starts = _STARTS.get(pattern)
        for match in word_matches(pattern, starts, text, start, end, lowered=lowered):
            if skip is not None and (
                skip.inside(match.start()) or _quoted(text, match.start(), match.end())
            ):
                continue
            fields: tuple[tuple[str, str], ...]
            if code == "SD1009":
                if _negated(text, match.start()):
                    continue  # "never send tokens to ..."
                fields = (("what", match.group("what")), ("text", shorten(match.group())))
            elif code == "SD1008":
                if _first_is_plain(match) and _negated(text, match.start()):
                    continue  # "never secretly ..."
                fields = (("text", shorten(match.group())),)
            else:
                fields = (("kind", kind), ("text", shorten(match.group())))
            yield Hit(code, match.start(), match.end(), fields)


def _first_is_plain(match: re.Match[str]) -> bool:
    """A conceal phrase that carries no negation of its own (``secretly``, ``hide ...``)."""
    head = match.group().lower()
    return not head.startswith(("do not", "don't", "never"))


def hidden_hits(
    text: str, start: int, end: int, present: frozenset[str]
) -> tuple[list[Hit], Regions]:
    """SD1005 and SD1006 in the body ``text[start:end]`` whose marks are ``present``
    (:func:`hidden_markdown`), and the regions where prose is not (code blocks, hidden
    Markdown) for :func:`instruction_hits`."""
    code = CodeBlocks(text, start, end)
    hidden = hidden_markdown(text, start, end, code, present)
    hits: list[Hit] = []
    for item in hidden:
        inner = item.text
        lowered = folded(inner)
        instruction = next(
            instruction_hits(inner, 0, len(inner), present_marks(lowered), None, lowered=lowered),
            None,
        )
        if instruction is not None:
            hits.append(
                Hit(
                    "SD1006",
                    item.start,
                    item.end,
                    (
                        ("what", _capital(item.what)),
                        ("kind", _kind(instruction)),
                        ("text", shorten(inner)),
                    ),
                )
            )
        elif len(_WORD.findall(inner)) > _MARKER_WORDS:
            hits.append(
                Hit(
                    "SD1005",
                    item.start,
                    item.end,
                    (("what", _capital(item.what)), ("text", shorten(inner))),
                )
            )
    return hits, Regions(code, tuple((item.start, item.end) for item in hidden))


#: Regions of a text judged line by line: none, so only quotation marks and inline code
#: are left out (a caller drops the hits in code blocks and hidden Markdown afterwards).
PROSE = Regions(CodeBlocks("", 0, 0), ())
#: The rules :func:`instruction_hits` reports.
INSTRUCTION_CODES = frozenset({"SD1007", "SD1008", "SD1009"})


def tag_text_hit(hidden: str) -> str | None:
    """The kind of instruction the decoded tag text gives, if it gives one (SD1006)."""
    lowered = folded(hidden)
    for hit in instruction_hits(
        hidden, 0, len(hidden), present_marks(lowered), None, lowered=lowered
    ):
        return _kind(hit)
    return None


def _kind(hit: Hit) -> str:
    """What an SD1007-SD1009 hit asks of the model, in words (SD1006's message)."""
    if hit.code == "SD1009":
        return "send data out"
    return hit.value("kind", "keep something from the user")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def hijack_phrase(description: str) -> re.Match[str] | None:
    """The phrase by which a description claims every request (SD1010), if any."""
    lowered = folded(description)
    if not any(word in lowered for word in _HIJACK_WORDS):
        return None
    return _HIJACK.search(description)
