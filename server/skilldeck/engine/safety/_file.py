"""The supply-chain safety rules of one skill file (SD1001-SD1015), as findings.

:func:`safety_findings` runs from the per-file analysis (:mod:`skilldeck.engine.files`),
so ``check``, the language server and the MCP server see the same findings. It scans the
whole text once per concern: invisible characters (:mod:`~skilldeck.engine.safety._chars`),
hidden Markdown and instructions (:mod:`~skilldeck.engine.safety._instructions`), commands and
secrets (:mod:`~skilldeck.engine.safety._commands`). Offsets become spans through one
:class:`LineIndex`, built only when something was found.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from functools import lru_cache

from skilldeck.engine.frontmatter import Frontmatter, FrontmatterEntry, LineIndex, scalar_source
from skilldeck.engine.rules import Finding, Fix, TextEdit, rule
from skilldeck.engine.safety._chars import (
    InvisibleRun,
    describe_points,
    describe_tag_text,
    invisible_runs,
    name_confusion,
    plain_ascii,
    run_kinds,
    strip_invisible,
)
from skilldeck.engine.safety._code_prose import frontmatter_comments
from skilldeck.engine.safety._commands import command_hits
from skilldeck.engine.safety._hits import Hit, folded, present_marks, shorten
from skilldeck.engine.safety._instructions import (
    BODY_INTENTS,
    CATALOG_INTENTS,
    INSTRUCTION_CODES,
    hidden_hits,
    hidden_kind,
    instruction_hits,
    tag_text_hit,
)
from skilldeck.engine.safety._markdown import chunk_candidates
from skilldeck.engine.safety._normalise import line_feeds
from skilldeck.engine.safety._prose import warned_against
from skilldeck.engine.safety._scripts import STRUCTURAL, Analysed, markdown_scripts
from skilldeck.engine.text import Position, Span

#: ``offer(title, edits, changes)``: the fix when the edits make exactly ``changes`` to
#: the frontmatter mapping (:meth:`skilldeck.engine.checks.CheckContext.offer`).
Offer = Callable[[str, tuple[TextEdit, ...], Mapping[str, object]], tuple[Fix, ...]]

#: The keys a host lists in the catalog the model routes by (Claude Code appends
#: ``when_to_use`` to the description): invisible characters there are SD1002 errors.
_CATALOG_KEYS = ("name", "description", "when_to_use", "whenToUse")
#: The keys whose text claims requests (SD1010).
_ROUTING_KEYS = ("description", "when_to_use", "whenToUse")
#: Commands whose prose mention a warning sentence exempts (SD1011-SD1014).
_COMMAND_CODES = frozenset({"SD1011", "SD1012", "SD1013", "SD1014", "SD1054"})


class _Spans:
    """Offsets to spans. Without a carriage return a position is counted with two C-speed
    string scans (no line index of a 50 KB text at each keystroke); with one, the line
    index is built on first use. ``offset`` serves positions inside the frontmatter."""

    def __init__(self, text: str, frontmatter_end: int) -> None:
        self.text = text
        self._plain = "\r" not in text
        self._index: LineIndex | None = None
        self._head: LineIndex | None = None
        self._frontmatter_end = frontmatter_end

    def position(self, offset: int) -> Position:
        if self._plain:
            line_start = self.text.rfind("\n", 0, offset) + 1
            return Position(self.text.count("\n", 0, offset), offset - line_start)
        if self._index is None:
            self._index = LineIndex(self.text)
        return self._index.position(offset)

    def span(self, start: int, end: int) -> Span:
        return Span(self.position(start), self.position(max(start, end)))

    def offset(self, position: Position) -> int:
        if self._head is None:
            self._head = LineIndex(self.text, self._frontmatter_end)
        return self._head.offset(position)


def safety_findings(
    text: str,
    fm: Frontmatter,
    body_start: int,
    *,
    name: str | None,
    description: str | None,
    offer: Offer,
    name_refused: bool = False,
) -> list[Finding]:
    """Every SD1001-SD1015 finding of one skill file whose frontmatter parsed.

    ``name_refused``: another rule already refuses the name with an error (SD203 names
    the look-alike or invisible character): SD1002 and SD1004 leave the name alone.
    """
    text = line_feeds(text)  # line endings never matter (same offsets, same lines)
    spans = _Spans(text, body_start)
    findings: list[Finding] = []
    skipped = ("name",) if name_refused else ()
    findings += _frontmatter_characters(text, fm, body_start, spans, offer, skipped=skipped)
    findings += _frontmatter_text(text, fm, spans)
    findings += _frontmatter_comments(text[:body_start], spans)
    head = text[:body_start]
    lowered = folded(head)
    for hit in command_hits(head, 0, body_start, present_marks(lowered), lowered=lowered):
        if hit.code in _COMMAND_CODES and _warned(text, hit, 0):
            continue
        findings.append(_finding(hit, spans))
    hits, runs, scripts = _body(text[body_start:])
    for hit in hits:
        moved = replace(hit, start=body_start + hit.start, end=body_start + hit.end)
        findings.append(_finding(moved, spans))
    findings += _script_findings(scripts.moved(text, body_start), findings, spans)
    runs = tuple(
        InvisibleRun(body_start + run.start, body_start + run.end, run.text) for run in runs
    )
    findings += _body_characters(runs, spans)
    if name is not None and not name_refused:
        confusion = name_confusion(name)
        entry = fm.get("name")
        if confusion is not None and entry is not None:
            detail = "; ".join(confusion.look_alikes) or "every letter passes for Latin"
            if len(confusion.scripts) > 1:
                detail = f"it mixes {' and '.join(s.title() for s in confusion.scripts)}: {detail}"
            findings.append(
                rule("SD1004").finding(
                    entry.value_span, name=name, latin=confusion.latin, detail=detail
                )
            )
    del description  # judged with every other frontmatter value (_frontmatter_text)
    return findings


@lru_cache(maxsize=64)
def _body(body: str) -> tuple[tuple[Hit, ...], tuple[InvisibleRun, ...], Analysed]:
    """The pattern hits of a body that stand, its invisible runs and the analysis of its
    code blocks, offsets into it. Memoised by the body: a deck's copies of a skill
    (and a keystroke in the frontmatter) cost one lookup, whose result each copy moves
    to its own offsets."""
    hits, runs = _body_hits(body)
    # The code blocks parsed: their findings stand for the patterns' there (a block a
    # pattern fired in is parsed whatever its gates say).
    forced = tuple(hit.start for hit in hits if hit.code in STRUCTURAL)
    scripts = markdown_scripts(body, 0, len(body), forced)
    return tuple(hit for hit in hits if not scripts.replaces(hit)), runs, scripts


def _body_hits(body: str) -> tuple[tuple[Hit, ...], tuple[InvisibleRun, ...]]:
    """The findings of a body as hits, and its invisible runs, offsets into it: prose
    instructions, commands and secrets judged a chunk at a time (each chunk memoised),
    hidden Markdown, and which hits code or hidden Markdown or a warning sentence drop."""
    chunks = _body_chunks(body)
    instructions: list[Hit] = []
    commands: list[Hit] = []
    runs: list[InvisibleRun] = []
    plain = plain_ascii(body)  # nearly every skill: no chunk can hold an invisible run
    candidates: list[int] = []
    for first, last in chunks:
        chunk = body[first:last]
        hits, starts = _chunk_hits(chunk)
        for hit in hits:
            moved = replace(hit, start=first + hit.start, end=first + hit.end)
            (instructions if hit.code in INSTRUCTION_CODES else commands).append(moved)
        candidates += (first + at for at in starts)
        if not plain:
            found = invisible_runs(chunk) if chunk.isascii() else _chunk_runs(chunk)
            runs += (InvisibleRun(first + run.start, first + run.end, run.text) for run in found)
    # code and hidden Markdown decide which hits stand: looked up only where a hit is
    checked = [h.start for h in instructions] + [
        h.start for h in commands if h.code in _COMMAND_CODES
    ]
    hidden, regions = hidden_hits(
        body, 0, len(body), chunks, commands=commands, also=checked, found_candidates=candidates
    )
    kept = list(hidden)
    kept += (hit for hit in instructions if not regions.inside(hit.start))
    for hit in commands:
        if (
            hit.code in _COMMAND_CODES
            and not regions.code_at(hit.start)
            and not regions.hidden_at(hit.start)
            and _warned(body, hit, 0)
        ):
            continue  # "never pipe `curl` to `sh`": a warning, not a command
        kept.append(hit)
    return tuple(kept), tuple(runs)


def _warned(text: str, hit: Hit, floor: int) -> bool:
    """Whether a command hit in prose sits in a sentence that warns against it."""
    return warned_against(text, hit.start, hit.end, floor)


#: A body is judged in chunks, each chunk's hits memoised by its text: a keystroke
#: re-judges one chunk. A chunk is at least :data:`_CHUNK_MIN` characters and ends at the
#: first paragraph break after that chosen by the text before it (the line before the
#: blank line has a length divisible by seven: about every seventh paragraph), so an
#: edit moves no boundary but its own chunk's (or, when it shortens a chunk below the
#: minimum, the next one or two); a chunk longer than :data:`_CHUNK_CHARS` is cut at a
#: paragraph or line break. Every rule judged here looks within one line, so chunks cut
#: at line breaks lose nothing.
_CHUNK_MIN = 1024
_CHUNK_CHARS = 4096
_CHUNK_MEMO = 1024


def _chunks(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    at = start
    while at < end:
        stop = end
        blank = text.find("\n\n", at + _CHUNK_MIN, end)
        while 0 <= blank < at + _CHUNK_CHARS - 2:
            line = blank - max(text.rfind("\n", at, blank) + 1, at)
            if line % 7 == 0:
                stop = blank + 2
                break
            blank = text.find("\n\n", blank + 2, end)
        if stop - at > _CHUNK_CHARS:
            cut = text.rfind("\n\n", at + _CHUNK_MIN, at + _CHUNK_CHARS)
            if cut >= 0:
                stop = cut + 2
            else:
                cut = text.find("\n", at + _CHUNK_CHARS, stop)
                stop = stop if cut < 0 else cut + 1
        yield at, stop
        at = stop


@lru_cache(maxsize=64)
def _body_chunks(body: str) -> tuple[tuple[int, int], ...]:
    """The chunks of a body (memoised: copies of a skill share them)."""
    return tuple(_chunks(body, 0, len(body)))


@lru_cache(maxsize=_CHUNK_MEMO)
def _chunk_hits(chunk: str) -> tuple[tuple[Hit, ...], tuple[int, ...]]:
    """The prose instructions (SD1007-SD1009, SD1018, SD1019; quotation and teaching
    left out) and SD1011-SD1015 in one chunk, and where hidden Markdown may start in it
    (:func:`~skilldeck.engine.safety._markdown.chunk_candidates`), offsets into it. The
    gates' marks are found once for all three."""
    lowered = folded(chunk)
    present = present_marks(lowered)
    hits = list(instruction_hits(chunk, 0, len(chunk), only=BODY_INTENTS, present=present))
    if present:
        hits += command_hits(chunk, 0, len(chunk), present, lowered=lowered)
    return tuple(hits), chunk_candidates(chunk, present, lowered)


