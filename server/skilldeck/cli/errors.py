"""Errors the CLI turns into exit status 2 with a one-line message on stderr."""

from __future__ import annotations


class CliError(Exception):
    """A usage, configuration or environment problem the user can fix.

    ``main`` prints ``skilldeck: <message>`` on stderr and exits with status 2.
    """


def os_reason(error: OSError) -> str:
    """Why the OS refused a path, in the lower-case words of its error (``file name too
    long``, ``no such file or directory``, ``permission denied``)."""
    return (error.strerror or "cannot be read").lower()
