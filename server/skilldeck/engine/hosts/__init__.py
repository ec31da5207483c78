"""The agent hosts as data: each agent's folders, depth, symlinks, hidden folders, duplicates,
dialect, name rules and listing budget, with the version modelled (sources in
``docs/hosts.md``), and how a listing is measured against a host's budget.

Invariant: every fact about a host carries its source, and the differential tests hold the
model to the hosts' own code; this package reads no files.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skilldeck._lazy import lazy_exports

if TYPE_CHECKING:
    from skilldeck.engine.hosts._budget import BudgetReport as BudgetReport
    from skilldeck.engine.hosts._budget import CatalogState as CatalogState
    from skilldeck.engine.hosts._budget import Offer as Offer
    from skilldeck.engine.hosts._budget import budget_from_lengths as budget_from_lengths
    from skilldeck.engine.hosts._budget import listed_line as listed_line
    from skilldeck.engine.hosts._table import HOSTS as HOSTS
    from skilldeck.engine.hosts._table import Host as Host
    from skilldeck.engine.hosts._table import HostRoot as HostRoot
    from skilldeck.engine.hosts._table import get_host as get_host
    from skilldeck.engine.hosts._table import parse_hosts as parse_hosts
else:
    __getattr__, __dir__, __all__ = lazy_exports(
        __name__,
        {
            "_budget": (
                "BudgetReport",
                "CatalogState",
                "Offer",
                "budget_from_lengths",
                "listed_line",
            ),
            "_table": ("HOSTS", "Host", "HostRoot", "get_host", "parse_hosts"),
        },
    )