@lru_cache(maxsize=_CHUNK_MEMO)
def _value_hits(value: str, only: frozenset[str]) -> tuple[Hit, ...]:
    """The instructions in one frontmatter value (memoised: a description is judged
    once, however many copies of a skill the deck holds)."""
    return tuple(instruction_hits(value, 0, len(value), only=only))


@lru_cache(maxsize=_CHUNK_MEMO)
def _chunk_runs(chunk: str) -> tuple[InvisibleRun, ...]:
    return tuple(invisible_runs(chunk))


def _script_findings(scripts: Analysed, findings: list[Finding], spans: _Spans) -> list[Finding]:
    """The code blocks' findings that no pattern finding already made at that line."""
    seen = {(f.code, f.span.start.line) for f in findings}
    found: list[Finding] = []
    for hit in scripts.hits:
        finding = _finding(hit, spans)
        if (finding.code, finding.span.start.line) not in seen:
            seen.add((finding.code, finding.span.start.line))
            found.append(finding)
    return found


def _finding(hit: Hit, spans: _Spans) -> Finding:
    return rule(hit.code).finding(spans.span(hit.start, hit.end), **hit.values())


def _entry_at(fm: Frontmatter, spans: _Spans, offset: int) -> FrontmatterEntry | None:
    for entry in fm.entries:
        span = entry.span
        if spans.offset(span.start) <= offset < spans.offset(span.end):
            return entry
    return None


