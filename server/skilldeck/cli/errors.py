"""Errors the CLI turns into exit status 2 with a one-line message on stderr."""

from __future__ import annotations


class CliError(Exception):
    """A usage, configuration or environment problem the user can fix.

    ``main`` prints ``skilldeck: <message>`` on stderr and exits with status 2.
    """
