"""The client's ``skilldeck`` settings, kept current: ``initializationOptions`` first,
then ``workspace/configuration`` (re-read on ``didChangeConfiguration``), and the
configuration of each folder they produce (environment, project file, editor settings).
Tests: ``tests/lsp/test_settings_fetch.py``, ``tests/lsp/test_settings_precedence.py``.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from skilldeck.engine.config import ConfigError, SkilldeckConfig, load_project_config
from skilldeck.engine.roots import find_project_root
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
        """Environment, then the project's config file, then editor settings (blocking)."""
        base = SkilldeckConfig.from_environment()
        layer = anchored(self.settings.layer, folder)
        try:
            return load_project_config(find_project_root(folder), base=base).merged(layer)
        except ConfigError as error:
            self.server.warn_user(f"skilldeck: {error}; using the defaults.")
            return base.merged(layer)


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