def _char_finding(
    run: InvisibleRun, place: str, catalog: bool, span: Span, fixes: tuple[Fix, ...]
) -> list[Finding]:
    """SD1001 (and SD1006 when the tag text is an instruction), SD1002 or SD1003."""
    if run.has_tags:
        hidden = describe_tag_text(run.text)
        found = [
            rule("SD1001").finding(
                span, fixes=fixes, count=len(run.text), place=f"the {place}", hidden=hidden
            )
        ]
        kind = tag_text_hit(hidden)
        if kind is not None:
            found.append(
                rule("SD1006").finding(span, what="Unicode tag text", kind=kind, text=hidden)
            )
        return found
    code = "SD1002" if catalog else "SD1003"
    return [
        rule(code).finding(
            span,
            fixes=fixes,
            place=place if catalog else f"the {place}",
            count=len(run.text),
            kinds=run_kinds(run.text),
            points=describe_points(run.text),
        )
    ]


def _frontmatter_characters(
    text: str,
    fm: Frontmatter,
    body_start: int,
    spans: _Spans,
    offer: Offer,
    *,
    skipped: tuple[str, ...],
) -> list[Finding]:
    runs = invisible_runs(text, 0, body_start)
    findings: list[Finding] = []
    by_entry: dict[str, list[InvisibleRun]] = {}
    entries: dict[str, FrontmatterEntry] = {}
    loose: list[InvisibleRun] = []
    for run in runs:
        entry = _entry_at(fm, spans, run.start)
        if entry is None:
            loose.append(run)
        elif entry.key in skipped and not run.has_tags:
            continue
        else:
            by_entry.setdefault(entry.key, []).append(run)
            entries[entry.key] = entry
    for key, key_runs in by_entry.items():
        entry = entries[key]
        fixes: tuple[Fix, ...] = ()
        if isinstance(entry.value, str):
            edits = tuple(TextEdit(spans.span(r.start, r.end), "") for r in key_runs)
            fixes = offer(
                f"Remove the invisible characters from `{key}`",
                edits,
                {key: strip_invisible(entry.value)},
            )
        place = _place(key)
        for run in key_runs:
            findings += _char_finding(
                run, place, key in _CATALOG_KEYS, spans.span(run.start, run.end), fixes
            )
    for run in loose:
        findings += _char_finding(run, "frontmatter", False, spans.span(run.start, run.end), ())
    # A quoted value can spell the characters as escapes ("\u200b", "\U000E0049"), at
    # any depth of any key the model may read (``metadata``): judge the parsed values too
    # (a frontmatter of printable ASCII without a backslash spells none).
    head = text[:body_start]
    if plain_ascii(head) and "\\" not in head:
        return findings
    for entry in fm.entries:
        key = entry.key
        if key in by_entry or key in skipped:
            continue
        for text_value in _strings(entry.value, key):
            found = invisible_runs(text_value)
            if found:
                findings += _char_finding(
                    found[0], _place(key), key in _CATALOG_KEYS, entry.value_span, ()
                )
                break
    return findings


