"""``skilldeck budget --host H [--context TOKENS] [--json]``: the catalog H would build.

Per skill: ``full``, ``cut`` at N characters, ``name-only`` or ``left-out``; the total
against H's listing budget and the token estimate (one token per four characters).
JSON: ``{"host", "contextTokens", "budgetChars", "totalChars", "tokenEstimate",
"entries": [{"name", "state", "shownChars"}]}``.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from skilldeck.cli import host_report
from skilldeck.cli.errors import CliError
from skilldeck.cli.settings import Location, add_registry_options

if TYPE_CHECKING:
    from skilldeck.engine.host_views import HostsView


def register(subparsers: Any) -> None:
    """Add the ``budget`` subcommand."""
    parser = subparsers.add_parser(
        "budget",
        help="show what a host's skill catalog keeps",
        description="The catalog host H would build from the skills it loads: each entry "
        "full, cut, name only or left out, the total against H's budget and its token "
        "estimate (one token per 4 characters). docs/hosts.md cites each host's rules.",
    )
    host_report.add_host_option(parser, allow_all=False)
    parser.add_argument(
        "--context",
        metavar="TOKENS",
        type=int,
        default=None,
        help="the model's context window in tokens (default: the host's documented "
        "fallback, see docs/hosts.md)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_registry_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the budget; exits 0 (an incomplete view is noted on stderr)."""
    if args.host is None:
        raise CliError("budget: --host H is required")
    if args.context is not None and args.context <= 0:
        raise CliError(f"--context: must be a positive number of tokens, got {args.context}")
    hosts = host_report.selected_hosts(args.host, allow_all=False)
    if len(hosts) != 1:
        raise CliError("--host: choose one host")
    host = hosts[0]

    def render(view: HostsView, _cwd: str) -> str:
        report = view.catalogs[host.name]
        if args.json:
            return json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n"
        return "\n".join(host_report.budget_lines(report, host)) + "\n"

    return host_report.host_output(
        Location.from_args(args),
        hosts,
        render,
        tag=f"budget json={args.json}",
        context_tokens=args.context,
    )
