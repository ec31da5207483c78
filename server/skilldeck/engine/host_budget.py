"""A host's skill listing against its budget: per entry ``full``, ``cut`` at N characters,
``name-only`` or ``left-out``, the total and its token estimate.

The rules are each host's :class:`~skilldeck.engine.hosts.CatalogRules` (docs/hosts.md
cites them). Sizes are characters of whitespace-collapsed text; an entry costs its name
plus the text it shows; tokens are estimated at one per four characters
(:data:`~skilldeck.engine.hosts.CHARS_PER_TOKEN`), never counted by a tokenizer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from skilldeck.engine.catalog_text import collapse_whitespace
from skilldeck.engine.hosts import CHARS_PER_TOKEN, Host

CatalogState = Literal["full", "cut", "name-only", "left-out"]


@dataclass(frozen=True)
class BudgetEntry:
    """One catalog entry: the skill, its state and the characters of text it shows."""

    name: str
    state: CatalogState
    shown_chars: int


@dataclass(frozen=True)
class BudgetReport:
    """The catalog a host builds (see the module doc); ``budget_chars`` is ``None`` when
    the host documents no total budget; ``total_chars`` counts names plus shown text."""

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


def host_budget(
    host: Host,
    entries: Iterable[tuple[str, str]],
    *,
    context_tokens: int | None = None,
    entry_cap: int | None = None,
) -> tuple[BudgetReport, dict[str, CatalogState]]:
    """The catalog ``host`` builds from ``entries`` (name, text), in name order; the text
    is measured whitespace-collapsed, as the listings show it.

    ``entry_cap`` is DSH's configured description length (other hosts use their own).
    Returns the report and each name's state.
    """
    lengths = {name: len(collapse_whitespace(text)) for name, text in entries}
    return budget_from_lengths(host, lengths, context_tokens=context_tokens, entry_cap=entry_cap)


def budget_from_lengths(
    host: Host,
    lengths: Mapping[str, int],
    *,
    context_tokens: int | None,
    entry_cap: int | None,
) -> tuple[BudgetReport, dict[str, CatalogState]]:
    """:func:`host_budget` from each entry's collapsed text length."""
    rules = host.catalog
    cap = entry_cap if host.engine_roots else rules.entry_cap
    if cap is not None:
        cap = max(cap, 3)
    states: list[BudgetEntry] = []
    for name in sorted(lengths):
        length = lengths[name]
        if cap is not None and length > cap:
            states.append(BudgetEntry(name, "cut", cap))
        else:
            states.append(BudgetEntry(name, "full", length))
    context = context_tokens if context_tokens is not None else rules.default_context_tokens
    budget: int | None = None
    if rules.budget_fraction is not None:
        if context is not None:
            budget = int(context * rules.budget_fraction * CHARS_PER_TOKEN)
        else:
            budget = rules.budget_chars_unknown_context
    if budget is not None and _total(states) > budget:
        states = _overflow(rules.overflow, states, budget)
    total = _total(states)
    report = BudgetReport(
        host.name, context, budget, total, -(-total // CHARS_PER_TOKEN), tuple(states)
    )
    return report, {entry.name: entry.state for entry in states}


def _total(entries: Sequence[BudgetEntry]) -> int:
    return sum(len(e.name) + e.shown_chars for e in entries if e.state != "left-out")


def _overflow(kind: str, entries: list[BudgetEntry], budget: int) -> list[BudgetEntry]:
    if kind == "name-only":
        # Every name stays listed; descriptions are kept in listing order while they fit
        # beside all the names. Which entries lose their text first (Claude Code: the
        # least used) is not knowable here: the last in listing order go to name only.
        out: list[BudgetEntry] = []
        used = sum(len(entry.name) for entry in entries)
        short = False
        for entry in entries:
            if not short and used + entry.shown_chars <= budget:
                out.append(entry)
                used += entry.shown_chars
            else:
                short = True
                out.append(BudgetEntry(entry.name, "name-only", 0))
        return out
    if kind == "shorten-then-omit":
        names = sum(len(e.name) for e in entries)
        share = (budget - names) // len(entries) if entries else 0
        if share >= 1:
            return [
                e if e.shown_chars <= share else BudgetEntry(e.name, "cut", share) for e in entries
            ]
        kept: list[BudgetEntry] = []
        used = 0
        for entry in entries:
            if used + len(entry.name) <= budget:
                kept.append(BudgetEntry(entry.name, "name-only", 0))
                used += len(entry.name)
            else:
                kept.append(BudgetEntry(entry.name, "left-out", 0))
        return kept
    return entries
