"""``python -m skilldeck`` must not import the working directory's modules.

``python -m MODULE`` puts the working directory first on ``sys.path`` (Python's rule,
which ``-P`` / ``PYTHONSAFEPATH`` turn off from 3.11 on, and ``-I`` on every version), so
started in a workspace, ``python -m skilldeck serve`` imported the workspace's
``typing.py`` or ``logging.py`` instead of the standard library's. The console script
(``skilldeck serve``) never had it on its path. While Python locates ``skilldeck`` for
``-m`` (``sys.argv[0]`` is ``"-m"`` until it runs the module), the package's first
statement drops that entry, before skilldeck imports anything, when the module run is
skilldeck's own (``python -m skilldeck``, ``python -m skilldeck.lsp``): a program of
the user's that imports skilldeck while it is itself run with ``-m`` keeps its path.

What this cannot prevent: a ``skilldeck/`` folder in the working directory is found
before the installed package (Python imports it instead of this code), and modules
``runpy`` imports before it imports ``skilldeck`` come from the path as it was
(``docs/cli.md`` says to run ``skilldeck`` or ``python -P -m skilldeck`` there).
"""

from __future__ import annotations

import os
import sys


def drop_working_directory() -> None:
    """Remove ``python -m``'s working-directory entry from ``sys.path`` when the module
    being run is skilldeck's (see the module docstring)."""
    if getattr(sys.flags, "safe_path", False) or sys.flags.isolated:
        return  # -P, PYTHONSAFEPATH or -I: Python added no such entry
    if not _runs_skilldeck(getattr(sys, "orig_argv", ())):
        return
    try:
        here = os.getcwd()
    except OSError:
        return
    if sys.path and sys.path[0] in (here, ""):
        del sys.path[0]


def _runs_skilldeck(argv: list[str] | tuple[str, ...]) -> bool:
    """Whether the interpreter's own command line (``sys.orig_argv``) runs a module of
    skilldeck with ``-m`` (``-m skilldeck``, ``-X dev -mskilldeck.lsp``, ``-Bm skilldeck``),
    read as CPython reads its options."""
    index = 1
    while index < len(argv):
        arg = argv[index]
        index += 1
        if arg == "--check-hash-based-pycs":
            index += 1
            continue
        if arg.startswith("--") or not arg.startswith("-") or arg == "-":
            return False  # a script, ``--`` then a script, or a long option ending them
        for position, flag in enumerate(arg[1:], start=2):
            if flag in _TAKES_VALUE:
                value = arg[position:]
                if not value:
                    value = argv[index] if index < len(argv) else ""
                    index += 1
                if flag == "c":
                    return False
                if flag == "m":
                    return value == "skilldeck" or value.startswith("skilldeck.")
                break
    return False


#: The short options of the interpreter that take a value (the rest of the argument, or
#: the next one): ``-c`` command, ``-m`` module, ``-W`` warnings, ``-X`` options.
_TAKES_VALUE = frozenset("cmWX")
