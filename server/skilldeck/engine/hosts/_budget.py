"""A host's skill listing against its budget: per entry ``full``, ``cut`` at N characters,
``name-only`` or ``left-out``, the total and its token estimate.

The rules are each host's :class:`~skilldeck.engine.hosts._table.CatalogRules` (docs/hosts.md
cites them). Sizes are characters of whitespace-collapsed text; an entry costs its name
plus the text it shows, or the whole line where the host counts lines (Codex); tokens
are estimated at one per four characters (:data:`~skilldeck.engine.hosts._table.CHARS_PER_TOKEN`),
never counted by a tokenizer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from skilldeck.engine.hosts._table import CHARS_PER_TOKEN, CatalogRules, Host

CatalogState = Literal["full", "cut", "name-only", "left-out"]


@dataclass(frozen=True)
class Offer:
    """One entry a host offers its model: ``key`` tells same-named entries apart (the
    skill file's path), ``text_chars`` is the whitespace-collapsed text it would show."""

    key: str
    name: str
    text_chars: int
    #: The path the host's line shows (Codex: the file's real path); ``None``: the key.
    path: str | None = None


@dataclass(frozen=True)
class BudgetEntry:
    """One catalog entry: the skill, its state and the characters of text it shows
    (``key``: its skill file, where the host lists same-named skills apart)."""

    name: str
    state: CatalogState
    shown_chars: int
    key: str = ""
    #: The path the host's listed line shows, where it shows one.
    path: str = ""
    #: Left out because the host lists no such skill (``disable-model-invocation``
    #: honoured), not for its budget.
    unlisted: bool = False


@dataclass(frozen=True)
class BudgetReport:
    """The catalog a host builds (see the module doc); ``budget_chars`` is ``None`` when
    the host documents no total budget; ``total_chars`` counts what the host counts (the
    names plus shown text, or whole listed lines)."""

    host: str
    context_tokens: int | None
    budget_chars: int | None
    total_chars: int
    token_estimate: int
    entries: tuple[BudgetEntry, ...]

    def to_json(self) -> dict[str, object]:
        """The ``budget --json`` document."""
        return {
            "host": self.host,
            "contextTokens": self.context_tokens,
            "budgetChars": self.budget_chars,
            "totalChars": self.total_chars,
            "tokenEstimate": self.token_estimate,
            "entries": [
                {"name": e.name, "state": e.state, "shownChars": e.shown_chars}
                for e in self.entries
            ],
        }

    def entry_for(self, key: str) -> BudgetEntry | None:
        """The entry of the skill file ``key``."""
        return next((entry for entry in self.entries if entry.key == key), None)


def budget_from_lengths(
    host: Host,
    offers: Iterable[Offer],
    *,
    context_tokens: int | None,
    entry_cap: int | None,
    unlisted: Iterable[Offer] = (),
) -> tuple[BudgetReport, dict[str, CatalogState]]:
    """The catalog ``host`` builds from ``offers`` (each entry's whitespace-collapsed text
    length, as the listings show it); the states are keyed by :attr:`Offer.key`. Entries
    are listed by name, then key. ``entry_cap`` is DSH's configured description length
    (other hosts use their own). ``unlisted``: skills the host loads but does not list
    (``disable-model-invocation``): ``left-out`` entries that count nothing."""
    rules = host.catalog
    cap = entry_cap if host.engine_roots else rules.entry_cap
    if cap is not None:
        cap = max(cap, 3)
    ordered = sorted(offers, key=lambda offer: (offer.name, offer.key))
    full = {offer.key: offer.text_chars for offer in ordered}
    states: list[BudgetEntry] = []
    for offer in ordered:
        length = offer.text_chars
        path = offer.path if offer.path is not None else offer.key
        if cap is not None and length > cap:
            states.append(BudgetEntry(offer.name, "cut", cap, offer.key, path))
        else:
            states.append(BudgetEntry(offer.name, "full", length, offer.key, path))
    context = context_tokens if context_tokens is not None else rules.default_context_tokens
    budget: int | None = None
    if rules.budget_fraction is not None:
        if context is not None:
            budget = int(context * rules.budget_fraction * CHARS_PER_TOKEN)
        else:
            budget = rules.budget_chars_unknown_context
    if budget is not None and _total(rules, states) > budget:
        states = _overflow(rules, states, budget, full)
    total = _total(rules, states)
    left_out = [
        BudgetEntry(offer.name, "left-out", 0, offer.key, offer.path or offer.key, unlisted=True)
        for offer in unlisted
    ]
    if left_out:
        states = sorted([*states, *left_out], key=lambda entry: (entry.name, entry.key))
    report = BudgetReport(
        host.name, context, budget, total, -(-total // CHARS_PER_TOKEN), tuple(states)
    )
    return report, {entry.key: entry.state for entry in states}


def listed_chars(rules: CatalogRules, entry: BudgetEntry, shown: int) -> int:
    """What one entry counts against the budget with ``shown`` characters of text: its
    name and text, or the host's whole line (Codex: ``- name: text (file: path)`` and a
    newline; the text brings one space with it)."""
    if rules.listed_line is None:
        return len(entry.name) + shown
    line = rules.listed_line.format(name=entry.name, path=entry.path, text="")
    return len(line) + (shown + 1 if shown else 0)


def listed_line(rules: CatalogRules, name: str, path: str, text: str | None) -> str:
    """One entry of a host's listing as a line (with its newline): the host's own line
    where it documents one (Codex: ``- name: text (file: path)``, what
    :func:`listed_chars` counts), else ``- name: text`` (``- name`` without text)."""
    if rules.listed_line is not None:
        shown = f" {text}" if text else ""
        return rules.listed_line.format(name=name, path=path, text=shown)
    return f"- {name}" + (f": {text}" if text is not None else "") + "\n"


def _total(rules: CatalogRules, entries: Sequence[BudgetEntry]) -> int:
    return sum(listed_chars(rules, e, e.shown_chars) for e in entries if e.state != "left-out")


def _overflow(
    rules: CatalogRules, entries: list[BudgetEntry], budget: int, full: Mapping[str, int]
) -> list[BudgetEntry]:
    if rules.overflow == "name-only":
        # Every name stays listed; descriptions are kept in listing order while they fit
        # beside all the names. Which entries lose their text first (Claude Code: the
        # least used) is not knowable here: the last in listing order go to name only.
        out: list[BudgetEntry] = []
        used = sum(listed_chars(rules, entry, 0) for entry in entries)
        short = False
        for entry in entries:
            if not short and used + entry.shown_chars <= budget:
                out.append(entry)
                used += entry.shown_chars
            else:
                short = True
                out.append(replace(entry, state="name-only", shown_chars=0))
        return out
    if rules.overflow == "shorten-then-omit":
        return _shorten_then_omit(rules, entries, budget, full)
    return entries


def _shorten_then_omit(
    rules: CatalogRules, entries: list[BudgetEntry], budget: int, full: Mapping[str, int]
) -> list[BudgetEntry]:
    """Codex (``render.rs``): when the bare lines fit, the room left is handed out one
    character at a time to each entry in turn (the first character of a text costs two:
    it brings a space), so short texts stay whole and long ones share the rest; when the
    bare lines do not fit, bare lines are kept in order while they fit and the rest are
    left out."""
    bare = [listed_chars(rules, entry, 0) for entry in entries]
    if sum(bare) > budget:
        kept: list[BudgetEntry] = []
        used = 0
        for entry, cost in zip(entries, bare, strict=True):
            if used + cost <= budget:
                kept.append(replace(entry, state="name-only", shown_chars=0))
                used += cost
            else:
                kept.append(replace(entry, state="left-out", shown_chars=0))
        return kept
    remaining = budget - sum(bare)
    wanted = [full[entry.key] for entry in entries]
    given = [0] * len(entries)
    for index, want in enumerate(wanted):  # the first round: a character and its space
        if want > 0 and remaining >= 2:
            given[index] = 1
            remaining -= 2
    while remaining > 0:
        open_ = [i for i, want in enumerate(wanted) if 0 < given[i] < want]
        if not open_:
            break
        step = min(wanted[i] - given[i] for i in open_)
        rounds = min(step, remaining // len(open_))
        if rounds == 0:
            for i in open_[:remaining]:
                given[i] += 1
            break
        for i in open_:
            given[i] += rounds
        remaining -= rounds * len(open_)
    out: list[BudgetEntry] = []
    for entry, want, shown in zip(entries, wanted, given, strict=True):
        if shown >= want:
            out.append(replace(entry, state="full", shown_chars=want))
        elif shown == 0:
            out.append(replace(entry, state="name-only", shown_chars=0))
        else:
            out.append(replace(entry, state="cut", shown_chars=shown))
    return out
