"""The client's ``skilldeck`` settings, kept current: ``initializationOptions`` first,
then ``workspace/configuration`` (re-read on ``didChangeConfiguration``), and the
configuration of each folder they produce (environment, project file, editor settings).
Tests: ``tests/lsp/test_settings_fetch.py``, ``tests/lsp/test_settings_precedence.py``.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from skilldeck.engine.config import (
    ConfigError,
    SkilldeckConfig,
    find_config_file,
    load_config_file_keeping_valid,
)
from skilldeck.engine.filesystem import find_project_root
from skilldeck.engine.rules import rule
from skilldeck.engine.text import Position, Span
from skilldeck.lsp.diagnostics import SOURCE, docs_url, uri_of
from skilldeck.lsp.settings import ParsedSettings, anchored, parse_settings

if TYPE_CHECKING:
    from skilldeck.lsp.server import SkilldeckServer

#: How long the server waits for the client to answer ``workspace/configuration``.
CONFIGURATION_TIMEOUT_S = 2.0


class SettingsSync:
    """The settings the client sent, and each folder's configuration from them."""

    def __init__(self, server: SkilldeckServer) -> None:
        self.server = server
        self.settings = ParsedSettings()
        #: Whether the client answers ``workspace/configuration``.
        self.supported = False
        #: Each project root's configuration from its file, as last read without a
        #: fatal error (what a file that stopped being TOML keeps).
        self._last_good: dict[str, SkilldeckConfig] = {}
        #: SD008 diagnostics per config file URI: to publish (``config_for`` runs in a
        #: worker thread; :meth:`publish_config_problems` sends them from the loop).
        self._problems: dict[str, list[types.Diagnostic]] = {}
        self._published: dict[str, list[types.Diagnostic]] = {}
        #: Folder -> the configuration of a file there outside every workspace folder,
        #: made from :attr:`settings` (the second item); one object per folder while the
        #: settings last, so a verdict memoised on it stays valid.
        self._outside: dict[str, tuple[ParsedSettings, SkilldeckConfig]] = {}

    def initialize(self, params: types.InitializeParams) -> None:
        """Settings from ``initializationOptions``; whether the client can be asked."""
        workspace = params.capabilities.workspace
        self.supported = bool(workspace and workspace.configuration)
        options = params.initialization_options
        raw = options.get("skilldeck", options) if isinstance(options, dict) else options
        self.apply(parse_settings(raw))

    def apply(self, parsed: ParsedSettings) -> None:
        """Use ``parsed``; each rejected value is shown to the user once."""
        self.settings = parsed
        for warning in parsed.warnings:
            self.server.warn_user(warning)

    async def fetch(self) -> None:
        """Ask the client for the ``skilldeck`` section; keep the settings on any failure.

        A client that does not answer within :data:`CONFIGURATION_TIMEOUT_S`, answers
        with an error, or answers with something other than a list of one value keeps
        the settings already known (``initializationOptions`` or the defaults); a
        warning is logged.
        """
        if not self.supported:
            return
        keeping = "keeping the initialization options or defaults"
        request: asyncio.Future[Any] = asyncio.ensure_future(
            self.server.protocol.send_request_async(
                types.WORKSPACE_CONFIGURATION,
                types.ConfigurationParams(items=[types.ConfigurationItem(section="skilldeck")]),
            )
        )
        # Not wait_for: cancelling the request would make a late answer an error in pygls.
        request.add_done_callback(_retrieve)
        done, _ = await asyncio.wait({request}, timeout=CONFIGURATION_TIMEOUT_S)
        if not done:
            self.server.log(
                f"skilldeck: workspace/configuration got no answer within "
                f"{CONFIGURATION_TIMEOUT_S:g} s; {keeping}.",
                types.MessageType.Warning,
            )
            return
        try:
            result: Any = _json_value(request.result())
        except Exception as error:  # a client that cannot answer keeps the old settings
            self.server.log(
                f"skilldeck: workspace/configuration failed: {error}; {keeping}.",
                types.MessageType.Warning,
            )
            return
        if not isinstance(result, list) or len(result) != 1:
            self.server.log(
                "skilldeck: workspace/configuration answered "
                f"{_shorten(result)} instead of a list of one value; {keeping}.",
                types.MessageType.Warning,
            )
            return
        if result[0] is not None:
            self.apply(parse_settings(result[0]))

    async def changed(self, params: types.DidChangeConfigurationParams) -> None:
        """``didChangeConfiguration``: re-read the settings (the caller re-indexes)."""
        raw = params.settings
        if self.supported:
            await self.fetch()
        elif isinstance(raw, dict):
            self.apply(parse_settings(raw.get("skilldeck", raw)))

    def config_for(self, folder: str) -> SkilldeckConfig:
        """Environment, then the project's config file, then editor settings (blocking).

        A bad key of the config file is left out and shown at the key (SD008); the rest
        of the file applies. A file that cannot be read as TOML keeps the last good
        configuration of its project (the defaults if there was none).
        """
        base = SkilldeckConfig.from_environment()
        layer = anchored(self.settings.layer, folder)
        root = str(find_project_root(folder))
        file = find_config_file(root)
        if file is None:
            self._last_good.pop(root, None)
            return base.merged(layer)
        errors: tuple[ConfigError, ...]
        try:
            file_layer, errors = load_config_file_keeping_valid(file)
            from_file = replace(base.merged(file_layer), config_file=str(file))
            self._last_good[root] = from_file
            kept = "left out; the rest of the file applies"
        except ConfigError as error:
            errors = (error,)
            last = self._last_good.get(root)
            from_file = last if last is not None else base
            kept = (
                "the last good configuration of this file applies"
                if last is not None
                else "the defaults apply"
            )
        self._problems[uri_of(str(file))] = [_config_diagnostic(file, e, kept) for e in errors]
        for problem in errors:
            self.server.log(f"skilldeck: {problem}; {kept}.", types.MessageType.Warning)
        try:
            return from_file.merged(layer)
        except ConfigError as clash:  # the editor's settings clash with the file
            self.server.log(
                f"skilldeck: {clash}; using the file without them.", types.MessageType.Warning
            )
            return from_file

    def config_outside_folders(self, folder: str) -> SkilldeckConfig:
        """The configuration of a file in ``folder`` that no workspace folder holds:
        environment, then the editor settings (their relative paths anchored at
        ``folder``). No project file is read: the user opened no project there, and the
        editor's settings (a profile, severities) are what they chose for every file."""
        made = self._outside.get(folder)
        if made is not None and made[0] is self.settings:
            return made[1]
        config = SkilldeckConfig.from_environment()
        try:
            config = config.merged(anchored(self.settings.layer, folder))
        except ConfigError as clash:  # the editor's settings clash with the environment
            self.server.log(f"skilldeck: {clash}; using the defaults.", types.MessageType.Warning)
        self._outside[folder] = (self.settings, config)
        return config

    def publish_config_problems(self) -> None:
        """Publish the config files' SD008 diagnostics that changed (and clear fixed ones)."""
        problems, self._problems = self._problems, {}
        for uri, diagnostics in problems.items():
            if self._published.get(uri, []) == diagnostics:
                continue
            self._published[uri] = diagnostics
            self.server.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics)
            )


