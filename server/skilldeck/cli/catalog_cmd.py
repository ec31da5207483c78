"""``skilldeck catalog [--json] [--max-description-length N]``: the model's catalog.

Text: the exact catalog message a session would send first; nothing (and a note on
stderr) when no skill is offered to the model, as a session then sends none. JSON:
``{"complete": bool, "entries": [{"name", "description"}]}`` with descriptions shaped as
in the message (collapsed and capped, not yet XML-escaped).

``--host H`` renders H's listing as the host lab observed H's release sending it
(``docs/hosts.md``): Codex's ``<skills_instructions>`` with its skill roots table and
``- name: text (file: r1/<folder>/SKILL.md)``, Claude Code's ``- folder (name): text``,
the ``<available_skills>`` XML of Gemini CLI, OpenCode and GitHub Copilot CLI, Kimi
Code's sections and ``Path:`` lines; each text shaped and cut as that host does (``- name``
for a name-only entry; left-out entries are not shown). The host's own skills and the prose
around the listing are the host's text and are not written. ``--host dsh`` is the exact
message above. JSON: ``{"complete", "host", "entries": [{"name", "state", "text",
"location"}]}``. ``--max-description-length`` sets DSH's cap: with another ``--host`` it is
refused (that host keeps its own per-entry cap).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from skilldeck.cli import host_report
from skilldeck.cli.errors import CliError
from skilldeck.cli.settings import (
    Location,
    add_registry_options,
    registry_session,
    skipped_files,
    warn_if_incomplete,
    warn_skipped,
)
from skilldeck.engine.model_view import catalog_entries, render_entries
from skilldeck.engine.text import MIN_CATALOG_DESCRIPTION_MAX_LENGTH

if TYPE_CHECKING:
    from skilldeck.engine.host_views import HostsView
    from skilldeck.engine.hosts import Host


def register(subparsers: Any) -> None:
    """Add the ``catalog`` subcommand."""
    parser = subparsers.add_parser(
        "catalog",
        help="print the catalog message the model would receive",
        description="The exact skill catalog message for the lookup directory.",
    )
    parser.add_argument("--json", action="store_true", help="print the entries as JSON")
    parser.add_argument(
        "--max-description-length",
        metavar="N",
        type=int,
        default=None,
        help="cap descriptions at N characters (minimum 3; default: the config file's, else 500)",
    )
    host_report.add_host_option(parser, allow_all=False)
    add_registry_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the catalog; exits 0 (skipped skill files and an incomplete view are noted
    on stderr)."""
    cap = args.max_description_length
    if cap is not None and cap < MIN_CATALOG_DESCRIPTION_MAX_LENGTH:
        raise CliError(
            f"--max-description-length: must be at least "
            f"{MIN_CATALOG_DESCRIPTION_MAX_LENGTH}, not {cap}"
        )
    if args.host is not None:
        hosts = host_report.selected_hosts(args.host, allow_all=False)
        if len(hosts) != 1:
            raise CliError("--host: choose one host")
        if hosts[0].name != "dsh":
            if cap is not None:
                raise CliError(
                    f"--max-description-length: sets DSH's catalog only; {hosts[0].label} "
                    "keeps its own per-entry cap (docs/hosts.md)"
                )
            return _run_host(args, hosts[0])
    import asyncio  # noqa: PLC0415 - only this command runs an event loop

    session = registry_session(
        Location.from_args(args), catalog_max_description_length=args.max_description_length
    )
    with skipped_files() as skipped:
        snapshot = asyncio.run(session.registry.snapshot(cwd=session.cwd))
    entries = catalog_entries(snapshot.skills, session.config.catalog_max_description_length)
    if args.json:
        payload = {
            "complete": snapshot.complete,
            "entries": [{"name": e.name, "description": e.description} for e in entries],
        }
        print(json.dumps(payload, indent=2, ensure_ascii=False))
    elif entries:
        print(render_entries(entries, kind="initial"))
    else:  # SPEC section 5: empty and never published, a session sends nothing
        print(
            "skilldeck: no skill is offered to the model here; a session sends no catalog",
            file=sys.stderr,
        )
    warn_skipped(skipped, session.cwd)
    warn_if_incomplete(snapshot.complete)
    return 0


def _run_host(args: argparse.Namespace, host: Host) -> int:
    from skilldeck.engine.host_views import host_listing, host_listing_text  # noqa: PLC0415

    def render(view: HostsView, _cwd: str) -> str:
        if args.json:
            entries = [line.to_json() for line in host_listing(view, host)]
            payload = {"complete": view.complete, "host": host.name, "entries": entries}
            return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
        return host_listing_text(view, host)

    return host_report.host_output(
        Location.from_args(args), (host,), render, tag=f"catalog json={args.json}"
    )
