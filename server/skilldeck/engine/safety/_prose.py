"""Whether a phrase in prose is said, or only mentioned: negation, quotation and
teaching context.

An instruction rule matches what a sentence asks; the same words can forbid it ("never
ignore previous instructions"), quote it (``attackers write "ignore previous
instructions"``) or teach about it ("flag inputs such as ignore previous instructions").
A dangerous command quoted in a sentence that warns against it ("never pipe `curl` to
`sh`") is not a command the skill runs. This module answers those questions for one hit,
so every rule (SD1006-SD1019 on text, SD1011-SD1014 on commands in prose) answers them
the same way:

- :func:`words` turns normalised text (:mod:`~skilldeck.engine.safety._normalise`) into
  one string of words separated by single spaces, clause breaks as ``|``, which the
  intent grammar (:mod:`~skilldeck.engine.safety._intent`) matches with regular
  expressions, and :func:`negated` looks back from a match for a negation in its clause
  ("do not hesitate to", "never fail to" are not negations);
- :func:`quoted` tells whether a source range sits inside quotation marks or inline code
  on its line;
- :func:`teaching` tells whether the sentence, or the line that introduces the list or
  table it is in, presents what follows as an example, an attack or something to detect;
- :func:`warned_against` is the question for a command in prose (SD1011-SD1014): is it
  in a sentence that forbids or warns against it?
"""

from __future__ import annotations

import re
from bisect import bisect_right

from skilldeck.engine.safety._normalise import Normalised

#: What breaks a clause: ``!``, ``?``, ``;``, a full stop or colon that ends a word, a
#: line break before a blank line or a list item (LF, CRLF and CR alike: the CR of a
#: CRLF is never a break by itself). Each becomes ``|`` (one character for one, so
#: offsets stay those of the normalised text).
_STOP = re.compile(
    r"[!?;\u3002]|[.:](?=\s|$)"
    r"|(?:\n|\r(?!\n))(?=[ \t]*(?:[\r\n]|(?:[-+>]|\d{1,3}[.)])[ \t]))"
)
#: Characters that are never part of a word, and a hyphen, colon, slash or apostrophe
#: that starts one: each becomes a space.
_SEPARATOR = re.compile(
    '["#&()*<=>\\[\\]^`{}\u201c\u201d\u2018\u00ab\u00bb\u300c\u300d\u300e\u300f'
    "\u3010\u3011\u2014\u2013\u2026\u00b7\u2022]|[-:/'](?<![^\\s|][-:/'])"
)
#: A token of the padded text: a clause break, a comma, or a run of word characters.
_TOKEN = re.compile(r"[|,]|[^\s|,]+")
_PIPES = re.compile(r"\|(?: \|)+")


def _padded(text: str) -> str:
    """``text`` with clause breaks as ``|`` and separators as spaces, same length."""
    padded = _SEPARATOR.sub(" ", _STOP.sub("|", text))
    if "\u2019" in padded or "\u3001" in padded:
        padded = padded.replace("\u2019", "'").replace("\u3001", ",")
    return padded


class Words:
    """The words of a normalised text as one line: ``line`` holds each token once,
    separated by one space: a word (with inner dots, slashes, apostrophes and hyphens:
    ``~/.ssh/id_rsa``, ``.env``, ``don't``, ``https://x.example/a``), ``,``, or ``|``
    for a clause break (sentence punctuation, a blank line, a list item). Built with a
    few C-speed substitutions; where each token is in the normalised text is worked
    out only when a match asks (:meth:`normalised_span`)."""

    __slots__ = ("_padded", "_spans", "_starts", "line")

    def __init__(self, text: str) -> None:
        self._padded = _padded(text)
        self.line = _PIPES.sub("|", " ".join(_TOKEN.findall(self._padded)))
        self._starts: list[int] | None = None
        self._spans: list[tuple[int, int]] | None = None

    @property
    def starts(self) -> list[int]:
        """Where each token starts in ``line``."""
        if self._starts is None:
            starts: list[int] = []
            at = 0
            for token in self.tokens():
                starts.append(at)
                at += len(token) + 1
            self._starts = starts
        return self._starts

    def token_at(self, offset: int) -> int:
        """The token of ``line`` that holds ``offset``."""
        return max(0, bisect_right(self.starts, offset) - 1)

    def tokens(self) -> list[str]:
        """The tokens in order."""
        return self.line.split(" ") if self.line else []

    def normalised_span(self, start: int, end: int) -> tuple[int, int]:
        """The normalised-text range of ``line[start:end]`` (whole tokens)."""
        if self._spans is None:
            spans: list[tuple[int, int]] = []
            for match in _TOKEN.finditer(self._padded):
                if match.group() == "|" and spans and self._padded[spans[-1][0]] == "|":
                    continue
                spans.append(match.span())
            self._spans = spans
        first = self.token_at(start)
        last = self.token_at(max(start, end - 1))
        return self._spans[first][0], self._spans[last][1]


