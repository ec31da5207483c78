"""A host's skill listing against its budget: per entry ``full``, ``cut`` at N characters,
``name-only`` or ``left-out``, the total and its token estimate.

The rules are each host's :class:`~skilldeck.engine.hosts._table.CatalogRules` (docs/hosts.md
cites them, the host lab observed them): Claude Code keeps its own skills whole and the
others whole in listing order while they fit, the rest by name only; Codex shares the
room a character at a time, counting each line in tokens (its UTF-8 bytes / 4, rounded
up) against 2 % of the context window less its skill roots table; GitHub Copilot CLI
keeps entries in listing order while their text fits in 15,000 characters. Entries come
in listing order and are measured as the host writes them
(:func:`~skilldeck.engine.hosts._listing.entry_text`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from skilldeck.engine.hosts._listing import Written, entry_text
from skilldeck.engine.hosts._table import CHARS_PER_TOKEN, Host

CatalogState = Literal["full", "cut", "name-only", "left-out"]


@dataclass(frozen=True)
class Offer:
    """One entry a host offers its model, in listing order: ``key`` tells same-named
    entries apart (the skill file's path; ``builtin:NAME`` for the host's own skills),
    ``text`` is what it shows when whole (shaped and cut as the host does, not escaped),
    ``location`` the path or scope it shows, ``section`` its heading (Kimi Code)."""

    key: str
    name: str
    text: str
    location: str | None = None
    section: str | None = None
    #: One of the host's own skills: kept whole past the budget (Claude Code).
    builtin: bool = False
    #: The characters of the text before the host's per-entry cut (``None``: the text
    #: was not cut): an entry cut there is ``cut`` even when its budget keeps it whole.
    whole: int | None = None
    #: Listed by its name alone whatever the budget (the host's settings say so).
    name_only: bool = False

    @property
    def text_chars(self) -> int:
        return len(self.text)

    def written(self, shown: int | None) -> Written:
        """The entry with ``shown`` characters of its text (``None``: the name alone)."""
        text = None if shown is None else self.text[:shown]
        return Written(self.name, text, self.location, self.section)


@dataclass(frozen=True)
class BudgetEntry:
    """One listing entry: the skill, its state and the characters of text it shows
    (``key``: its skill file)."""

    name: str
    state: CatalogState
    shown_chars: int
    key: str = ""
    #: The location the host's entry shows, where it shows one.
    path: str = ""
    #: Left out because the host lists no such skill (``disable-model-invocation``
    #: honoured, ...), not for its budget.
    unlisted: bool = False
    #: One of the host's own skills (no file of the deck).
    builtin: bool = False
    section: str | None = None


@dataclass(frozen=True)
class BudgetReport:
    """The listing a host builds (see the module doc). ``budget`` is ``None`` when the
    host has no total budget, else counted in ``unit`` (``total`` too); ``total_chars``
    counts the entries as written, a line break each."""

    host: str
    context_tokens: int | None
    budget: int | None
    unit: Literal["chars", "tokens"]
    total: int
    total_chars: int
    token_estimate: int
    entries: tuple[BudgetEntry, ...]
    #: The characters of the host's own skills' entries, in ``total_chars`` (their text
    #: is the host's: only its length is known, observed).
    own_chars: int = 0

    @property
    def budget_chars(self) -> int | None:
        """The budget in characters (``None``: none, or counted in tokens)."""
        return self.budget if self.unit == "chars" else None

    def to_json(self) -> dict[str, object]:
        """The ``budget --json`` document."""
        return {
            "host": self.host,
            "contextTokens": self.context_tokens,
            "budgetChars": self.budget_chars,
            "budgetTokens": self.budget if self.unit == "tokens" else None,
            "totalTokens": self.total if self.unit == "tokens" else None,
            "totalChars": self.total_chars,
            "tokenEstimate": self.token_estimate,
            "hostOwnChars": self.own_chars,
            "entries": [
                {"name": e.name, "state": e.state, "shownChars": e.shown_chars}
                for e in self.entries
                if not e.builtin
            ],
        }

    def entry_for(self, key: str) -> BudgetEntry | None:
        """The entry of the skill file ``key``."""
        return next((entry for entry in self.entries if entry.key == key), None)


def budget_from_offers(
    host: Host,
    offers: Sequence[Offer],
    *,
    context_tokens: int | None,
    unlisted: Iterable[Offer] = (),
    overhead: int = 0,
) -> tuple[BudgetReport, dict[str, CatalogState]]:
    """The listing of ``offers`` (in listing order) against ``host``'s budget; the
    states are keyed by :attr:`Offer.key`. ``unlisted``: skills the host loads but does
    not list (``left-out`` entries that count nothing). ``overhead``: what the listing
    spends besides its entries, in the budget's unit (Codex's skill roots table)."""
    rules = host.catalog
    context = context_tokens if context_tokens is not None else rules.default_context_tokens
    unit: Literal["chars", "tokens"] = "chars"
    budget: int | None = None
    if rules.budget_fraction is not None and context_tokens is not None:
        if rules.budget_unit == "tokens":
            unit, budget = "tokens", int(context_tokens * rules.budget_fraction)
        else:
            budget = int(context_tokens * rules.budget_fraction * CHARS_PER_TOKEN)
    elif rules.budget_chars is not None:
        budget = rules.budget_chars
    elif rules.budget_fraction is not None and context is not None:
        if rules.budget_unit == "tokens":
            unit, budget = "tokens", int(context * rules.budget_fraction)
        else:
            budget = int(context * rules.budget_fraction * CHARS_PER_TOKEN)
    elif rules.budget_fraction is not None:
        budget = rules.budget_chars_unknown_context
    shown: list[int | None] = [o.text_chars for o in offers]
    if budget is not None:
        if rules.overflow == "name-only":
            shown = _name_only(host, offers, budget)
        elif rules.overflow == "shorten-then-omit":
            shown = _shorten_then_omit(host, offers, budget - overhead, unit)
        elif rules.overflow == "omit":
            shown = _omit(host, offers, budget)
    shown = [
        -1 if o.name_only and given is not None else given
        for o, given in zip(offers, shown, strict=True)
    ]
    entries: list[BudgetEntry] = []
    total_chars = 0
    own_chars = 0
    total_tokens = overhead
    for offer, given in zip(offers, shown, strict=True):
        state: CatalogState
        count = 0
        if given is None:
            state = "left-out"
        elif given < 0:
            # shown by its name alone, also where it had no text to drop: its line is the
            # bare name (``- a``), shorter than an empty text's (``- a: ``)
            state = "name-only"
        else:
            whole = offer.whole if offer.whole is not None else offer.text_chars
            kept = given >= offer.text_chars and whole <= offer.text_chars
            state, count = ("full" if kept else "cut"), given
        entries.append(
            BudgetEntry(
                offer.name,
                state,
                count,
                offer.key,
                offer.location or "",
                False,
                offer.builtin,
                offer.section,
            )
        )
        if state != "left-out":
            line = entry_text(host, offer.written(None if state == "name-only" else count))
            total_chars += len(line) + 1
            total_tokens += _tokens(line)
            if offer.builtin:
                own_chars += len(line) + 1
    entries.extend(
        BudgetEntry(o.name, "left-out", 0, o.key, o.location or "", True, o.builtin, o.section)
        for o in unlisted
    )
    total = total_tokens if unit == "tokens" else total_chars
    report = BudgetReport(
        host.name,
        context,
        budget,
        unit,
        total,
        total_chars,
        -(-total_chars // CHARS_PER_TOKEN),
        tuple(entries),
        own_chars,
    )
    return report, {entry.key: entry.state for entry in entries}


def _tokens(line: str) -> int:
    """Codex's estimate of one line (and its line break): UTF-8 bytes / 4, rounded up."""
    return (len(line.encode("utf-8", "surrogatepass")) + 1 + 3) // 4


