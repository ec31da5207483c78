"""``skilldeck check``'s arguments, read once into a typed, frozen value at the edge (as
ruff's CLI turns its arguments into settings): past :meth:`CheckOptions.from_args` no
module reads the argparse namespace. Each project's configuration is then made from the
options' :class:`~skilldeck.cli.settings.Location` (its flags over the project's file)."""

from __future__ import annotations

import argparse
import os
import stat
from collections.abc import Sequence
from typing import Literal, NamedTuple, TextIO

from skilldeck.cli.color import Palette, color_enabled
from skilldeck.cli.errors import CliError, os_reason
from skilldeck.cli.rule_selection import RuleSelection
from skilldeck.cli.settings import Location
from skilldeck.engine.rules import Severity

#: What a run does with the fixes: report the findings, apply the fixes, or show them.
FixMode = Literal["report", "fix", "diff"]


class CheckOptions(NamedTuple):
    """One ``check`` invocation: what to check, how to report, what to fix (a typed named
    tuple, immutable like a frozen dataclass and a tenth of its cost to define: every
    ``check`` makes one)."""

    location: Location
    #: The PATHs, absolute, each an existing file or folder (default: the lookup dir).
    paths: tuple[str, ...]
    output_format: str
    fail_on: Severity
    #: Colour the text output (``--color``, the terminal, ``NO_COLOR``).
    color: bool
    #: Helper processes for a cold index (0: one per usable CPU).
    jobs: int
    include_user_roots: bool
    fix_mode: FixMode
    unsafe_fixes: bool
    selection: RuleSelection
    statistics: bool

    @classmethod
    def from_args(cls, args: argparse.Namespace, stdout: TextIO) -> CheckOptions:
        """The options of ``check``'s parsed arguments; a usage error names what is wrong."""
        location = Location.from_args(args)
        selection = RuleSelection.parse(args.select, args.ignore)
        if args.unsafe_fixes and not (args.fix or args.diff):
            raise CliError("check: --unsafe-fixes needs --fix or --diff")
        if args.fix and args.diff:
            raise CliError("check: choose --fix (change files) or --diff (show the change)")
        targets: Sequence[str] = args.paths or [location.cwd]
        return cls(
            location=location,
            paths=tuple(_existing(raw, location.cwd) for raw in targets),
            output_format=args.format,
            fail_on=Severity(args.fail_on),
            color=args.format == "text" and color_enabled(args.color, stdout),
            jobs=args.jobs,
            include_user_roots=args.include_user_roots,
            fix_mode="fix" if args.fix else "diff" if args.diff else "report",
            unsafe_fixes=args.unsafe_fixes,
            selection=selection,
            statistics=args.statistics,
        )

    @property
    def palette(self) -> Palette:
        """The text output's styling."""
        return Palette(self.color)

    @property
    def plain(self) -> bool:
        """Every rule reported as findings: a run whose output may be memoised."""
        return self.selection.everything and not self.statistics

    @property
    def select(self) -> frozenset[str] | None:
        """The rules this run reports (``None``: all): the engine skips the deck-wide
        passes whose rules are all unselected, and such a partial deck keeps no memo."""
        return None if self.selection.everything else self.selection.codes


def _existing(raw: str, cwd: str) -> str:
    """The absolute PATH; a usage error saying why when it names nothing to check."""
    path = os.path.normpath(os.path.join(cwd, raw))
    try:
        mode = os.stat(path).st_mode
    except OSError as error:  # ENOENT, ENAMETOOLONG, ELOOP, EACCES, ENOTDIR: say which
        raise CliError(f"check: {os_reason(error)}: {raw}") from None
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        from skilldeck.engine.files import file_kind  # noqa: PLC0415

        raise CliError(
            f"check: {raw} is {file_kind(mode)}, not a skill file, bundle, skill root or project"
        )
    return path
