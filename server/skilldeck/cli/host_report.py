"""How the CLI shows the hosts' verdicts: ``list --host`` (one host or the matrix) and
``budget --host``, as text and as JSON (the shapes scripts depend on).

``list --host all --json``::

    {"hosts": ["dsh", ...],
     "versions": {"<host>": "Codex 0.171.0", ...},
     "skills": [{"name", "path",
                 "hosts": {"<host>": {"loads": bool, "reason": str | null,
                                      "catalog": "full" | "cut" | "name-only" | "left-out"
                                                 | null,
                                      "sameName": [path, ...]}}}]}

``sameName``: the other files a host lists under the same name (Codex keeps them all).

One entry per skill file found in any host's roots; a host whose roots do not hold the
file says so in ``reason``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from skilldeck.cli.display import display_path
from skilldeck.cli.errors import CliError
from skilldeck.cli.provider_option import read_provided
from skilldeck.cli.settings import Location, warn_if_incomplete

if TYPE_CHECKING:
    from skilldeck.engine.deck import ProvidedSkill
    from skilldeck.engine.host_views import HostLoad, HostsView
    from skilldeck.engine.hosts import BudgetReport, Host


def add_host_option(parser: argparse.ArgumentParser, *, allow_all: bool) -> None:
    """``--host H``: the agent whose view to show."""
    from skilldeck.engine.hosts import HOSTS  # noqa: PLC0415

    names = ", ".join(HOSTS)
    parser.add_argument(
        "--host",
        metavar="H",
        default=None,
        help=f"show what host H loads: {names}" + (", or all (a matrix)" if allow_all else ""),
    )


def selected_hosts(value: str, *, allow_all: bool) -> tuple[Host, ...]:
    """The hosts ``--host`` names (``all`` only where allowed); a usage error otherwise."""
    from skilldeck.engine.hosts import HOSTS, parse_hosts  # noqa: PLC0415

    if value.strip() == "all" and not allow_all:
        raise CliError(f"--host: choose one host: {', '.join(HOSTS)}")
    try:
        return parse_hosts(value)
    except ValueError as error:
        raise CliError(f"--host: {error}") from None


def host_output(
    location: Location,
    hosts: tuple[Host, ...],
    render: Callable[[HostsView, str], str],
    *,
    tag: str,
    context_tokens: int | None = None,
) -> int:
    """Print ``render(view, cwd)`` for the hosts' view of the lookup directory; exits 0.

    Like ``check``, an unchanged deck prints what the same invocation printed before
    (the output memo, keyed by every listing and file identity of the hosts' roots, which
    of their children are symlinks, ``tag`` and the arguments); ``--no-cache`` skips it.
    """
    import time  # noqa: PLC0415

    from skilldeck.cli.check_memo import (  # noqa: PLC0415
        CheckMemos,
        DeckKey,
        OutputMemo,
        view_key,
        view_locator,
    )
    from skilldeck.engine.host_views import (  # noqa: PLC0415
        build_view,
        deep_identity,
        host_settings,
        scanned_roots,
        walk_levels,
    )

    started = time.time_ns()
    cwd = location.cwd
    config = location.config(cwd)
    cache = location.cache()
    roots = scanned_roots(hosts, config, cwd)
    settings = config.rule_settings()
    # DSH's view is the deck's: the skills of its other providers (bundled, --provider,
    # remote sources) take part, as in list, check and catalog.
    provided: tuple[ProvidedSkill, ...] = ()
    provided_complete = True
    if any(host.engine_roots for host in hosts):
        provided, provided_complete = read_provided(config, location.providers(), cwd)
    # The files deeper than the layout (hosts that search recursively): not in the
    # roots' listings the memo key is made of, so keyed here; so are the provided skills.
    levels = walk_levels(hosts)
    deep = [key for root in roots if root.exists for key in deep_identity(root.path, levels)]
    others = [
        (
            skill.provider,
            skill.name,
            skill.rank,
            skill.source,
            skill.path,
            skill.candidate.description,
            skill.candidate.invocation.model_invocable,
        )
        for skill in provided
    ]
    # What the printed view depends on besides the roots' files and the settings that
    # reach the deck (the key digests those): the arguments and what lies elsewhere.
    extra = [
        tag,
        [host.name for host in hosts],
        context_tokens,
        cwd,
        os.path.expanduser("~"),
        deep,
        others,
        # The hosts' own settings (their config files, variables): the key holds every
        # value they gave, so an edit to a settings file is seen.
        [host_settings(host, cwd).key() for host in hosts if not host.engine_roots],
    ]
    cache_dir = cache.directory if cache is not None else None
    if cache is not None:
        probe = DeckKey(view_locator(roots, settings, extra=extra, cache_dir=cache_dir), "")
        if CheckMemos(cache).output_file_for(probe).exists():
            key = view_key(roots, settings, extra=extra, cache_dir=cache_dir)
            memo = CheckMemos(cache).load_output_memo(key) if key is not None else None
            if memo is not None:
                memo.write(sys.stdout)
                return 0
    from skilldeck.engine.filesystem import usable_cpus  # noqa: PLC0415

    view = build_view(
        hosts,
        config,
        cwd,
        cache=cache,
        context_tokens=context_tokens,
        processes=usable_cpus(),
        provided=provided,
    )
    complete = view.complete and provided_complete
    stdout = render(view, cwd)
    if cache is not None and complete:
        key = view_key(roots, settings, extra=extra, cache_dir=cache_dir, since_ns=started)
        if key is not None:
            companions = [cache.file_for(root.path, settings) for root in roots]
            memo_out = OutputMemo((), (stdout,), 0)
            CheckMemos(cache).store_output_memo(key, memo_out, companions=companions)
    sys.stdout.write(stdout)
    warn_if_incomplete(complete)
    return 0


def reason_text(load: HostLoad, cwd: str) -> str | None:
    """The host's reason as ``check --host`` gives it, with the other file it names
    (the winner, the same-named file of an unstable folder, the same file reached
    twice) shown relative to the working directory."""
    reason, other = load.reason, load.shadowed_by
    if reason is not None and other is not None:
        return reason.replace(other, display_path(other, cwd))
    return reason


def _outside(host: Host) -> str:
    return f"outside {host.label}'s skill folders"


def matrix_json(view: HostsView, cwd: str) -> dict[str, object]:
    """The ``list --host ... --json`` document (see the module doc)."""
    skills: list[dict[str, object]] = []
    for name, path in view.rows():
        cells: dict[str, object] = {}
        for host in view.hosts:
            load = view.verdicts[host.name].get(path)
            if load is None:
                cells[host.name] = {
                    "loads": False,
                    "reason": _outside(host),
                    "catalog": None,
                    "sameName": [],
                }
            else:
                cells[host.name] = {
                    "loads": load.loads,
                    "reason": reason_text(load, cwd),
                    "catalog": load.catalog,
                    "sameName": [display_path(other, cwd) for other in load.same_name],
                }
        skills.append({"name": name, "path": path, "hosts": cells})
    return {
        "hosts": [host.name for host in view.hosts],
        "versions": {host.name: host.version for host in view.hosts},
        "settings": {
            name: {
                "files": list(applied.files),
                "unreadable": list(applied.unreadable),
                "environment": list(applied.variables),
                "applied": applied.describe(),
            }
            for name, applied in view.settings.items()
            if not applied.empty
        },
        "skills": skills,
    }


def host_lines(view: HostsView, host: Host, cwd: str) -> list[str]:
    """``list --host H``: every file in H's roots, loaded or not and why."""
    loads = view.loads_of(host.name)
    loaded = sum(1 for load in loads if load.loads)
    lines = [
        f"{host.label} ({host.name}, as of {host.version}): {len(loads)} skill files found, "
        f"{loaded} loaded"
    ]
    applied = view.settings.get(host.name)
    if applied is not None and not applied.empty:
        lines.extend(f"  {line}" for line in applied.describe())
    width = max((len(load.name) for load in loads), default=0)
    for load in loads:
        where = display_path(load.path, cwd) if os.path.isabs(load.path) else load.path
        if load.loads:
            lines.append(f"  loads  {load.name:<{width}}  {where}  [catalog: {load.catalog}]")
            if load.same_name:
                others = ", ".join(display_path(other, cwd) for other in load.same_name)
                lines.append(
                    f"         {'':<{width}}  the model also sees '{load.name}' at {others}"
                )
        else:
            lines.append(f"  no     {load.name:<{width}}  {where}  {reason_text(load, cwd)}")
    return lines


