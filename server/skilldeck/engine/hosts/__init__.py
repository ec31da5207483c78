"""The agent hosts as data: each agent's folders, depth, symlinks, hidden folders, duplicates,
dialect, name rules and listing budget, with the version modelled (sources in
``docs/hosts.md``), and how a listing is measured against a host's budget.

Invariant: every fact about a host carries its source, and the differential tests hold the
model to the hosts' own code; this package reads no files.
"""

from skilldeck.engine.hosts._budget import BudgetReport, CatalogState, Offer, budget_from_lengths
from skilldeck.engine.hosts._table import HOSTS, Host, HostRoot, get_host, parse_hosts

__all__ = [
    "HOSTS",
    "BudgetReport",
    "CatalogState",
    "Host",
    "HostRoot",
    "Offer",
    "budget_from_lengths",
    "get_host",
    "parse_hosts",
]