def _place(key: str) -> str:
    return key if key in ("name", "description") else f"`{key}` value"


def _strings(value: object, key: str = "") -> Iterator[str]:
    """Every string in a frontmatter value, mapping keys included, at any depth."""
    stack: list[object] = [key, value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            for child_key, child in item.items():
                stack.append(child_key)
                stack.append(child)
        elif isinstance(item, (list, tuple)):
            stack.extend(item)


def _frontmatter_text(text: str, fm: Frontmatter, spans: _Spans) -> list[Finding]:
    """Instructions in every frontmatter value the model may read (the description
    every session): SD1007-SD1009, SD1018, SD1019, and SD1010 where the catalog routes
    by the text. Reported at the phrase: where the source spells it (a top-level value,
    :func:`~skilldeck.engine.frontmatter.scalar_source`), else where the file spells it
    as the value does, else at the value."""
    findings: list[Finding] = []
    for entry in fm.entries:
        only = CATALOG_INTENTS if entry.key in _ROUTING_KEYS else BODY_INTENTS
        for value in _strings(entry.value):
            if " " not in value:
                continue  # an instruction takes words (a name, a URL, a flag cannot hold one)
            for hit in _value_hits(value, only):
                start = spans.offset(entry.value_span.start)
                end = spans.offset(entry.value_span.end)
                mapped = (
                    scalar_source(text, start, end, entry.style, value)
                    if value is entry.value
                    else None
                )
                if mapped is not None:
                    span = spans.span(*mapped.source_range(hit.start, hit.end))
                else:  # a nested value: where the file spells the phrase as the value does
                    phrase = value[hit.start : hit.end]
                    at = text.find(phrase, start, end)
                    span = spans.span(at, at + len(phrase)) if at >= 0 else entry.value_span
                findings.append(rule(hit.code).finding(span, **hit.values()))
    return findings


def _frontmatter_comments(head: str, spans: _Spans) -> list[Finding]:
    """SD1006 for an instruction in a comment of the frontmatter: the model reads the
    file's source; a rendered view (GitHub's frontmatter table) shows no comment."""
    masked = frontmatter_comments(head)
    if masked is None:
        return []
    findings: list[Finding] = []
    for block in re.finditer(r"[^\n]*\S[^\n]*(?:\n[^\n]*\S[^\n]*)*", masked):
        comment = " ".join(block.group(0).split())
        kind = hidden_kind(comment)
        if kind is not None:
            start = block.start() + len(block.group(0)) - len(block.group(0).lstrip())
            findings.append(
                rule("SD1006").finding(
                    spans.span(start, block.end()),
                    what="a YAML comment of the frontmatter",
                    kind=kind,
                    text=shorten(comment, 120),
                )
            )
    return findings


def _body_characters(runs: Iterable[InvisibleRun], spans: _Spans) -> list[Finding]:
    findings: list[Finding] = []
    for run in runs:
        span = spans.span(run.start, run.end)
        count = len(run.text)
        title = f"Remove {count} invisible character{'s' if count > 1 else ''}"
        fixes = (Fix(title, (TextEdit(span, ""),)),)
        findings += _char_finding(run, "body", False, span, fixes)
    return findings
