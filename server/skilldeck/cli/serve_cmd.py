"""``skilldeck serve [--tcp HOST:PORT]``: the language server (stdio by default)."""

from __future__ import annotations

import argparse
import os
from typing import Any

from skilldeck.cli.errors import CliError
from skilldeck.cli.provider_option import add_provider_option
from skilldeck.cli.settings import Location, add_cwd_option


def register(subparsers: Any) -> None:
    """Add the ``serve`` subcommand."""
    parser = subparsers.add_parser(
        "serve",
        help="run the language server",
        description="Run the skilldeck language server over stdio, or over TCP with --tcp.",
    )
    parser.add_argument(
        "--tcp",
        metavar="HOST:PORT",
        default=None,
        type=parse_host_port,
        help="listen on HOST:PORT instead of speaking over stdin/stdout",
    )
    parser.add_argument(
        "--stdio", action="store_true", help="speak over stdin/stdout (the default)"
    )
    add_cwd_option(parser)
    add_provider_option(parser)
    parser.set_defaults(run=run)


def parse_host_port(value: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) -> ``(host, port)``."""
    host, sep, port_text = value.rpartition(":")
    if not sep or not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {value!r}")
    return host.strip("[]"), int(port_text)


def run(args: argparse.Namespace) -> int:
    """Serve until the client disconnects or asks to exit."""
    if args.tcp is not None and args.stdio:
        raise CliError("serve: --tcp and --stdio exclude each other")
    location = Location.from_args(args)
    os.chdir(location.cwd)
    providers = location.providers()
    try:
        from skilldeck.lsp.server import serve  # noqa: PLC0415
    except ImportError as error:
        raise CliError(f"the language server is not available: {error}") from error
    serve(tcp=args.tcp, providers=providers)
    return 0
