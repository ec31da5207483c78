"""What real editors announce in ``initialize``, and how they report files changing on disk.

Each :class:`ClientProfile` is a record in ``client_capabilities/<name>.json``: the
capabilities the editor sends, with where they came from (``source``: the editor's file
and release or commit) and how they were obtained (``how``: run from the editor's own
code where it runs here, transcribed from its source where it does not):

- ``vscode-1.100``: vscode-languageclient 11.0.0's ``computeClientCapabilities()`` (the
  extension's client), run under node;
- ``neovim-0.11``: ``make_client_capabilities()`` of Neovim v0.11.0's
  ``runtime/lua/vim/lsp/protocol.lua``, evaluated by a Neovim binary;
- ``neovim-0.7``: Debian 12's Neovim 0.7.2, run headless;
- ``eglot-1.9`` and ``eglot-1.9-markdown``: Debian 12's Emacs 28.2 with elpa-eglot 1.9,
  run in batch, without and with markdown-mode (which decides eglot's hover formats);
- ``helix-25.07``: Helix 25.07.1's ``helix-lsp/src/client.rs``, transcribed;
- ``lsp4ij-0.20``: LSP4IJ 0.20.1's ``ClientCapabilitiesFactory.java``, transcribed.

Other test modules import this one (``from client_profiles import PROFILES``) and start a
server with ``start_server(capabilities=profile.capabilities())``. How a client reports
changes on disk is part of the profile (:attr:`ClientProfile.watching`): VS Code's
watching is emulated by :class:`VSCodeWatching` (what its watchers report and which
registered globs match, as VS Code does it), Helix's reports nothing a shell does (it sends
``didChangeWatchedFiles`` only for files it saved itself), and the others are given no
report at all: the server must not depend on them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

from lsprotocol import types
from pygls.protocol import default_converter
from pygls.uris import from_fs_path, to_fs_path

RECORDS = Path(__file__).with_name("client_capabilities")

#: How a client reports changes on disk: ``vscode`` (emulated faithfully, see
#: :class:`VSCodeWatching`), ``own-saves`` (Helix: only files it writes itself, never a
#: shell's), ``none`` (nothing: the client watches nothing, or nothing we rely on).
Watching = Literal["vscode", "own-saves", "none"]


@dataclass(frozen=True)
class ClientProfile:
    """One editor's ``initialize`` capabilities (a record) and its way of watching."""

    name: str
    watching: Watching

    @property
    def record(self) -> dict[str, Any]:
        return _record(self.name)

    @property
    def source(self) -> str:
        return str(self.record["source"])

    def raw(self) -> dict[str, Any]:
        """The capabilities as the editor sends them (JSON)."""
        return json.loads(json.dumps(self.record["capabilities"]))

    def capabilities(self) -> types.ClientCapabilities:
        """The capabilities as lsprotocol types (what pytest-lsp sends)."""
        converter = default_converter()
        return converter.structure(self.raw(), types.ClientCapabilities)


@cache
def _record(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))
    return data


PROFILES: dict[str, ClientProfile] = {
    profile.name: profile
    for profile in (
        ClientProfile("vscode-1.100", "vscode"),
        ClientProfile("neovim-0.11", "none"),
        ClientProfile("neovim-0.7", "none"),
        ClientProfile("helix-25.07", "own-saves"),
        ClientProfile("eglot-1.9", "none"),
        ClientProfile("eglot-1.9-markdown", "none"),
        ClientProfile("lsp4ij-0.20", "none"),
    )
}


def profile_params(*names: str) -> list[Any]:
    """``pytest.mark.parametrize`` values: the named profiles (all when none is named)."""
    import pytest  # noqa: PLC0415

    chosen = names or tuple(PROFILES)
    return [pytest.param(PROFILES[name], id=name) for name in chosen]


# --------------------------------------------------------------------------- globs


@cache
def glob_regex(pattern: str) -> re.Pattern[str]:
    """A glob as VS Code reads it (``src/vs/base/common/glob.ts``): ``*`` and ``?`` stay
    inside one path segment, ``**`` spans any number of segments (none included),
    ``{a,b}`` is either, ``[...]`` a character range (``[!...]`` negated)."""
    out: list[str] = []
    i = 0
    depth = 0
    while i < len(pattern):
        char = pattern[i]
        if pattern.startswith("**", i):
            i += 2
            if pattern.startswith("/", i):  # "**/": any segments, then a separator
                i += 1
                out.append("(?:[^/]*/)*")
            else:
                out.append(".*")
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "{":
            depth += 1
            out.append("(?:")
        elif char == "}" and depth:
            depth -= 1
            out.append(")")
        elif char == "," and depth:
            out.append("|")
        elif char == "[":
            end = pattern.find("]", i + 1)
            if end == -1:
                out.append(re.escape(char))
            else:
                body = pattern[i + 1 : end]
                negate = body.startswith("!")
                body = body[1:] if negate else body
                out.append("[" + ("^" if negate else "") + body.replace("\\", "\\\\") + "]")
                i = end
        else:
            out.append(re.escape(char))
        i += 1
    return re.compile("".join(out) + r"\Z")


