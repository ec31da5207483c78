"""Shared options of every subcommand and the configuration they produce.

Precedence (lowest first): built-in defaults, the environment (``$DSH_HOME``,
``$DSH_AGENTS_HOME``, ``$DSH_BUNDLED_SKILL_DIR``), the project's config file (or
``--config FILE``), then flags.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, NamedTuple

from skilldeck.cli.display import display_path, printable
from skilldeck.cli.errors import CliError, os_reason
from skilldeck.cli.provider_option import add_provider_option, load_provider_factory
from skilldeck.engine.config import ConfigLayer, SkilldeckConfig, find_config_file, load_config_file
from skilldeck.engine.filesystem import IndexCache, find_project_root

if TYPE_CHECKING:
    from skilldeck.engine.filesystem import SkippedFile
    from skilldeck.engine.registry import ProviderFactory, SkillRegistry

#: Skipped skill files named one a line on stderr; past it, how many more.
SKIPPED_SHOWN = 20


def add_cwd_option(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--cwd DIR``: the lookup directory (default: the current directory)."""
    parser.add_argument(
        "--cwd",
        metavar="DIR",
        default=None,
        help="the lookup directory; its project root is the nearest ancestor with .git "
        "(default: the current directory)",
    )


def add_location_options(parser: argparse.ArgumentParser) -> None:
    """``--cwd``, ``--custom-skill-dir``, ``--bundled-skill-dir`` and ``--config``."""
    group = parser.add_argument_group("where to look")
    add_cwd_option(group)
    group.add_argument(
        "--custom-skill-dir",
        metavar="DIR",
        action="append",
        dest="custom_skill_dirs",
        default=None,
        help="a custom skill root (rank 300); repeatable; replaces the config file's list",
    )
    group.add_argument(
        "--bundled-skill-dir",
        metavar="DIR",
        default=None,
        help="the bundled skill root (rank 600); overrides $DSH_BUNDLED_SKILL_DIR",
    )
    group.add_argument(
        "--config",
        metavar="FILE",
        default=None,
        help="read settings from FILE (skilldeck.toml or pyproject.toml) instead of the "
        "project's own config file",
    )


def add_profile_option(parser: argparse.ArgumentParser) -> None:
    """``--profile P``: the rule profile files are judged with."""
    parser.add_argument(
        "--profile",
        metavar="P",
        default=None,
        help="rule profile: dsh (default), agentskills, claude-code, codex",
    )


def add_cache_option(parser: argparse.ArgumentParser) -> None:
    """``--no-cache``: bypass the persistent index cache."""
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="neither read nor write the index cache ($SKILLDECK_CACHE_DIR or the user "
        "cache directory)",
    )


def add_registry_options(parser: argparse.ArgumentParser) -> None:
    """The options of a command that reads the registry: profile, cache, locations and
    extra providers."""
    add_profile_option(parser)
    add_cache_option(parser)
    add_location_options(parser)
    add_provider_option(parser)


@dataclass(frozen=True)
class RegistrySession:
    """What a registry-reading command works with: lookup cwd, config and registry."""

    cwd: str
    config: SkilldeckConfig
    registry: SkillRegistry


def registry_session(
    location: Location, *, catalog_max_description_length: int | None = None
) -> RegistrySession:
    """The lookup cwd, its configuration and the default registry (cache unless --no-cache)."""
    cwd = location.cwd
    config = location.config(cwd, catalog_max_description_length=catalog_max_description_length)
    from skilldeck.engine.deck import default_registry  # noqa: PLC0415 - not for check
    from skilldeck.remote import mcp_source_factory  # noqa: PLC0415

    registry = default_registry(
        config,
        cache=location.cache(),
        providers=location.providers(),
        mcp_sources=mcp_source_factory,
    )
    return RegistrySession(cwd, config, registry)


