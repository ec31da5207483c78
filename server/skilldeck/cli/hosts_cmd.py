"""``skilldeck hosts observe --host H [--binary PATH] [--json]``: run the user's own
installed host offline and show the skills listing it would send next to skilldeck's
prediction.

The host runs as the host lab runs the pinned releases (``docs/hosts.md``, "Host lab";
:mod:`skilldeck.observe`): in a sandbox with only a loopback network, its environment
built from scratch (none of the user's variables, so none of their credentials), ``HOME``
a temporary folder into which the user's skill folders (every user folder any host reads,
``~/.agents/skills``, ``~/.claude/skills``, ...) are mounted read-only, the project
mounted read-only onto itself, and its model requests sent to a fake endpoint that
answers 400. Only the binary the user names with ``--binary``, or the host's command on
their ``PATH``, is run. The prediction is ``catalog --host H``'s listing (the engine's
per-host view) of the same folders.

Text: the host's entries, skilldeck's, and one line per difference (a name listed by one
side only, a text that differs). JSON: ``{"host", "binary", "cwd", "observed": [{name,
description, path}], "predicted": [{name, description}], "differences": [str]}``. Exits 0
whatever the differences; 2 when the host cannot be run or sends no listing.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skilldeck.cli.display import printable
from skilldeck.cli.errors import CliError
from skilldeck.cli.settings import Location, add_location_options

if TYPE_CHECKING:
    from skilldeck.engine.hosts import Host
    from skilldeck.observe.listing import ListedEntry


def register(subparsers: Any) -> None:
    """Add the ``hosts`` subcommand (``hosts observe``)."""
    parser = subparsers.add_parser(
        "hosts",
        help="observe what an installed agent host lists, offline",
        description="Agent hosts as they really run.",
    )
    actions = parser.add_subparsers(dest="hosts_action", metavar="ACTION")
    actions.required = True
    observe = actions.add_parser(
        "observe",
        help="run your installed host offline and compare its skills listing with skilldeck's",
        description="Run your own installed host (the --binary you name, else its command "
        "on PATH) offline: a sandbox with only loopback, HOME a temporary folder with your "
        "skill folders mounted read-only, no environment variable of yours, the project "
        "read-only, its model requests answered 400 by a fake endpoint. Prints the skills "
        "listing the host sent next to skilldeck's prediction (catalog --host H).",
    )
    observe.add_argument(
        "--host",
        required=True,
        help="the host: codex, claude-code, gemini-cli, opencode, copilot or kimi-code",
    )
    observe.add_argument(
        "--binary",
        metavar="PATH",
        help="the host's executable (default: its command on PATH: codex, claude, gemini, "
        "opencode, copilot, kimi)",
    )
    observe.add_argument(
        "--timeout",
        type=float,
        default=180.0,
        metavar="SECONDS",
        help="how long the host may take to send its listing (default 180)",
    )
    observe.add_argument("--json", action="store_true", help="print JSON")
    add_location_options(observe)
    observe.set_defaults(run=run)


def _binary(args: argparse.Namespace, command: str, label: str) -> str:
    if args.binary:
        path = os.path.abspath(str(args.binary))
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise CliError(f"--binary: not an executable file: {args.binary}")
        return path
    found = shutil.which(command)
    if found is None:
        raise CliError(f"{command} is not on PATH; name the {label} executable with --binary")
    return os.path.abspath(found)


def user_skill_folders() -> list[str]:
    """Every folder below home that some host reads skills from (``docs/hosts.md``)."""
    from skilldeck.engine.hosts import HOSTS  # noqa: PLC0415

    folders: list[str] = []
    for host in HOSTS.values():
        for root in host.roots:
            if root.scope == "user" and root.path not in folders:
                folders.append(root.path)
    return folders


def run(args: argparse.Namespace) -> int:
    """Observe the host; see the module doc."""
    from skilldeck.engine.filesystem import find_project_root  # noqa: PLC0415
    from skilldeck.engine.host_views import build_view, host_listing_text  # noqa: PLC0415
    from skilldeck.engine.hosts import get_host  # noqa: PLC0415
    from skilldeck.observe.listing import NoListing, read_listing  # noqa: PLC0415
    from skilldeck.observe.sandbox import PORT, SandboxUnavailable, run_in_sandbox  # noqa: PLC0415
    from skilldeck.observe.wiring import get_wiring  # noqa: PLC0415

    try:
        host = get_host(args.host)
        wiring = get_wiring(host.name)
    except ValueError as error:
        raise CliError(f"--host: {error}") from None
    binary = _binary(args, wiring.command, wiring.label)
    location = Location.from_args(args)
    cwd = location.cwd
    project = str(find_project_root(cwd))
    real_home = os.path.expanduser("~")
    with tempfile.TemporaryDirectory(prefix="skilldeck-observe-") as scratch:
        home = os.path.join(scratch, "home")
        tmp = os.path.join(scratch, "tmp")
        os.makedirs(tmp)
        binds: list[tuple[str, str, bool]] = []
        for folder in user_skill_folders():
            source = os.path.join(real_home, folder)
            if os.path.isdir(source):
                target = os.path.join(home, folder)
                os.makedirs(target, exist_ok=True)
                binds.append((source, target, True))
        os.makedirs(home, exist_ok=True)
        binds.append((project, project, True))
        wiring.write_files(home=home, project=project, port=PORT)
        path = os.pathsep.join([os.path.dirname(binary), os.environ.get("PATH", os.defpath)])
        env = wiring.environment(home=home, tmp=tmp, path=path, project=project, port=PORT)
        try:
            result = run_in_sandbox(
                [binary, *wiring.args],
                cwd=cwd,
                env=env,
                marker=wiring.marker,
                workdir=Path(scratch) / "run",
                timeout=args.timeout,
                binds=binds,
            )
        except SandboxUnavailable as error:
            raise CliError(f"cannot observe {wiring.label} here: {error}") from None
        if not result.listing_seen or not result.requests:
            why = "timed out" if result.timed_out else f"exited with {result.exit_code}"
            tail = result.output.strip()[-1500:]
            raise CliError(
                f"{wiring.label} sent no skills listing ({len(result.requests)} request(s); "
                f"it {why}). Its output:\n{tail}"
            )
        try:
            listing = read_listing(result.requests[-1].body, wiring.fmt)
        except NoListing as error:
            raise CliError(str(error)) from None
        user_folders = [target for _source, target, _ro in binds]
        roots = dict(listing.roots)
        builtins = {
            entry.name
            for entry in listing.entries
            if _host_own(entry.path, roots, home, user_folders)
        }
        observed = [_shown(entry, home) for entry in listing.entries]
        shown_roots = [(alias, folder.replace(home, "~")) for alias, folder in listing.roots]
    config = location.config(cwd)
    view = build_view([host], config, cwd)
    # The prediction is read back by the reader of the host's own listing, so both sides
    # are compared as sent (escaped, cut and named as the host writes them).
    try:
        written = read_listing(host_listing_text(view, host), wiring.fmt).entries
    except NoListing:
        written = ()
    predicted = [(entry.name, entry.description) for entry in written]
    builtins |= {own.name for own in host.catalog.builtins} & {e.name for e in observed}
    differences = _differences(host, [e for e in observed if e.name not in builtins], predicted)
    if args.json:
        payload = {
            "host": host.name,
            "binary": binary,
            "cwd": cwd,
            "observed": [
                {"name": e.name, "description": e.description, "path": e.path} for e in observed
            ],
            "builtins": sorted(builtins),
            "predicted": [{"name": name, "description": text} for name, text in predicted],
            "differences": differences,
        }
        print(json.dumps(payload, indent=2, ensure_ascii=False))
        return 0
    print(printable(f"{wiring.label} ({binary}), run offline in {cwd}:"))
    if shown_roots:
        print("skill roots: " + ", ".join(f"{alias} = {folder}" for alias, folder in shown_roots))
    print(f"the host listed {len(observed)} skill(s), {len(builtins)} of them its own:")
    for entry in observed:
        own = "  (the host's own)" if entry.name in builtins else ""
        for line in (entry.raw + own).split("\n"):
            print(printable(f"  {line}"))
    print(f"skilldeck predicts {len(predicted)} (catalog --host {host.name}):")
    for name, text in predicted:
        print(printable(f"  - {name}" + (f": {text}" if text is not None else "")))
    if differences:
        print(f"{len(differences)} difference(s):")
        for line in differences:
            print(printable(f"  {line}"))
    else:
        print("no difference")
    return 0


def _host_own(path: str | None, roots: dict[str, str], home: str, user_folders: list[str]) -> bool:
    """Whether an entry's location is the host's own (a built-in skill): a ``builtin``
    location, or a file in the sandbox's home outside the user's folders."""
    if path is None:
        return False
    if path.strip("<>&;lgt").startswith(("builtin", "built-in")):
        return True
    alias, _, rest = path.partition("/")
    if alias in roots and rest:
        path = os.path.join(roots[alias], rest)
    inside = path.startswith(home + os.sep)
    return inside and not any(path.startswith(folder + os.sep) for folder in user_folders)


def _shown(entry: ListedEntry, home: str) -> ListedEntry:
    """The entry with the sandbox's home written ``~``."""
    from skilldeck.observe.listing import ListedEntry  # noqa: PLC0415

    def tilde(text: str | None) -> str | None:
        return text.replace(home, "~") if text is not None else None

    return ListedEntry(
        entry.name,
        tilde(entry.description),
        tilde(entry.path),
        entry.scope,
        tilde(entry.raw) or "",
    )


def _differences(
    host: Host, observed: list[ListedEntry], predicted: list[tuple[str, str | None]]
) -> list[str]:
    """One line per name listed by one side only, and per text that differs."""
    seen = {entry.name: entry.description for entry in observed}
    said = dict(predicted)
    lines = [f"{name}: listed by {host.label} only" for name in seen if name not in said]
    lines += [f"{name}: listed by skilldeck only" for name in said if name not in seen]
    for name, text in said.items():
        if name in seen and seen[name] != text:
            lines.append(f"{name}: {host.label} sends {seen[name]!r}, skilldeck says {text!r}")
    return lines