def _name_only(host: Host, offers: Sequence[Offer], budget: int) -> list[int | None]:
    """Claude Code: all whole when the entries (and a line break between two) fit; else
    its own skills whole, the others whole in listing order while the room left holds
    them, by name only otherwise (``-1``: name only)."""
    full = [len(entry_text(host, o.written(None if o.name_only else o.text_chars))) for o in offers]
    bare = [len(entry_text(host, o.written(None))) for o in offers]
    between = max(0, len(offers) - 1)
    if sum(full) + between <= budget:
        return [o.text_chars for o in offers]
    fixed = zip(offers, full, bare, strict=True)
    room = budget - between - sum(whole if o.builtin else name for o, whole, name in fixed)
    shown: list[int | None] = []
    for offer, whole, name in zip(offers, full, bare, strict=True):
        if offer.builtin:
            shown.append(offer.text_chars)
        elif whole - name <= room:
            room -= whole - name
            shown.append(offer.text_chars)
        else:
            shown.append(-1)
    return shown


def _omit(host: Host, offers: Sequence[Offer], budget: int) -> list[int | None]:
    """GitHub Copilot CLI: the entries (a line break each; its own skills aside) in
    listing order while they fit in the budget; the rest are left out."""
    used = 0
    shown: list[int | None] = []
    full = True
    for offer in offers:
        if offer.builtin:
            shown.append(offer.text_chars)
            continue
        cost = len(entry_text(host, offer.written(offer.text_chars))) + 1
        if full and used + cost <= budget:
            used += cost
            shown.append(offer.text_chars)
        else:
            full = False
            shown.append(None)
    return shown