def glob_matches(glob: Any, path: str) -> bool:
    """Whether the registered ``glob`` (a string, or a ``RelativePattern`` as JSON) matches
    ``path``, as VS Code's ``FileSystemWatcher`` matches an event's ``fsPath``."""
    if isinstance(glob, str):
        return bool(glob_regex(glob).match(path))
    base_uri = glob["baseUri"]
    base = to_fs_path(base_uri if isinstance(base_uri, str) else base_uri["uri"])
    assert base is not None
    relative = os.path.relpath(path, base)
    if relative == "." or relative.startswith(".."):
        return False
    return bool(glob_regex(glob["pattern"]).match(relative))


# --------------------------------------------------------------------------- VS Code


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


@dataclass
class _Watch:
    """One watch VS Code's file service runs: on ``path``, recursive or not; suspended
    while ``path`` does not exist (VS Code polls for it, then reports it and resumes)."""

    path: str
    recursive: bool
    suspended: bool = False


@dataclass
class VSCodeWatching:
    """What VS Code 1.100 with vscode-languageclient 11 tells a server about changes a
    shell makes on disk, for the globs the server registered.

    Faithful to, in order:

    1. the workspace folders are watched recursively by @parcel/watcher; on Linux its
       inotify backend reports a created folder and only then adds a watch on it
       (parcel-bundler/watcher ``src/linux/InotifyBackend.cc`` ``handleSubscription``,
       v2.5.1), so a folder created with its contents in one go is reported alone;
    2. ``workspace.createFileSystemWatcher(RelativePattern)`` starts a watch on the
       pattern's base folder, recursive only when the pattern holds ``/`` or ``**``
       (``src/vs/workbench/api/common/extHostFileSystemEventService.ts``
       ``ensureWatching``); a recursive watch inside a workspace folder is the
       workspace's own; a string glob starts no watch and receives only events inside a
       workspace folder;
    3. a watch whose folder does not exist is suspended and polled; when the folder
       appears it is reported as added and the watch resumes, without reporting what
       the folder already holds (``src/vs/platform/files/node/watcher/baseWatcher.ts``
       ``suspendWatchRequest`` / ``onMonitoredPathAdded``); the poll's 5 s interval is
       not waited for here;
    4. every event of every watch reaches every extension watcher, which passes on those
       its glob matches (``parse(globPattern)(uri.fsPath)``), and vscode-languageclient
       sends them as ``workspace/didChangeWatchedFiles`` (``fileSystemWatcher.js``).
    """

    folders: list[str]
    send: Callable[[list[types.FileEvent]], None]
    globs: dict[str, list[Any]] = field(default_factory=dict)
    watches: list[_Watch] = field(default_factory=list)
    sent: list[types.FileEvent] = field(default_factory=list)

    def register(self, registrations: Iterable[types.Registration]) -> None:
        """``client/registerCapability`` for ``workspace/didChangeWatchedFiles``."""
        for registration in registrations:
            if registration.method != types.WORKSPACE_DID_CHANGE_WATCHED_FILES:
                continue
            options = registration.register_options
            watchers = options["watchers"] if isinstance(options, dict) else options.watchers
            globs = [w["globPattern"] if isinstance(w, dict) else w.glob_pattern for w in watchers]
            self.globs[registration.id] = [_plain_glob(g) for g in globs]
        self.watches = [_Watch(folder, recursive=True) for folder in self.folders]
        for globs in self.globs.values():
            for glob in globs:
                if isinstance(glob, str):
                    continue
                base = to_fs_path(glob["baseUri"])
                assert base is not None
                pattern = glob["pattern"]
                recursive = "**" in pattern or "/" in pattern
                if recursive and any(_inside(base, f) for f in self.folders):
                    continue  # the workspace's own watcher
                self.watches.append(
                    _Watch(base, recursive=recursive, suspended=not os.path.isdir(base))
                )

    # -- what a shell does -----------------------------------------------------------

    def create(self, path: Path, text: str) -> None:
        """``mkdir -p`` the file's folder and write it: reported as VS Code reports it."""
        missing = _first_missing(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        existed = path.exists()
        path.write_text(text, encoding="utf-8")
        kind = types.FileChangeType.Changed if existed else types.FileChangeType.Created
        self._report(str(missing or path), kind)

    def remove(self, path: Path) -> None:
        """``rm -r``: the removed path is reported (VS Code drops its children's events)."""
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink()
        self._report(str(path), types.FileChangeType.Deleted)

    # -- internals ---------------------------------------------------------------------

    def _report(self, path: str, kind: types.FileChangeType) -> None:
        raw: list[tuple[str, types.FileChangeType]] = []
        for watch in self.watches:
            if watch.suspended:
                if kind == types.FileChangeType.Created and _inside(watch.path, path):
                    # The polled folder exists now: reported alone, then watched.
                    watch.suspended = not os.path.isdir(watch.path)
                    raw.append((watch.path, types.FileChangeType.Created))
                continue
            parent = os.path.dirname(path)
            if (watch.recursive and _inside(parent, watch.path)) or parent == watch.path:
                raw.append((path, kind))
        events: list[types.FileEvent] = []
        seen: set[tuple[str, int]] = set()
        for event_path, event_kind in raw:
            if (event_path, event_kind) in seen:
                continue
            seen.add((event_path, event_kind))
            if self._matches(event_path):
                uri = from_fs_path(event_path)
                assert uri is not None
                events.append(types.FileEvent(uri=uri, type=event_kind))
        if events:
            self.sent.extend(events)
            self.send(events)

    def _matches(self, path: str) -> bool:
        for globs in self.globs.values():
            for glob in globs:
                if isinstance(glob, str):
                    if any(_inside(path, f) for f in self.folders) and glob_matches(glob, path):
                        return True
                elif glob_matches(glob, path):
                    return True
        return False


def _plain_glob(glob: Any) -> Any:
    """A registered glob as JSON: a string or ``{"baseUri": str, "pattern": str}``."""
    if isinstance(glob, str):
        return glob
    if isinstance(glob, dict):
        base = glob["baseUri"]
        base = base if isinstance(base, str) else base["uri"]
        return {"baseUri": base, "pattern": glob["pattern"]}
    base = glob.base_uri
    return {"baseUri": base if isinstance(base, str) else base.uri, "pattern": glob.pattern}


def _first_missing(path: Path) -> Path | None:
    """The topmost folder on the way to ``path`` that does not exist yet, if any."""
    missing: Path | None = None
    for parent in path.parents:
        if parent.exists():
            break
        missing = parent
    return missing


@dataclass
class SilentWatching:
    """A client that reports nothing a shell does on disk (Helix reports only its own
    saves; the others are not relied on): :meth:`create` and :meth:`remove` only change
    the disk, with the same interface as :class:`VSCodeWatching`."""

    sent: list[types.FileEvent] = field(default_factory=list)

    def register(self, registrations: Iterable[types.Registration]) -> None:
        """Registrations change nothing a shell's edits would report."""

    def create(self, path: Path, text: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    def remove(self, path: Path) -> None:
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink()


def watching_for(
    profile: ClientProfile, folders: list[str], send: Callable[[list[types.FileEvent]], None]
) -> VSCodeWatching | SilentWatching:
    """The emulated watching of ``profile`` for a client of ``folders``."""
    if profile.watching == "vscode":
        return VSCodeWatching([os.path.normpath(f) for f in folders], send)
    return SilentWatching()


# --------------------------------------------------------------------------- completion


def neovim_shown(items: Iterable[types.CompletionItem], line: str, cursor: int) -> list[str]:
    """The labels Neovim 0.11's completion shows for ``items`` answered at column
    ``cursor`` of ``line`` (``completeopt`` without ``fuzzy``, ``ignorecase`` off), as
    ``runtime/lua/vim/lsp/completion.lua`` at v0.11.0 filters them
    (``_lsp_to_complete_items``): the prefix runs from the items' edit start to the cursor;
    an item with ``filterText`` is shown when it starts with the prefix, one with a text
    edit but no ``filterText`` always ("server took care of filtering"), any other when
    its label starts with the prefix; with no word character in the prefix, all are."""
    items = list(items)
    starts = [
        edit.range.start.character
        if isinstance(edit, types.TextEdit)
        else edit.insert.start.character
        for item in items
        if (edit := item.text_edit) is not None
    ]
    boundary = min(starts) if starts else cursor
    prefix = line[boundary:cursor]
    if not re.search(r"\w", prefix):
        return [item.label for item in items]
    shown = []
    for item in items:
        if item.filter_text is not None:
            keep = item.filter_text.startswith(prefix)
        elif item.text_edit is not None:
            keep = True
        else:
            keep = item.label.startswith(prefix)
        if keep:
            shown.append(item.label)
    return shown
