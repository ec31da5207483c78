"""``--select`` / ``--ignore``: which rules a ``check`` run reports and fixes.

A selector is a rule code (``SD203``), a code prefix (``SD6``, ``SD60``; ``SD`` or
``ALL`` for every rule) or a rule name (``invalid-name``). The four-digit families
(``SD10xx``, supply-chain safety) are named by their first two digits: ``SD10`` selects
``SD1001``-``SD1099`` and not ``SD101``-``SD109`` (``SD1`` still selects those, and
never a four-digit code); several may be given
comma-separated or by repeating the flag. The report, the statistics and the fixes see
only the selected findings. (Switching a rule off for good belongs in the config file:
``ignore = [...]``.)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from skilldeck.cli.errors import CliError
from skilldeck.engine.rules import RULES

_PREFIX = re.compile(r"^SD[0-9]{0,4}$")
#: The four-digit families (``SD10``): such a prefix selects only that family.
_WIDE_FAMILIES = frozenset(rule.code[:4] for rule in RULES if len(rule.code) == 6)


def _prefix_matches(code: str, prefix: str) -> bool:
    if prefix == "SD":
        return True
    if len(code) == 6:
        return len(prefix) >= 4 and code.startswith(prefix)
    return code.startswith(prefix) and prefix not in _WIDE_FAMILIES


def _codes(selector: str, flag: str) -> frozenset[str]:
    text = selector.strip()
    upper = text.upper()
    if upper == "ALL":
        return frozenset(rule.code for rule in RULES)
    if _PREFIX.fullmatch(upper):
        found = frozenset(rule.code for rule in RULES if _prefix_matches(rule.code, upper))
    else:
        found = frozenset(rule.code for rule in RULES if rule.name == text.lower())
    if not found:
        raise CliError(
            f"check: {flag} {selector!r} matches no rule: use a code (SD203), a code prefix "
            "(SD6) or a rule name (invalid-name); `skilldeck rules` lists them"
        )
    return found


def _split(values: Iterable[str] | None) -> list[str]:
    return [part for value in values or () for part in value.split(",") if part.strip()]


@dataclass(frozen=True)
class RuleSelection:
    """The rule codes a run reports: ``--select`` (default: all) minus ``--ignore``."""

    codes: frozenset[str]

    @property
    def everything(self) -> bool:
        """Whether every rule is selected (the flags change nothing)."""
        return len(self.codes) == len(RULES)

    @staticmethod
    def parse(select: Sequence[str] | None, ignore: Sequence[str] | None) -> RuleSelection:
        """Resolve the flags; ``CliError`` (exit 2) names a selector that matches nothing."""
        chosen = _split(select)
        codes: frozenset[str] = frozenset(rule.code for rule in RULES)
        if chosen:
            codes = frozenset().union(*(_codes(item, "--select") for item in chosen))
        for item in _split(ignore):
            codes -= _codes(item, "--ignore")
        return RuleSelection(codes)
