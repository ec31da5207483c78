"""The skilldeck language server: protocol plumbing only.

This module builds the pygls server, contains failures, logs to the client and starts
the transport. What the server *knows* lives in :mod:`skilldeck.lsp.session` (the index
of every workspace folder); what it *offers* lives in one module per capability, listed
in :mod:`skilldeck.lsp.features`.
"""

from __future__ import annotations

import logging
import traceback
from typing import Any

from lsprotocol import types
from pygls.exceptions import (
    FeatureNotificationError,
    FeatureRequestError,
    JsonRpcException,
    JsonRpcInvalidParams,
)
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from skilldeck import __version__

logger = logging.getLogger(__name__)


class SkilldeckProtocol(LanguageServerProtocol):
    """LSP protocol that answers a request whose params cannot be read.

    pygls drops such a request silently, which leaves the client waiting forever; we
    answer it with ``InvalidParams`` and keep serving.
    """

    def structure_message(self, data: dict[str, Any]) -> Any:
        """Deserialize one message; a malformed request gets an error response."""
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            if "id" in data and "method" in data:
                invalid = JsonRpcInvalidParams(
                    message=f"Invalid params for {data.get('method')!r}: {error.__cause__ or error}"
                )
                self._send_response(data["id"], error=invalid.to_response_error())
            raise


class SkilldeckServer(LanguageServer):
    """pygls server named ``skilldeck``; ``session`` is set by :func:`build_server`."""

    def __init__(self) -> None:
        super().__init__(
            "skilldeck",
            __version__,
            protocol_cls=SkilldeckProtocol,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
        )
        from skilldeck.lsp.session import Session  # noqa: PLC0415

        self.session = Session(self)

    def log(self, message: str, level: types.MessageType = types.MessageType.Log) -> None:
        """Send ``window/logMessage`` (never raises: the client may be gone)."""
        try:
            self.window_log_message(types.LogMessageParams(type=level, message=message))
        except Exception:  # the transport is closed; nothing left to tell
            logger.debug("could not log to client: %s", message)

    def warn_user(self, message: str) -> None:
        """Show a warning to the user and log it."""
        self.log(message, types.MessageType.Warning)
        try:
            self.window_show_message(
                types.ShowMessageParams(type=types.MessageType.Warning, message=message)
            )
        except Exception:
            logger.debug("could not show message: %s", message)

    def report_server_error(self, error: Exception, source: Any) -> None:
        """Contain a failure: log it to the client; the server keeps serving."""
        detail = "".join(traceback.format_exception(error)).rstrip()
        kind = (
            "request"
            if source is FeatureRequestError
            else ("notification" if source is FeatureNotificationError else "message")
        )
        self.log(f"skilldeck: error handling a {kind}: {detail}", types.MessageType.Error)


def build_server() -> SkilldeckServer:
    """A server with every feature registered (see :mod:`skilldeck.lsp.features`)."""
    from skilldeck.lsp.features import register_all  # noqa: PLC0415

    server = SkilldeckServer()
    server.session.register_core()
    register_all(server)
    return server


def serve(*, tcp: tuple[str, int] | None = None) -> None:
    """Run the language server on stdio (default) or on ``tcp=(host, port)``.

    Returns when the client sends ``exit`` or goes away (end of stdin / closed socket).
    """
    server = build_server()
    try:
        if tcp is None:
            server.start_io()
        else:
            server.start_tcp(*tcp)
    finally:
        server.session.close()