def warn_if_incomplete(complete: bool) -> None:
    """Say on stderr that a registry read was incomplete (some skills may be missing)."""
    if not complete:
        print(
            "skilldeck: warning: discovery was incomplete; some skills may be missing",
            file=sys.stderr,
        )


@contextlib.contextmanager
def skipped_files() -> Iterator[list[SkippedFile]]:
    """Collect, while the block runs, the skill files the engine refuses: what its
    filesystem provider logs on ``SKIPPED_LOGGER`` (the verdict ``check`` reports). The
    records stop there: the command prints them its own way (:func:`warn_skipped`)."""
    from skilldeck.engine.filesystem import SKIPPED_LOGGER, SkippedFile  # noqa: PLC0415

    found: list[SkippedFile] = []
    paths: set[str] = set()

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            skipped = getattr(record, "skipped_file", None)
            if isinstance(skipped, SkippedFile) and skipped.path not in paths:
                paths.add(skipped.path)
                found.append(skipped)

    logger = logging.getLogger(SKIPPED_LOGGER)
    handler = Collect(logging.WARNING)
    propagate = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield found
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


def skipped_line(skipped: SkippedFile, cwd: str, *, name: str | None = None) -> str:
    """``PATH skipped: CODE message``: the file as ``check`` shows it, and why (or, for a
    skill ``name`` asked for, ``skill 'NAME' exists but was skipped: PATH: CODE ...``)."""
    shown = printable(display_path(skipped.path, cwd))
    why = f"{skipped.code} {printable(skipped.message)}"
    if name is not None:
        return f"skill '{printable(name)}' exists but was skipped: {shown}: {why}"
    return f"{shown} skipped: {why}"


def warn_skipped(skipped: Sequence[SkippedFile], cwd: str) -> None:
    """One ``skilldeck: warning:`` line on stderr per skipped skill file (the first
    :data:`SKIPPED_SHOWN`, then how many more)."""
    for item in skipped[:SKIPPED_SHOWN]:
        print(f"skilldeck: warning: {skipped_line(item, cwd)}", file=sys.stderr)
    more = len(skipped) - SKIPPED_SHOWN
    if more > 0:
        files = "file" if more == 1 else "files"
        print(
            f"skilldeck: warning: and {more} more skipped skill {files}; run `skilldeck check`",
            file=sys.stderr,
        )


def lookup_cwd(args: argparse.Namespace) -> str:
    """The absolute ``--cwd`` (default: the process's cwd); it must be a directory."""
    raw = getattr(args, "cwd", None)
    cwd = os.path.abspath(raw) if raw else os.getcwd()
    if not _is_kind(cwd, stat.S_ISDIR, "--cwd", shown=raw):
        raise CliError(f"--cwd: not a directory: {raw}")
    return cwd