#: Where tomllib says a syntax error is.
_TOML_AT = re.compile(r"\(at line (\d+), column (\d+)\)")


def _config_diagnostic(file: Path, error: ConfigError, kept: str) -> types.Diagnostic:
    """SD008 at the bad key of ``file`` (its first line when the key is not found)."""
    try:
        lines = file.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError):
        lines = []
    problem = str(error).removeprefix(f"{file}: ")
    line, start, end = _key_location(lines, error.key, str(error))
    finding = rule("SD008").finding(_span(line, start, end), problem=problem, kept=kept)
    href = docs_url("SD008")
    return types.Diagnostic(
        range=types.Range(
            start=types.Position(line=line, character=_utf16(lines, line, start)),
            end=types.Position(line=line, character=_utf16(lines, line, end)),
        ),
        message=finding.message,
        severity=types.DiagnosticSeverity.Warning,
        code="SD008",
        code_description=types.CodeDescription(href=href) if href else None,
        source=SOURCE,
    )


def _key_location(lines: list[str], key: str | None, message: str) -> tuple[int, int, int]:
    """(line, start, end) of the key an error names, or of a TOML syntax error."""
    at = _TOML_AT.search(message)
    if at is not None:
        line = min(int(at.group(1)) - 1, max(len(lines) - 1, 0))
        text = lines[line] if lines else ""
        return line, 0, len(text)
    last = re.split(r"[.\[\]:]\s*", key or "")
    name = next((part for part in reversed(last) if part and not part.isdigit()), "")
    if name:
        written = re.compile(rf"^\s*[\"']?{re.escape(name)}[\"']?\s*=|[\"']{re.escape(name)}[\"']")
        for number, text in enumerate(lines):
            found = written.search(text)
            if found is not None:
                start = text.find(name, found.start())
                return number, start, start + len(name)
    return 0, 0, len(lines[0]) if lines else 0


def _span(line: int, start: int, end: int) -> Span:
    return Span(Position(line, start), Position(line, end))


def _utf16(lines: list[str], line: int, column: int) -> int:
    text = lines[line][:column] if line < len(lines) else ""
    return len(text.encode("utf-16-le")) // 2


def _retrieve(future: asyncio.Future[Any]) -> None:
    """Mark a late request's outcome as seen (no "exception never retrieved" noise)."""
    if not future.cancelled():
        future.exception()


def _json_value(value: Any) -> Any:
    """A raw JSON-RPC value with pygls' ``Object`` namedtuples turned back into dicts."""
    if hasattr(value, "_asdict"):
        return {key: _json_value(item) for key, item in value._asdict().items()}
    if isinstance(value, list):
        return [_json_value(item) for item in value]
    if isinstance(value, dict):
        return {key: _json_value(item) for key, item in value.items()}
    return value


def _shorten(value: Any, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters (for a log line)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