def matrix_lines(view: HostsView, cwd: str) -> list[str]:
    """``list --host all``: skills x hosts; a cell is the catalog state, ``no`` (reasons
    follow the table) or ``-`` (outside that host's folders)."""
    header = ["skill", "path", *(host.name for host in view.hosts)]
    tables = [(host, view.verdicts[host.name]) for host in view.hosts]
    rows: list[list[str]] = []
    notes: list[str] = []
    twice: list[str] = []
    for name, path in view.rows():
        shown = display_path(path, cwd) if os.path.isabs(path) else path
        row = [name, shown]
        for host, table in tables:
            load = table.get(path)
            if load is None:
                row.append("-")
            elif load.loads:
                row.append(load.catalog or "-")
                if load.same_name:
                    others = ", ".join(display_path(other, cwd) for other in load.same_name)
                    twice.append(f"  {host.name}: {shown}: also listed as '{name}': {others}")
            else:
                row.append("no")
                notes.append(f"  {host.name}: {shown}: {reason_text(load, cwd)}")
        rows.append(row)
    widths = [max(map(len, column)) for column in zip(header, *rows, strict=True)]
    last = len(header) - 1
    lines = [
        "  ".join(
            cell.ljust(widths[i]) if i < last else cell for i, cell in enumerate(row)
        ).rstrip()
        for row in (header, *rows)
    ]
    if notes:
        lines += ["", "not loaded:", *notes]
    if twice:
        lines += ["", "listed twice under one name (the model sees both):", *twice]
    lines += ["", "as of: " + "; ".join(f"{host.name} = {host.version}" for host in view.hosts)]
    for host in view.hosts:
        applied = view.settings.get(host.name)
        if applied is not None and not applied.empty:
            lines += [f"{host.name} {line}" for line in applied.describe()]
    return lines