def words(norm: Normalised) -> Words:
    """The words of ``norm.text`` (:class:`Words`)."""
    return Words(norm.text)


#: Words that forbid what follows them in their clause.
NEGATIONS = frozenset(
    {"never", "not", "no", "don't", "dont", "doesn't", "didn't", "can't", "cannot",
     "won't", "shouldn't", "mustn't", "shan't", "wouldn't", "isn't", "aren't", "avoid",
     "avoiding", "refuse", "refuses", "prevent", "prevents", "nor", "neither", "nobody",
     "forbid", "forbids", "forbidden", "prohibit", "prohibited", "stop"}
)  # fmt: skip
#: Verbs after a negation that make it an affirmation ("do not hesitate to").
_AFFIRMING = frozenset({"hesitate", "fail", "forget", "neglect", "omit", "mind", "only"})
#: How many tokens before a match a negation still governs it.
_SCOPE = 6


def negated(found: Words, start: int) -> bool:
    """Whether the clause before ``line[start:]`` negates it (``never``, ``do not``,
    ``avoid``...), within a few words and not across a clause break; a negation followed
    by ``hesitate``, ``fail``, ``forget``... affirms."""
    tokens = found.tokens()
    index = found.token_at(start)
    for back in range(index - 1, max(-1, index - 1 - _SCOPE), -1):
        token = tokens[back]
        if token == "|":
            return False
        if token in NEGATIONS:
            following = tokens[back + 1 : index]
            return not any(word in _AFFIRMING for word in following)
    return False


# --- the source: quotation, teaching, warnings ----------------------------------------


