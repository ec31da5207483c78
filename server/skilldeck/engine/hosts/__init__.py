"""The agent hosts as data: each agent's folders, depth, symlinks, hidden folders, duplicates,
dialect, how it reads a skill file, its listing's format and budget, with the release
modelled (sources in ``docs/hosts.md``), how a listing is written and how it is measured
against a host's budget.

Invariant: every fact about a host carries its source (the host lab's record of the
release, or the host's code, changelog or documentation), and the tests hold the model to
the records; this package reads no files.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skilldeck._lazy import lazy_exports

if TYPE_CHECKING:
    from skilldeck.engine.hosts._budget import BudgetEntry as BudgetEntry
    from skilldeck.engine.hosts._budget import BudgetReport as BudgetReport
    from skilldeck.engine.hosts._budget import CatalogState as CatalogState
    from skilldeck.engine.hosts._budget import Offer as Offer
    from skilldeck.engine.hosts._budget import budget_from_offers as budget_from_offers
    from skilldeck.engine.hosts._listing import Written as Written
    from skilldeck.engine.hosts._listing import claude_label as claude_label
    from skilldeck.engine.hosts._listing import codex_roots_text as codex_roots_text
    from skilldeck.engine.hosts._listing import cut as cut
    from skilldeck.engine.hosts._listing import entry_text as entry_text
    from skilldeck.engine.hosts._listing import listing_text as listing_text
    from skilldeck.engine.hosts._listing import shape as shape
    from skilldeck.engine.hosts._table import HOSTS as HOSTS
    from skilldeck.engine.hosts._table import Builtin as Builtin
    from skilldeck.engine.hosts._table import ConfigFile as ConfigFile
    from skilldeck.engine.hosts._table import Host as Host
    from skilldeck.engine.hosts._table import HostRoot as HostRoot
    from skilldeck.engine.hosts._table import HostSettings as HostSettings
    from skilldeck.engine.hosts._table import Override as Override
    from skilldeck.engine.hosts._table import Reading as Reading
    from skilldeck.engine.hosts._table import ValueRules as ValueRules
    from skilldeck.engine.hosts._table import WalkOrder as WalkOrder
    from skilldeck.engine.hosts._table import get_host as get_host
    from skilldeck.engine.hosts._table import parse_hosts as parse_hosts
else:
    __getattr__, __dir__, __all__ = lazy_exports(
        __name__,
        {
            "_budget": (
                "BudgetEntry",
                "BudgetReport",
                "CatalogState",
                "Offer",
                "budget_from_offers",
            ),
            "_listing": (
                "Written",
                "claude_label",
                "codex_roots_text",
                "cut",
                "entry_text",
                "listing_text",
                "shape",
            ),
            "_table": (
                "HOSTS",
                "Builtin",
                "ConfigFile",
                "Host",
                "HostRoot",
                "HostSettings",
                "Override",
                "Reading",
                "ValueRules",
                "WalkOrder",
                "get_host",
                "parse_hosts",
            ),
        },
    )