def _shorten_then_omit(
    host: Host, offers: Sequence[Offer], limit: int, unit: Literal["chars", "tokens"]
) -> list[int | None]:
    """Codex (``render.rs``): every line whole when they fit; else, when the lines
    without their text fit, the room left handed out a character at a time to each
    description in turn (a character that costs nothing more is always taken, so short
    texts stay whole and long ones share the rest); else bare lines in order while they
    fit, the rest left out (``-1``: name only)."""

    def cost(line: str) -> int:
        return _tokens(line) if unit == "tokens" else len(line) + 1

    full = [cost(entry_text(host, o.written(o.text_chars))) for o in offers]
    if sum(full) <= limit:
        return [o.text_chars for o in offers]
    bare_lines = [entry_text(host, o.written(0)) for o in offers]
    bare = [cost(line) for line in bare_lines]
    if sum(bare) > limit:
        used = 0
        out: list[int | None] = []
        for cost_of in bare:
            if used + cost_of <= limit:
                used += cost_of
                out.append(-1)
            else:
                out.append(None)
        return out
    remaining = limit - sum(bare)
    # The extra cost of each description prefix, as Codex measures it.
    extras: list[list[int]] = []
    for offer, line in zip(offers, bare_lines, strict=True):
        base_chars = len(line) + 1
        base_bytes = len(line.encode("utf-8", "surrogatepass")) + 1
        base = (base_bytes + 3) // 4 if unit == "tokens" else base_chars
        steps = [0]
        bytes_ = 0
        for chars, char in enumerate(offer.text, start=1):
            bytes_ += len(char.encode("utf-8", "surrogatepass"))
            if unit == "tokens":
                steps.append((base_bytes + bytes_ + 1 + 3) // 4 - base)
            else:
                steps.append(chars + 1)
        extras.append(steps)
    given = [0] * len(offers)
    current = [0] * len(offers)
    changed = True
    while changed:
        changed = False
        for index, steps in enumerate(extras):
            if given[index] >= len(steps) - 1:
                continue
            delta = steps[given[index] + 1] - current[index]
            if delta <= remaining:
                given[index] += 1
                current[index] = steps[given[index]]
                remaining -= delta
                changed = True
    return [count if count > 0 else -1 for count in given]
