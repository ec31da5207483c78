"""A host's own settings that change what it lists, read from the files the host reads
(the project's and the user's, :class:`~skilldeck.engine.hosts.HostSettings`), and from
the environment variables it reads.

Each host declares its files and keys once, in :mod:`skilldeck.engine.hosts`; this
module reads them as the host does: files in order, a later file's value winning (a
mapping key by key), a file that is missing skipped, a file that does not parse skipped
and named (:attr:`AppliedSettings.unreadable`). ``list --host`` names the files and
variables it applied (:meth:`AppliedSettings.describe`).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import cast

from skilldeck.engine.hosts import HOSTS, ConfigFile, Host, HostRoot, Override

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,no-redef,unused-ignore]

_OVERRIDES: tuple[Override, ...] = ("on", "name-only", "user-invocable-only", "off")
_TRUE = ("1", "true")


@dataclass(frozen=True)
class AppliedSettings:
    """What a host's settings say for one start folder.

    ``files``: the config files read (each that exists and parses), in order;
    ``unreadable``: those that exist but do not parse (the host skips them too:
    skilldeck assumes so). ``overrides``: skill (folder name) to :data:`Override`.
    ``entry_cap``: the per-entry cap, where a file sets it. ``extra_roots``: the folders
    the settings add (absolute, as the host resolves them). ``off``: root paths
    (``.claude/skills``) turned off by ``variables``. ``urls``: addresses the host would
    download skills from (not read by skilldeck)."""

    host: str
    files: tuple[str, ...] = ()
    unreadable: tuple[str, ...] = ()
    overrides: Mapping[str, Override] = field(default_factory=dict)
    entry_cap: int | None = None
    extra_roots: tuple[HostRoot, ...] = ()
    off: tuple[str, ...] = ()
    variables: tuple[str, ...] = ()
    urls: tuple[str, ...] = ()
    #: Folder trust is on and the start folder is not trusted: no project root is read.
    untrusted: bool = False

    @property
    def empty(self) -> bool:
        return not (self.files or self.unreadable or self.variables)

    def key(self) -> list[object]:
        """What a memo of a view must key on (every value the settings gave)."""
        return [
            self.host,
            list(self.files),
            list(self.unreadable),
            sorted(self.overrides.items()),
            self.entry_cap,
            [root.path for root in self.extra_roots],
            list(self.off),
            list(self.variables),
            list(self.urls),
            self.untrusted,
        ]

    def describe(self, home: str | None = None) -> list[str]:
        """One line per file or variable applied, and what the settings do."""
        home = home if home is not None else os.path.expanduser("~")

        def shown(path: str) -> str:
            return "~" + path[len(home) :] if path.startswith(home + os.sep) else path

        lines = [f"settings read: {shown(path)}" for path in self.files]
        lines.extend(f"settings not read (does not parse): {shown(p)}" for p in self.unreadable)
        lines.extend(f"environment: {variable}" for variable in self.variables)
        if self.overrides:
            listed = ", ".join(f"{name}={value}" for name, value in sorted(self.overrides.items()))
            lines.append(f"skill overrides: {listed}")
        if self.entry_cap is not None:
            lines.append(f"entry cap: {self.entry_cap} characters")
        lines.extend(f"more skills from: {shown(root.path)}" for root in self.extra_roots)
        lines.extend(f"not read: {path} folders" for path in self.off)
        lines.extend(f"not downloaded by skilldeck: {url}" for url in self.urls)
        if self.untrusted:
            lines.append(
                "folder trust is on and this folder is not trusted: no project folder is read"
            )
        return lines


def read_settings(
    host: Host, cwd: str, project: str, *, environ: Mapping[str, str] | None = None
) -> AppliedSettings:
    """``host``'s settings for the start folder ``cwd`` in the project ``project``."""
    rules = host.settings
    environ = os.environ if environ is None else environ
    home = os.path.expanduser("~")
    files: list[str] = []
    unreadable: list[str] = []
    merged: dict[str, object] = {}
    for config in rules.files:
        path = os.path.join(home if config.scope == "user" else project, config.path)
        document = _read(path, config)
        if document is None:
            continue
        if isinstance(document, str):
            unreadable.append(document)
            continue
        files.append(path)
        _merge(merged, document)
    overrides: dict[str, Override] = {}
    found = _at(merged, rules.overrides)
    if isinstance(found, dict):
        for name, value in found.items():
            if value in _OVERRIDES:
                overrides[str(name)] = cast("Override", value)
    entry_cap: int | None = None
    cap = _at(merged, rules.entry_cap)
    if isinstance(cap, int) and not isinstance(cap, bool) and cap > 0:
        entry_cap = cap
    extra: list[HostRoot] = []
    dirs = _at(merged, rules.extra_dirs)
    base = os.path.abspath(cwd) if rules.extra_base == "cwd" else project
    if isinstance(dirs, list):
        for item in dirs:
            if not isinstance(item, str) or not item:
                continue
            if item == "~" or item.startswith("~/"):
                path = os.path.join(home, item[2:])
            else:
                path = os.path.join(base, item)
            path = os.path.normpath(path)
            if all(root.path != path for root in extra):
                extra.append(HostRoot("extra", path, "cwd", rules.extra_hidden))
    urls = _at(merged, rules.urls)
    off: list[str] = []
    variables: list[str] = []
    for variable, root in rules.env_off:
        value = environ.get(variable)
        if value is not None and value.strip().lower() in _TRUE:
            variables.append(f"{variable}={value}")
            if root not in off:
                off.append(root)
    untrusted = False
    enabled = _at(merged, rules.trust)
    # Folder trust is on unless turned off (Gemini CLI 0.61.0: on without the key).
    if rules.trust is not None and enabled is not False:
        trust_value = environ.get(rules.trust_env) if rules.trust_env is not None else None
        if trust_value is not None and trust_value.strip().lower() in _TRUE:
            variables.append(f"{rules.trust_env}={trust_value}")
        else:
            folders: dict[str, object] | None = None
            if rules.trusted_folders is not None:
                path = os.path.join(home, rules.trusted_folders.path)
                document = _read(path, rules.trusted_folders)
                if isinstance(document, dict):
                    files.append(path)
                    folders = document
                elif isinstance(document, str):
                    unreadable.append(document)
            decided = _trusted(os.path.abspath(cwd), folders or {})
            # No rule for this folder: where the user keeps trust (the key set, or a
            # trusted-folders file), the host has not been trusted here; with neither,
            # it asks on its first run and skilldeck assumes the user trusts it.
            untrusted = decided is False or (
                decided is None and (enabled is True or folders is not None)
            )
    return AppliedSettings(
        host.name,
        tuple(files),
        tuple(unreadable),
        overrides,
        entry_cap,
        tuple(extra),
        tuple(off),
        tuple(variables),
        tuple(str(url) for url in urls) if isinstance(urls, list) else (),
        untrusted,
    )


