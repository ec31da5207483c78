"""Instructions aimed at the model, and the Markdown that hides them (SD1005-SD1010,
SD1017-SD1020).

Instructions are judged by intent (:mod:`~skilldeck.engine.safety._intent`: override,
conceal, exfiltrate, claim every request, pre-approved actions, tool redirection) on
normalised text (:mod:`~skilldeck.engine.safety._normalise`), wherever the model reads
them: the body and the bundle's Markdown, every frontmatter value, hidden Markdown and
Unicode tag text. In visible prose a quoted or taught phrase is not an instruction
(:mod:`~skilldeck.engine.safety._prose`); in hidden text only a negation exempts one.
Hidden Markdown is what a rendered view does not show
(:mod:`~skilldeck.engine.safety._markdown`): an instruction or a command in it is SD1006
(an error); in a tooltip (a title, alt text) SD1017; hidden prose of more than three
words is SD1005 in a comment, a reference definition or a fence's info string (an
author's note) and SD1020 where HTML hides it (an element, an attribute value, a
processing instruction). No static scan catches every rephrasing (``docs/safety.md``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from skilldeck.engine.safety._flow import INSTRUCTS
from skilldeck.engine.safety._hits import Gate, Hit, present_marks, shorten
from skilldeck.engine.safety._intent import INTENTS, IntentMatch, intent_matches
from skilldeck.engine.safety._markdown import Structure, in_code, structure
from skilldeck.engine.safety._normalise import Normalised, normalise
from skilldeck.engine.safety._prose import forbidden_by_intro, quoted, teaching, words

#: Chat-template role markers: read as a new conversation turn by some models.
_ROLE_MARKERS = re.compile(
    r"<\|im_start\|>|<\|system\|>|\[/?INST\]|<<SYS>>|<\|start_header_id\|>"
    r"|^\s*(?:#{1,6}\s*)?system\s+(?:override|prompt)\s*:",
    re.IGNORECASE | re.MULTILINE,
)
_ROLE_GATE = Gate(("<|", "[inst]", "[/inst]", "<<sys>>", "system override", "system prompt"))

#: The intents judged in a body, a bundle file, a frontmatter value and hidden text;
#: claiming every request is judged where the model routes by it (the catalog keys) and
#: in hidden text.
BODY_INTENTS = frozenset({"override", "identity", "conceal", "exfiltrate", "preapprove",
                          "redirect", "destroy"})  # fmt: skip
HIDDEN_INTENTS = BODY_INTENTS | {"claim"}
CATALOG_INTENTS = HIDDEN_INTENTS
#: The rules :func:`instruction_hits` reports (prose instructions).
INSTRUCTION_CODES = frozenset(
    {"SD1007", "SD1008", "SD1009", "SD1010", "SD1018", "SD1019", "SD1055"}
)
#: The hidden-Markdown rules.
HIDDEN_CODES = frozenset({"SD1005", "SD1006", "SD1017", "SD1020"})
#: What a hidden command asks of the model (SD1006's kind).
COMMAND_KIND = "run a command"
_COMMAND_CODES = frozenset({"SD1011", "SD1012", "SD1013", "SD1014"})
#: Hidden text of this many words or fewer is a marker, not prose.
_MARKER_WORDS = 3
_WORD = re.compile(r"[^\W\d_]{2,}")
#: What hides an author's note (SD1005); anything else hidden is hidden by HTML (SD1020).
_NOTES = frozenset({"an HTML comment", "a link reference definition",
                    "a code fence's info string"})  # fmt: skip
#: Markup around hidden text: comment and CDATA delimiters, the opening of a processing
#: instruction or declaration, a whole tag.
_MARKUP = re.compile(r"<!--|--!?>|<!\[CDATA\[|\]\]>|<[!?]|\?>|</?[A-Za-z][^<>]*>?")
#: The opening of a tag an HTML block leaves open (what follows it is its attribute text).
_OPEN_TAG = re.compile(r"<[A-Za-z][\w-]*")


@dataclass(frozen=True, slots=True)
class Found:
    """An intent (or a role marker) found at source ``start:end``."""

    code: str
    kind: str
    start: int
    end: int
    what: str = ""


def find_intents(
    text: str,
    start: int,
    end: int,
    only: frozenset[str],
    *,
    present: frozenset[str] | None = None,
) -> list[Found]:
    """The intents of ``only`` in ``text[start:end]`` (normalised first), not negated,
    with their source ranges; and chat-template role markers. ``present``: the marks of
    the text lowered, when it is plain ASCII (then it is its normalised form).

    A blank line is a clause break, which no intent's grammar crosses, and a grammar's
    gate holds words of its match: so a text whose gates open is judged a paragraph at
    a time, each paragraph only when its own gates open (the words of an opened text
    are mostly in paragraphs that open none: about a twentieth of the collection's
    text is read word by word, against half when a chunk of 1-4 KB was the unit)."""
    norm = normalise(text, start, end, entities=True)
    if present is None or norm.starts is not None or norm.text != text[start:end].lower():
        present = present_marks(norm.text)
    found: list[Found] = []
    if _ROLE_GATE.opens(present):
        found += (
            Found("SD1007", "read chat-template role markers", m.start(), m.end())
            for m in _ROLE_MARKERS.finditer(text, start, end)
        )
    if not _opens(present, only):
        return found
    paragraphs = _paragraphs(text, start, end)
    if len(paragraphs) == 1:
        found += _intents(norm, present, only)
    else:
        for first, last in paragraphs:
            piece = normalise(text, first, last, entities=True)
            marks = present_marks(piece.text)
            if _opens(marks, only):
                found += _intents(piece, marks, only)
    found.sort(key=lambda f: f.start)
    return found


#: A blank line (a clause break for :func:`~skilldeck.engine.safety._prose.words`).
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
#: Shorter texts are judged whole.
_PARAGRAPH_SPLIT = 512


def _paragraphs(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """``text[start:end]`` cut after each blank line (the blank line stays with the
    paragraph before it, so its clause break does too)."""
    if end - start < _PARAGRAPH_SPLIT:
        return [(start, end)]
    pieces: list[tuple[int, int]] = []
    at = start
    for blank in _BLANK_LINE.finditer(text, start, end):
        pieces.append((at, blank.end()))
        at = blank.end()
    if at < end:
        pieces.append((at, end))
    return pieces or [(start, end)]


def _opens(present: frozenset[str], only: frozenset[str]) -> bool:
    return bool(present) and any(i.opens(present) for i in INTENTS if i.name in only)


def _intents(norm: Normalised, present: frozenset[str], only: frozenset[str]) -> list[Found]:
    """The intents of ``only`` in the normalised text ``norm`` whose marks are
    ``present``."""
    line = words(norm)
    found: list[Found] = []
    match: IntentMatch
    for match in intent_matches(line, present, only=only):
        first, last = line.normalised_span(match.start, match.end)
        source_start, source_end = norm.span(first, last)
        found.append(
            Found(match.intent.code, match.intent.kind, source_start, source_end, match.what)
        )
    return found


def _fields(found: Found, text: str) -> tuple[tuple[str, str], ...]:
    said = shorten(text[found.start : found.end])
    if found.code == "SD1009":
        return (("what", found.what or "data"), ("text", said))
    if found.code == "SD1007":
        return (("kind", found.kind), ("text", said))
    if found.code == "SD1010":
        return (("phrase", said),)
    if found.code == "SD1055":
        return (("what", found.what or "data"), ("text", said))
    return (("text", said),)


def instruction_hits(
    text: str,
    start: int,
    end: int,
    *,
    only: frozenset[str] = BODY_INTENTS,
    floor: int = 0,
    present: frozenset[str] | None = None,
) -> Iterator[Hit]:
    """SD1007-SD1010, SD1018, SD1019 in the visible prose ``text[start:end]``: quoted
    phrases (quotation marks, inline code) and phrases the sentence presents as an
    example, an attack or something to detect are left out (``floor``: where the
    sentence search stops). Code and hidden Markdown are left out by the caller."""
    for found in find_intents(text, start, end, only, present=present):
        if found.kind != "read chat-template role markers" and (
            quoted(text, found.start, found.end)
            or teaching(text, found.start, floor)
            or forbidden_by_intro(text, found.start, floor)
        ):
            continue
        if found.code == "SD1055" and (
            _reported(text, found.start, max(start, floor))
            or _hedged(text, found.start, start)
            or not _imperative(text, found.start, start)
        ):
            continue
        yield Hit(found.code, found.start, found.end, _fields(found, text))
    if "exfiltrate" in only and ("://" in text or "@" in text):
        for hit in foreign_exfiltration(text, start, end):
            if not (quoted(text, hit.start, hit.end) or teaching(text, hit.start, floor)):
                yield hit


#: A sentence that reports what someone told an agent (an incident write-up), not an
#: instruction: "the injected prompt told the agent to delete ...".
_REPORTED = re.compile(
    r"\b(?:told|instructed|ordered|directed|urged|commanded|tricked|telling|asking|"
    r"instructing|directing|ordering|urging|injected|(?:the|a|its|malicious)\s+prompt|"
    r"incident|wiper|compromis\w*|post-?mortem|breach|hijacked|poisoned|rogue)\b",
    re.IGNORECASE,
)


#: Words just before a destroying verb that make it a possibility or a guarded step, not
#: an order: "a key that could delete every bucket", "confirm before you drop ...".
_HEDGES = re.compile(
    r"\b(?:would|could|might|may|can|cannot|can't|able\s+to|allowed\s+to|before|unless|"
    r"confirm\w*|approv\w*|ask|asks|asking|whether|if\s+you|accidentally|mistakenly)\b",
    re.IGNORECASE,
)


def _hedged(text: str, at: int, floor: int) -> bool:
    """Whether the four words before ``at`` (in its clause) hedge a destroying verb."""
    first = max(floor, at - 60)
    before = text[first:at]
    for mark in (". ", ", ", "; ", ": ", "\n"):
        cut = before.rfind(mark)
        if cut >= 0:
            before = before[cut + len(mark) :]
    words = before.split()[-4:]
    return _HEDGES.search(" ".join(words)) is not None


#: What may stand between a clause's start and the verb of an order ("then delete ...",
#: "your goal is to wipe ..."); a subject there ("the script deletes ...", "an agent that
#: wipes ...") makes it a description.
_ORDER_LEADS = frozenset(
    {"then", "and", "also", "finally", "first", "next", "now", "please", "immediately",
     "silently", "quietly", "just", "always", "to", "must", "should", "you", "afterwards",
     "after", "that,", "-", "*", "+", ">", "step", "simply", "go", "ahead", "and,"}
)  # fmt: skip


def _imperative(text: str, at: int, floor: int) -> bool:
    """Whether the verb at ``at`` is said as an order: first in its clause, or after
    only words that lead one (:data:`_ORDER_LEADS`)."""
    before = text[max(floor, at - 80) : at]
    for mark in (". ", ", ", "; ", ": ", "\n", "(", "! ", "? ", '"', "`"):
        cut = before.rfind(mark)
        if cut >= 0:
            before = before[cut + len(mark) :]
    words = [w.lower().strip("*_") for w in before.split()]
    if not words or words[-1] in ("to", "must", "should", "please", "then", "now"):
        return True  # "your goal is to wipe ...", "you must delete ..."
    return all(w in _ORDER_LEADS or re.fullmatch(r"\d+[.)]", w) for w in words[-3:])


def _reported(text: str, at: int, floor: int) -> bool:
    """Whether the sentence of ``at`` (or the line introducing its quoted or listed
    block) reports what an agent was told (SD1055)."""
    first = floor
    for mark in (". ", ".\n", "! ", "? ", "\n\n"):
        found = text.rfind(mark, floor, at)
        if found >= 0:
            first = max(first, found + len(mark))
    line_start = text.rfind("\n", 0, at) + 1
    if re.match(r"[ \t]*(?:>|[-*+][ \t]|\d{1,3}[.)][ \t])", text[line_start:at]):
        # a quoted or listed line: the sentence that introduces its block reports it
        block = line_start
        while block > floor:
            previous = text.rfind("\n", 0, block - 1) + 1
            if not re.match(r"[ \t]*(?:>|[-*+][ \t]|\d{1,3}[.)][ \t]|$)", text[previous:block]):
                first = min(first, max(previous, floor))
                break
            block = previous
    last = len(text)
    for mark in (". ", ".\n", "! ", "? ", "\n\n"):
        found = text.find(mark, at)
        if found >= 0:
            last = min(last, found)
    return _REPORTED.search(text, first, last) is not None


#: Exfiltration asked for in other languages (Spanish, Portuguese, French, German,
#: Italian, Chinese, Japanese, Russian): a verb of sending, a secret and a destination
#: (a URL or an address) in one sentence, not negated before the verb.
_FOREIGN_SEND = re.compile(
    r"env[ií]a(?:lo|la|r|d)?|env[ií]e|manda(?:r|lo)?|sube|suba|subir|publica|reenv[ií]a|"
    r"transmit[ea]|envoie[rz]?|envoyez|t[ée]l[ée]verse[rz]?|transf[eé]re[rz]?|"
    r"invia(?:re)?|carica(?:re)?|"
    r"sende[nt]?|schick(?:e|en|t)?|[üu]bermittle[nt]?|lade\b.{0,40}?\bhoch|"
    r"发送|上传|发到|传到|提交到|转发|发给|送到|寄到|"
    r"送信|アップロード|送って|転送|"
    r"отправ\w*|загруз\w*|перешл\w*",
    re.IGNORECASE,
)
_FOREIGN_SECRET = re.compile(
    r"~/\.ssh|\.ssh/|id_rsa|id_ed25519|(?<![\w])\.env\b|\.aws/|\.npmrc|\.netrc|credentials|"
    r"contrase[ñn]a|claves?\s+(?:de\s+)?(?:api|privad|secret|ssh)|\btokens?\b|credenciai?les|"
    r"variables\s+de\s+entorno|vari[áa]veis\s+de\s+ambiente|senhas?|"
    r"mots?\s+de\s+passe|cl[ée]s?\s+(?:api|priv[ée]e|ssh|secr[èe]te)|jetons?|identifiants|"
    r"variables\s+d'environnement|passw[öo]rter?|schl[üu]ssel|zugangsdaten|umgebungsvariablen|"
    r"chiavi|password|variabili\s+d'ambiente|"
    r"密钥|令牌|密码|凭证|凭据|环境变量|私钥|"
    r"パスワード|秘密鍵|トークン|環境変数|認証情報|"
    r"парол\w*|токен\w*|ключ\w*|учетн\w+\s+данн\w*",
    re.IGNORECASE,
)
_FOREIGN_DEST = re.compile(r"https?://[^\s)\]>\"'`]+|(?<![\w.])[\w.+-]+@[\w-]+\.[\w.-]+")
_FOREIGN_NOT = re.compile(
    r"\b(?:no|nunca|jam[áa]s|n[ãa]o|ne|n'|jamais|nicht|niemals|keine?n?|non|mai)\b|"
    r"不要|不得|切勿|禁止|别|勿|しないで|するな|禁止|\u043d\u0438\u043a\u043e\u0433\u0434\u0430|"
    r"\b\u043d\u0435\b",
    re.IGNORECASE,
)
_SENTENCE_BREAK = re.compile(
    r"[.!?;\u3002\uff01\uff1f\uff1b]\s|[\u3002\uff01\uff1f\uff1b]|\n\s*\n|\n\s*[-*+]\s|\n\s*\d+[.)]\s"
)


def foreign_exfiltration(text: str, start: int, end: int) -> Iterator[Hit]:
    """SD1009 asked for in another language than English (see :data:`_FOREIGN_SEND`)."""
    at = start
    breaks = [m.end() for m in _SENTENCE_BREAK.finditer(text, start, end)] + [end]
    for stop in breaks:
        sentence_start, at = at, stop
        send = _FOREIGN_SEND.search(text, sentence_start, stop)
        if send is None:
            continue
        secret = _FOREIGN_SECRET.search(text, sentence_start, stop)
        dest = _FOREIGN_DEST.search(text, sentence_start, stop)
        if secret is None or dest is None:
            continue
        if _FOREIGN_NOT.search(text, sentence_start, send.start()):
            continue
        first = min(send.start(), secret.start())
        last = max(send.end(), secret.end(), dest.end())
        said = shorten(text[first:last])
        yield Hit("SD1009", first, last, (("what", secret.group()), ("text", said)))


@lru_cache(maxsize=512)
def hidden_kind(text: str) -> str | None:
    """What the hidden text asks of the model, if it instructs it (only a negation
    exempts a phrase: quotation and teaching do not hide it from the model)."""
    found = find_intents(text, 0, len(text), HIDDEN_INTENTS)
    return found[0].kind if found else None


INSTRUCTS["kind"] = hidden_kind


def tag_text_hit(hidden: str) -> str | None:
    """The kind of instruction the decoded tag text gives, if it gives one (SD1006)."""
    return hidden_kind(hidden)


@dataclass(frozen=True, slots=True)
class Regions:
    """Where prose is not: code, and hidden Markdown or tooltips (sorted pairs)."""

    found: Structure
    hidden: tuple[tuple[int, int], ...]

    def inside(self, offset: int) -> bool:
        """Whether ``offset`` falls in code or hidden Markdown."""
        return self.hidden_at(offset) or in_code(self.found, offset)

    def hidden_at(self, offset: int) -> bool:
        """Whether ``offset`` falls in hidden Markdown (a tooltip included)."""
        return any(a <= offset < b for a, b in self.hidden)

    def code_at(self, offset: int) -> bool:
        """Whether ``offset`` falls in a code block (not an inline code span: a command
        quoted in a sentence is prose)."""
        return in_code(self.found, offset, spans=False)


@dataclass(frozen=True, slots=True)
class _Item:
    start: int
    end: int
    why: str
    tooltip: bool
    said: str | None = None


def _items(text: str, found: Structure) -> list[_Item]:
    """The hidden pieces, those of one hidden element (same reason, only blank space
    between: the blocks of a `<div hidden>`) joined."""
    items: list[_Item] = []
    for piece in sorted(found.hidden, key=lambda h: (h.start, h.end)):
        last = items[-1] if items else None
        if piece.said is not None:
            items.append(_Item(piece.start, piece.end, piece.why, piece.tooltip, piece.said))
        elif (
            last is not None
            and last.said is None
            and last.why == piece.why
            and piece.why.startswith(("a `<", "an `<", "the unclosed", "an unclosed"))
            and last.tooltip == piece.tooltip
            and not text[last.end : piece.start].strip()
        ):
            items[-1] = _Item(last.start, max(last.end, piece.end), last.why, last.tooltip)
        elif last is not None and piece.start < last.end:
            continue  # inside a piece already taken (an attribute of a hidden tag)
        else:
            items.append(_Item(piece.start, piece.end, piece.why, piece.tooltip))
    return items


def hidden_hits(
    text: str,
    start: int,
    end: int,
    chunks: Iterable[tuple[int, int]],
    *,
    commands: Sequence[Hit] = (),
    also: Iterable[int] = (),
    found_candidates: Iterable[int] | None = None,
) -> tuple[list[Hit], Regions]:
    """SD1005, SD1006, SD1017 and SD1020 in the Markdown ``text[start:end]`` (judged
    in ``chunks``), and the regions where prose is not (code, hidden Markdown), for the
    instruction hits. ``commands``: the command hits of the text (a command in hidden
    Markdown is a hidden instruction); ``also``: offsets to check against code."""
    found = structure(text, start, end, chunks, also=also, found=found_candidates)
    hits: list[Hit] = []
    regions: list[tuple[int, int]] = []
    for item in _items(text, found):
        regions.append((item.start, item.end))
        inner = item.said
        if inner is None and item.why.startswith("the unclosed tag"):
            inner = _OPEN_TAG.sub(" ", text[item.start : item.end], count=1)
        if inner is None:
            inner = _MARKUP.sub(" ", text[item.start : item.end])
        kind = hidden_kind(inner)
        if kind is None and not item.tooltip:
            kind = next(
                (COMMAND_KIND for c in commands
                 if c.code in _COMMAND_CODES and item.start <= c.start < item.end),
                None,
            )  # fmt: skip
        what = _capital(item.why)
        said = shorten(inner)
        if kind is not None:
            code = "SD1017" if item.tooltip else "SD1006"
            fields = (("what", what), ("kind", kind), ("text", said))
            hits.append(Hit(code, item.start, item.end, fields))
        elif not item.tooltip and len(_WORD.findall(inner)) > _MARKER_WORDS:
            code = "SD1005" if item.why in _NOTES else "SD1020"
            hits.append(Hit(code, item.start, item.end, (("what", what), ("text", said))))
    return hits, Regions(found, tuple(regions))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def claim_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Where ``text[start:end]`` (a description) claims every request (SD1010)."""
    for found in find_intents(text, start, end, frozenset({"claim"})):
        if found.code == "SD1010":
            return found.start, found.end
    return None