def quoted(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` sits inside inline code or quotation marks on its line."""
    line_start = max(text.rfind("\n", 0, start), text.rfind("\r", 0, start)) + 1
    line_end = len(text)
    for stop in ("\n", "\r"):
        at = text.find(stop, end)
        if 0 <= at < line_end:
            line_end = at
    before = text[line_start:start]
    after = text[end:line_end]
    if before.count("`") % 2 == 1 and "`" in after:
        return True
    if before.count('"') % 2 == 1 and '"' in after:
        return True
    for opening, closing in (("\u201c", "\u201d"), ("\u00ab", "\u00bb"), ("\u300c", "\u300d")):
        if before.count(opening) > before.count(closing) and closing in after:
            return True
    # 'single quotes' only when the opening one starts a word (not an apostrophe)
    opened = re.findall(r"(?:^|[\s(\[:])['\u2018]", before)
    closed = re.findall(r"['\u2019](?:$|[\s).,;:!?\]])", before)
    return len(opened) > len(closed) and ("'" in after or "\u2019" in after)


#: Words that present what follows in their sentence as an example, an attack or
#: something to detect, not as what the skill asks.
_TEACHING = re.compile(
    r"\b(?:such\s+as|e\.\s?g\.|i\.\s?e\.|for\s+(?:example|instance)|example|examples|like"
    r"|attacks?|attackers?|adversar\w*|injections?|jailbreaks?|malicious|payloads?|phrases?"
    r"|patterns?|strings?|inputs?\s+(?:that|which|like|such|containing)|detect\w*|flag\w*"
    r"|block\w*|reject\w*|watch\s+(?:out\s+)?for|look\s+(?:out\s+)?for|beware|warn\w*"
    r"|suspicious|red\s+flags?|known\s+as|called|contain\w*|quot\w*|says?|writes?|tries"
    r"|try\s+to|attempts?|test\s+cases?|sample)\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?](?=\s)|(?:\r\n?|\n)[ \t]*(?:\r\n?|\n)")
#: A line of a list item, a table row or a block quote: a block whose introducing line
#: (the last line before it that is none of these) says what the block is.
_ITEM = re.compile(r"[ \t]*(?:(?:[-*+]|\d{1,3}[.)])(?:[ \t]|$)|\||>)")


def _sentence_start(text: str, start: int, floor: int) -> int:
    last = floor
    window = max(floor, start - 600)
    for match in _SENTENCE_END.finditer(text, window, start):
        last = match.end()
    return last


def _line_bounds(text: str, at: int) -> tuple[int, int]:
    first = max(text.rfind("\n", 0, at), text.rfind("\r", 0, at)) + 1
    stops = [stop for stop in (text.find("\n", at), text.find("\r", at)) if stop >= 0]
    return first, min(stops, default=len(text))


def teaching(text: str, start: int, floor: int = 0) -> bool:
    """Whether the sentence before ``start`` presents it as an example, an attack or
    something to detect, or ``start`` is in a list item, table row or block quote whose
    introducing line (the last line before the block that is not part of one) does
    ("Typical payloads look like this:" over a quoted payload)."""
    sentence = _sentence_start(text, start, floor)
    if _TEACHING.search(text, sentence, start) is not None:
        return True
    intro = _intro(text, start, floor)
    return intro is not None and _TEACHING.search(intro) is not None


#: An introducing line that forbids what the list under it says ("**Must Not:**").
_FORBIDDING_INTRO = re.compile(
    r"\b(?:must\s+not|mustn't|do\s+not|don't|donts|don'ts|never|avoid|not\s+allowed"
    r"|forbidden|prohibited|out\s+of\s+scope|anti-?patterns?|pitfalls)\b|\u274c|\U0001f6ab",
    re.IGNORECASE,
)


def _intro(text: str, start: int, floor: int) -> str | None:
    """The line that introduces the list item or table row holding ``start`` (the last
    line before it that is not an item), if ``start`` is in one."""
    first, _ = _line_bounds(text, start)
    if not _ITEM.match(text, first):
        return None
    line_start = first
    for _ in range(40):
        if line_start <= floor:
            return None
        previous_start, previous_end = _line_bounds(text, line_start - 1)
        line = text[previous_start:previous_end]
        if line.strip() and not _ITEM.match(line):
            return line
        line_start = previous_start
    return None


def forbidden_by_intro(text: str, start: int, floor: int = 0) -> bool:
    """Whether ``start`` is in a list item under a line that forbids what the list says
    ("**Must Not:**", "Don'ts", "Never:")."""
    intro = _intro(text, start, floor)
    return intro is not None and _FORBIDDING_INTRO.search(intro) is not None


#: Words by which a clause forbids the command that follows them in it.
_FORBIDS = re.compile(
    r"\b(?:never|not|no|don't|doesn't|avoid\w*|instead\s+of|rather\s+than|refus\w*"
    r"|prohibit\w*|forbid\w*|disallow\w*|stop)\b",
    re.IGNORECASE,
)
#: Words by which a sentence warns against a command it shows (before or after it).
_WARNING = re.compile(
    r"\b(?:dangerous\w*|insecure\w*|unsafe|risky|bad|wrong|anti-?patterns?|vulnerab\w*"
    r"|attacks?|attackers?|malicious|beware|warn\w*|caution|blocks|blocked|flagged|reject\w*"
    r"|detect\w*|unreviewed|blindly|red\s+flags?)\b"
    r"|\u274c|\u26a0|\U0001f6ab|\u26d4",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(r"[,;:](?=\s)|[.!?](?=\s)|(?:\r\n?|\n)[ \t]*(?:\r\n?|\n)")


def warned_against(text: str, start: int, end: int, floor: int = 0) -> bool:
    """Whether the command at ``text[start:end]``, in prose, sits in a sentence that
    forbids or warns against it: a negation in its clause before it (``never pipe
    `curl ... | sh```; not "if it is not installed, run ..."), a warning word in its
    sentence (``... | sh` is dangerous``), or a list item introduced by either."""
    sentence = _sentence_start(text, start, floor)
    clause = sentence
    for match in _CLAUSE_END.finditer(text, sentence, start):
        clause = match.end()
    if _FORBIDS.search(text, clause, start) is not None:
        return True
    if _WARNING.search(text, sentence, start) is not None:
        return True
    _line_first, line_end = _line_bounds(text, end)
    stop = _SENTENCE_END.search(text, end, line_end)
    if _WARNING.search(text, end, stop.start() if stop else line_end) is not None:
        return True
    intro = _intro(text, start, floor)
    return intro is not None and (
        _WARNING.search(intro) is not None or _FORBIDDING_INTRO.search(intro) is not None
    )