def _trusted(folder: str, folders: Mapping[str, object]) -> bool | None:
    """Whether ``folder`` is trusted by a trusted-folders file (``None``: no rule holds
    it). The longest listed path that holds ``folder`` decides; ``TRUST_PARENT`` trusts
    the listed path's parent and all below it (Gemini CLI's trusted folders)."""
    best: tuple[int, bool] | None = None
    for listed, level in folders.items():
        path = os.path.normpath(str(listed))
        if level == "TRUST_PARENT":
            path = os.path.dirname(path)
        if folder != path and not folder.startswith(path.rstrip(os.sep) + os.sep):
            continue
        if best is None or len(path) > best[0]:
            best = (len(path), level != "DO_NOT_TRUST")
    return None if best is None else best[1]


def settings_files(projects: Iterable[str], home: str | None = None) -> frozenset[str]:
    """Every file any host reads its settings from, for the project roots ``projects``
    (what a change on disk must make a view read again)."""
    home = home if home is not None else os.path.expanduser("~")
    bases = [os.path.normpath(project) for project in projects]
    found: set[str] = set()
    for host in HOSTS.values():
        rules = host.settings
        configs = [*rules.files, *([rules.trusted_folders] if rules.trusted_folders else [])]
        for config in configs:
            if config.scope == "user":
                found.add(os.path.normpath(os.path.join(home, config.path)))
            else:
                found.update(os.path.normpath(os.path.join(b, config.path)) for b in bases)
    return frozenset(found)


def _read(path: str, config: ConfigFile) -> dict[str, object] | str | None:
    """The file's document; ``None``: it does not exist; its path: it does not parse."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError:
        return None
    try:
        text = raw.decode("utf-8-sig")
        document: object = tomllib.loads(text) if config.format == "toml" else json.loads(text)
    except (UnicodeDecodeError, ValueError):
        return path
    return cast("dict[str, object]", document) if isinstance(document, dict) else path


def _merge(into: dict[str, object], document: Mapping[str, object]) -> None:
    """``document`` over ``into``: mappings key by key, other values replaced."""
    for key, value in document.items():
        known = into.get(key)
        if isinstance(known, dict) and isinstance(value, dict):
            inner = dict(cast("dict[str, object]", known))
            _merge(inner, cast("dict[str, object]", value))
            into[key] = inner
        else:
            into[key] = value


def _at(document: Mapping[str, object], dotted: str | None) -> object:
    if dotted is None:
        return None
    current: object = document
    for part in dotted.split("."):
        if not isinstance(current, dict):
            return None
        current = cast("dict[str, object]", current).get(part)
    return current