def budget_lines(report: BudgetReport, host: Host) -> list[str]:
    """``budget --host H``: each entry's state and the totals against H's budget (H's
    own skills, whose text is H's, are counted in one line)."""
    lines = [f"{host.label} ({host.name}) catalog"]
    entries = [e for e in report.entries if not e.builtin]
    own = [e for e in report.entries if e.builtin]
    width = max((len(e.name) for e in entries), default=0)
    for entry in entries:
        detail = {
            "full": f"full ({entry.shown_chars} characters)",
            "cut": f"cut at {entry.shown_chars} characters",
            "name-only": "name only",
            "left-out": "left out (not offered to the model)" if entry.unlisted else "left out",
        }[entry.state]
        lines.append(f"  {entry.name:<{width}}  {detail}")
    if own:
        kept = [e for e in own if e.state != "left-out"]
        lines.append(
            f"  (and {len(kept)} of {host.label}'s own skills: {report.own_chars} characters)"
        )
    if report.budget is None:
        budget = "no total budget"
    else:
        context = (
            f"{report.context_tokens} tokens of context"
            if report.context_tokens is not None
            else "context window unknown"
        )
        unit = "tokens" if report.unit == "tokens" else "characters"
        budget = f"budget {report.budget} {unit} ({context})"
        if report.unit == "tokens":
            budget += f"; the listing counts {report.total} tokens as {host.label} counts them"
    lines.append(
        f"total {report.total_chars} characters, about {report.token_estimate} tokens "
        f"(one token per 4 characters); {budget}"
    )
    return lines
