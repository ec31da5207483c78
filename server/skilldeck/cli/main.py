"""``skilldeck``: the command-line front end over the engine.

Exit status: 0 clean; 1 findings at or above ``--fail-on`` (``check``) or an error
result (``load``); 2 usage, configuration or internal error (one line on stderr; the
traceback too when ``SKILLDECK_DEBUG=1``).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
import traceback
from collections.abc import Callable, Sequence

import skilldeck
from skilldeck.cli.errors import CliError
from skilldeck.engine.config import ConfigError

EXIT_OK = 0
EXIT_ERROR = 2

Command = Callable[[argparse.Namespace], int]


class _Parser(argparse.ArgumentParser):
    """argparse with exit status 2 and a one-line ``skilldeck: ...`` error."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"{self.prog}: error: {message}\n")


#: Each subcommand and the module that registers and runs it, in ``--help`` order.
COMMANDS: dict[str, str] = {
    "check": "check",
    "list": "list_cmd",
    "catalog": "catalog_cmd",
    "budget": "budget_cmd",
    "load": "load_cmd",
    "overlap": "overlap_cmd",
    "roots": "roots_cmd",
    "hosts": "hosts_cmd",
    "sources": "sources_cmd",
    "rules": "rules_cmd",
    "schema": "schema_cmd",
    "serve": "serve_cmd",
    "mcp": "mcp_cmd",
}


def build_parser(commands: Sequence[str] = tuple(COMMANDS)) -> argparse.ArgumentParser:
    """The ``skilldeck`` parser with the subcommands ``commands`` (default: every one);
    only their modules are imported."""
    parser = _Parser(
        prog="skilldeck",
        description="Layered agent skills: check skill files, show the catalog the model "
        "sees, load a skill, run the language server.",
    )
    parser.add_argument("--version", action="version", version=f"skilldeck {skilldeck.__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    subparsers.required = True
    for command in commands:
        importlib.import_module(f"skilldeck.cli.{COMMANDS[command]}").register(subparsers)
    return parser


def _commands_for(argv: Sequence[str]) -> tuple[str, ...]:
    """The subcommands the parser needs for ``argv``: the one it names first, or (for
    ``--help``, a mistyped name) all of them. argparse reads the rest of the
    line with that subcommand's parser alone, so one is enough to parse it exactly as the
    full parser would, and a warm ``check`` imports none of the other commands.
    ``--version`` first needs none: argparse answers it as soon as it reads it."""
    if argv and argv[0] in COMMANDS:
        return (argv[0],)
    if argv and argv[0] == "--version":
        return ()
    return tuple(COMMANDS)


def main(argv: list[str] | None = None) -> int:
    """Run ``skilldeck`` with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    _escape_undecodable_output()
    if argv is None:
        argv = sys.argv[1:]
    parser = build_parser(_commands_for(argv))
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else EXIT_ERROR
    command: Command = args.run
    # A one-shot command keeps what it builds until it exits: the cyclic GC would only
    # walk the same objects again and again (a 10,000-skill check spent a fifth of its
    # time there). The long-running server keeps it.
    pause_gc = args.command != "serve" and gc.isenabled()
    if pause_gc:
        gc.disable()
    try:
        return command(args)
    except KeyboardInterrupt:
        print("skilldeck: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_OK
    except (CliError, ConfigError) as error:
        _debug_traceback()
        print(f"skilldeck: {_one_line(str(error))}", file=sys.stderr)
        return EXIT_ERROR
    except Exception as error:
        _debug_traceback()
        print(
            f"skilldeck: internal error: {type(error).__name__}: {_one_line(str(error))} "
            "(set SKILLDECK_DEBUG=1 for the traceback)",
            file=sys.stderr,
        )
        return EXIT_ERROR
    finally:
        if pause_gc:
            gc.enable()


def _escape_undecodable_output() -> None:
    """Write a path's undecodable bytes (surrogate escapes) as ``\\udcNN``, never raw.

    Raw bytes would make JSON and SARIF output invalid UTF-8; in JSON the escape is a valid
    ``\\u`` sequence that round-trips to the same Python string.
    """
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def _debug_traceback() -> None:
    if os.environ.get("SKILLDECK_DEBUG") == "1":
        traceback.print_exc(file=sys.stderr)


def _one_line(message: str) -> str:
    return " ".join(message.split())


def _silence_stdout() -> None:
    """After a closed pipe (``skilldeck list | head``), stop Python's exit-time flush error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