class Location(NamedTuple):
    """Where a command looks and what its flags set, read once from the arguments (the
    edge; nothing past it reads the argparse namespace): the lookup directory, the
    config file ``--config`` names (``None``: each project's own), the flags as a
    settings layer, the ``--provider`` factories and whether the cache is used.

    A typed named tuple, immutable like a frozen dataclass: every command makes one, and
    a frozen dataclass costs about 2 ms to define (a named tuple a tenth of it)."""

    cwd: str
    config_file: str | None = None
    flags: ConfigLayer = ConfigLayer()
    provider_specs: tuple[str, ...] = ()
    use_cache: bool = True

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> Location:
        """The location of a command's arguments (``--cwd``, ``--config``,
        ``--custom-skill-dir``, ``--bundled-skill-dir``, ``--profile``, ``--host`` of
        ``check``, ``--provider``, ``--no-cache``; each where the command has it)."""
        cwd = lookup_cwd(args)
        explicit = getattr(args, "config", None)
        config_file = None
        if explicit:
            if not _is_kind(explicit, stat.S_ISREG, "--config", shown=explicit):
                raise CliError(f"--config: no such file: {explicit}")
            config_file = os.path.abspath(explicit)
        custom = getattr(args, "custom_skill_dirs", None)
        bundled = getattr(args, "bundled_skill_dir", None)
        profile, hosts = getattr(args, "profile", None), None
        raw_hosts = getattr(args, "check_hosts", None)
        if raw_hosts is not None:
            profile, hosts = _hosts_flag(raw_hosts, profile)
        flags = ConfigLayer(
            profile=profile,
            hosts=hosts,
            custom_skill_dirs=(
                tuple(os.path.normpath(os.path.join(cwd, d)) for d in custom) if custom else None
            ),
            bundled_skill_dir=os.path.normpath(os.path.join(cwd, bundled)) if bundled else None,
            origin=None,
        )
        return cls(
            cwd=cwd,
            config_file=config_file,
            flags=flags,
            provider_specs=tuple(getattr(args, "providers", None) or ()),
            use_cache=not getattr(args, "no_cache", False),
        )

    def providers(self) -> tuple[ProviderFactory, ...]:
        """The factories ``--provider`` names (their modules imported once)."""
        return tuple(load_provider_factory(spec) for spec in self.provider_specs)

    def cache(self) -> IndexCache | None:
        """The index cache (``None`` with ``--no-cache``)."""
        return IndexCache.default() if self.use_cache else None

    def config(
        self,
        project_dir: str,
        *,
        include_user_roots: bool | None = None,
        catalog_max_description_length: int | None = None,
        mcp_require_safe: bool | None = None,
    ) -> SkilldeckConfig:
        """The configuration for the project at ``project_dir`` (a lookup directory).

        The config file is ``--config FILE`` when given, else the one at ``project_dir``'s
        project root (``skilldeck.toml``, else ``[tool.skilldeck]`` in ``pyproject.toml``).
        Raises :class:`skilldeck.engine.config.ConfigError` for a bad file or value.
        """
        config = SkilldeckConfig.from_environment()
        file = self.config_file
        if file is None:
            found = find_config_file(find_project_root(project_dir))
            file = str(found) if found is not None else None
        if file is not None:
            config = replace(config.merged(load_config_file(file)), config_file=file)
        flags = replace(
            self.flags,
            include_user_roots=include_user_roots,
            catalog_max_description_length=catalog_max_description_length,
            mcp_require_safe=mcp_require_safe,
        )
        merged = config.merged(flags)
        _check_profile(merged.profile)
        return merged


def _is_kind(path: str, kind: Callable[[int], bool], option: str, *, shown: object) -> bool:
    """Whether ``path`` exists and ``kind`` (``stat.S_ISDIR``, ...) holds for it; a
    missing path is ``False``, any other reason (ENAMETOOLONG, ELOOP, EACCES) a usage
    error naming ``option`` and the path as the user wrote it (``shown``)."""
    try:
        return kind(os.stat(path).st_mode)
    except FileNotFoundError:
        return False
    except OSError as error:
        raise CliError(f"{option}: {os_reason(error)}: {shown}") from None


def _hosts_flag(raw: str, profile: str | None) -> tuple[str | None, tuple[str, ...]]:
    """``--host H[,H...]``: the hosts reported on, and the profile (``--profile`` if given,
    else the dialect of a single host: ``--profile`` is the dialect's alias)."""
    from skilldeck.engine.hosts import parse_hosts  # noqa: PLC0415

    if raw.strip() == "all":
        raise CliError("--host: name the agents (a comma list), not all")
    try:
        hosts = parse_hosts(raw)
    except ValueError as error:
        raise CliError(f"--host: {error}") from None
    if profile is None and len(hosts) == 1:
        profile = hosts[0].dialect
    return profile, tuple(host.name for host in hosts)


def _check_profile(name: str) -> None:
    from skilldeck.engine.rules import PROFILES  # noqa: PLC0415

    if name not in PROFILES:
        raise CliError(
            f"--profile: unknown profile {name!r} (known: {', '.join(sorted(PROFILES))})"
        )
