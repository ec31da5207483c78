"""The skilldeck language server: protocol plumbing only.

This module builds the pygls server, contains failures, logs to the client and starts
the transport. What the server *knows* lives in :mod:`skilldeck.lsp.session` (the index
of every workspace folder); what it *offers* lives in one module per capability, listed
in :mod:`skilldeck.lsp.features`.
"""

from __future__ import annotations

import logging
import sys
import time
import traceback
from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING, Any

from cattrs import transform_error
from cattrs.errors import BaseValidationError
from lsprotocol import types
from pygls.exceptions import (
    FeatureNotificationError,
    FeatureRequestError,
    JsonRpcException,
    JsonRpcInternalError,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcMethodNotFound,
    JsonRpcServerNotInitialized,
)
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import (
    JsonRPCNotification,
    JsonRPCRequestMessage,
    JsonRPCResponseMessage,
)
from pygls.protocol.language_server import lsp_method

from skilldeck import __version__
from skilldeck.lsp.json_result import converter_factory
from skilldeck.lsp.open_documents import OpenDocuments
from skilldeck.lsp.refusals import RequestRefused

if TYPE_CHECKING:
    from skilldeck.engine.registry import ProviderFactory

logger = logging.getLogger(__name__)

#: Requests to the client whose results are read as plain JSON, not lsprotocol types:
#: cattrs would turn a wrong answer into a plausible one (a string into a list of
#: characters, an object into a list of its keys).
RAW_RESULT_METHODS = (types.WORKSPACE_CONFIGURATION,)

#: Notification ``{kind, message}`` sent the first time a handler fails in a new way
#: (an exception that is not a deliberate JSON-RPC error); the client shows it once.
SERVER_ERROR = "skilldeck/serverError"
#: Most ``skilldeck/serverError`` notifications one server sends (distinct kinds).
SERVER_ERROR_NOTICES = 5

#: pygls log records that are routine, not failures: a ``$/cancelRequest`` for a request
#: already answered happens all the time while typing; a method we do not serve is
#: answered ``MethodNotFound`` (and logged to the client by ``report_server_error``).
_ROUTINE_MESSAGES = (
    "Cancel notification for unknown message id",
    "Received response to unknown message id",
    "Failed to handle request %r, unknown method %r",
    "Ignoring notification for unknown method",
)


class RoutineRecordsToDebug(logging.Filter):
    """Lower pygls' routine records to DEBUG, so stderr (the editor's output) stays quiet.

    Also lowers the traceback pygls logs for a deliberate JSON-RPC error (an error the
    handler raised on purpose, answered to the client, e.g. an invalid rename).
    """

    def filter(self, record: logging.LogRecord) -> bool:
        deliberate = (
            record.exc_info is not None
            and isinstance(record.exc_info[1], JsonRpcException)
            and not isinstance(record.exc_info[1], JsonRpcInternalError)
        )
        if deliberate or str(record.msg).startswith(_ROUTINE_MESSAGES):
            record.levelno = logging.DEBUG
            record.levelname = logging.getLevelName(logging.DEBUG)
        return True


def quiet_routine_logs() -> None:
    """Install :class:`RoutineRecordsToDebug` on pygls' JSON-RPC logger (once)."""
    pygls_logger = logging.getLogger("pygls.protocol.json_rpc")
    if not any(isinstance(f, RoutineRecordsToDebug) for f in pygls_logger.filters):
        pygls_logger.addFilter(RoutineRecordsToDebug())


class SkilldeckProtocol(LanguageServerProtocol):
    """LSP protocol that answers a request whose params cannot be read.

    pygls drops such a request silently, which leaves the client waiting forever; we
    answer it with ``InvalidParams`` and keep serving, and log it in one line (pygls
    logs two tracebacks to stderr). A message of a method lsprotocol
    does not know may leave out ``params`` (JSON-RPC makes them optional): it is read
    with ``params: null``, so an unknown request is answered ``MethodNotFound``.

    A response whose result cannot be read as the request's result type is delivered
    as its raw JSON value (the request's type is consumed by the first attempt), so the
    caller never waits forever on it; a ``workspace/configuration`` result is always
    delivered raw (see :data:`RAW_RESULT_METHODS`).

    Open documents' text is the session's own (:class:`~skilldeck.lsp.open_documents.
    OpenDocuments`, edits applied with the LSP line model by :mod:`skilldeck.lsp.text_sync`),
    not pygls' workspace documents. A ``didChange`` older than the version last applied to
    its document (stale or out of order), or for a document that is not open, is ignored
    with a log line.
    """

    #: ``time.monotonic()`` of the last message from the client (0: none yet): bulk work
    #: such as publishing a whole deck's diagnostics yields to a user at work.
    last_message_at = 0.0
    #: Whether ``initialize`` has been received (it is accepted once).
    initialize_received = False

    def _documents(self) -> OpenDocuments | None:
        server = self._server
        return server.session.documents if isinstance(server, SkilldeckServer) else None

    def _user_handler(self, method: str, params: Any) -> Generator[Any, Any, None]:
        handler = self.fm.features.get(method)
        if handler is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(
        self, params: types.DidOpenTextDocumentParams
    ) -> Generator[Any, Any, None]:
        """Remember the buffer, then run the session's handler."""
        documents = self._documents()
        if documents is not None:
            documents.open(params.text_document)
        yield from self._user_handler(types.TEXT_DOCUMENT_DID_OPEN, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(
        self, params: types.DidChangeTextDocumentParams
    ) -> Generator[Any, Any, None]:
        """Apply a change in version order; drop a stale one (logged)."""
        server = self._server
        if not isinstance(server, SkilldeckServer):
            return
        ignored = server.session.documents.change(params, server.session.encoding)
        if ignored is not None:
            self._server_log(f"skilldeck: {ignored}")
            return
        yield from self._user_handler(types.TEXT_DOCUMENT_DID_CHANGE, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(
        self, params: types.DidCloseTextDocumentParams
    ) -> Generator[Any, Any, None]:
        """Forget the buffer, then run the session's handler."""
        documents = self._documents()
        if documents is not None:
            documents.close(params.text_document.uri)
        yield from self._user_handler(types.TEXT_DOCUMENT_DID_CLOSE, params)

    def _raw_result_types(self) -> tuple[Any, ...]:
        return tuple(self.get_result_type(method) for method in RAW_RESULT_METHODS)

    def _server_log(self, message: str) -> None:
        logger.info("%s", message)
        server = self._server
        if isinstance(server, SkilldeckServer):
            server.log(message)

    def structure_message(self, data: dict[str, Any]) -> Any:
        """Deserialize one message; a request whose params cannot be read is answered
        ``InvalidParams`` here, with one log line (see :meth:`_structure_call`)."""
        if not isinstance(data, dict) or "jsonrpc" not in data:
            return data  # a value inside a message (pygls does the same)
        if isinstance(data.get("method"), str):
            return self._structure_call(data)
        if _is_result(data):
            return self._structure_result(data)
        return super().structure_message(data)

    def _structure_call(self, data: dict[str, Any]) -> Any:
        """A request or notification, read as its method's type.

        Params that do not fit are the client's mistake, not a server fault: the request
        is answered ``InvalidParams`` saying which field, the notification is dropped,
        and either is logged in one line (to the client's log, not a traceback on
        stderr: a client that does not drain stderr would stall the server). The message
        is replaced by :data:`UNREADABLE`, which :meth:`handle_message` skips.
        """
        method = data["method"]
        shown = _one_line(method, 100)
        known = self.get_message_type(method)
        if known is None and "params" not in data:
            data = {**data, "params": None}
        message_type = known or (JsonRPCRequestMessage if "id" in data else JsonRPCNotification)
        try:
            return self._converter.structure(data, message_type)
        except _UNFIT as error:
            reason = unreadable_reason(error)
        except Exception as error:  # a fault of ours, not the message's: traceback logged
            logger.exception("skilldeck: cannot read a %s message", shown)
            if "id" in data:
                failure = JsonRpcInternalError(message=f"cannot read the message: {error!r}")
                self._send_response(data["id"], error=failure.to_response_error())
            return UNREADABLE
        if "id" in data:
            self._server_log(
                f"skilldeck: refused request {_one_line(repr(data['id']), 100)} ({shown}): "
                f"invalid params: {reason}"
            )
            invalid = JsonRpcInvalidParams(message=f"Invalid params for {shown!r}: {reason}")
            self._send_response(data["id"], error=invalid.to_response_error())
        else:
            self._server_log(f"skilldeck: ignored a {shown} notification: invalid params: {reason}")
        return UNREADABLE

    def _structure_result(self, data: dict[str, Any]) -> Any:
        """A response to one of our requests, read as that request's result type; a
        result that does not fit (or a ``workspace/configuration`` result, see
        :data:`RAW_RESULT_METHODS`) is delivered as its raw JSON value, so the caller
        never waits forever on it."""
        shown = _one_line(repr(data["id"]), 100)
        result_type = self._result_types.pop(data["id"], None)
        if result_type is not None and result_type not in self._raw_result_types():
            try:
                return self._converter.structure(data, result_type)
            except _UNFIT as error:
                reason = unreadable_reason(error)
                self._server_log(f"skilldeck: unexpected result for request {shown}: {reason}")
        try:
            return self._converter.structure(data, JsonRPCResponseMessage)
        except _UNFIT as error:  # e.g. neither a result nor an error
            self._server_log(f"skilldeck: ignored a response ({shown}): {unreadable_reason(error)}")
            return UNREADABLE

    def handle_message(self, message: Any) -> None:
        """Note when the client last spoke, then handle ``message`` as pygls does (a
        message already answered as unreadable is skipped)."""
        self.last_message_at = time.monotonic()
        if message is UNREADABLE or self._refused_in_lifecycle(message):
            return
        super().handle_message(message)

    def _refused_in_lifecycle(self, message: Any) -> bool:
        """Answer a request the lifecycle does not allow now (LSP "Lifecycle Messages"):
        before ``initialize`` ``ServerNotInitialized``, a second ``initialize`` and
        anything after ``shutdown`` ``InvalidRequest`` (pygls leaves them unanswered or
        fails inside a handler). Such a notification is dropped; ``exit`` always passes.
        True when ``message`` was handled here."""
        method = getattr(message, "method", None)
        if not isinstance(method, str) or method == types.EXIT:
            return False  # a response, or exit
        error: JsonRpcException | None = None
        if self._shutdown:
            error = JsonRpcInvalidRequest(
                message=f"the server is shut down: {_one_line(method, 100)!r} is refused "
                "(only 'exit' is accepted now)"
            )
        elif method == types.INITIALIZE:
            if not self.initialize_received:
                self.initialize_received = True
                return False
            error = JsonRpcInvalidRequest(message="'initialize' was already received")
        elif not self.initialize_received:
            error = JsonRpcServerNotInitialized(
                message=f"{_one_line(method, 100)!r} before 'initialize' is refused"
            )
        if error is None:
            return False
        msg_id = getattr(message, "id", None)
        if msg_id is not None:
            logger.info("skilldeck: refused request %r: %s", msg_id, error.message)
            self._send_response(msg_id, error=error.to_response_error())
        else:
            logger.info("skilldeck: ignored a notification: %s", error.message)
        return True


#: Stands for a message whose params could not be read (already answered and logged).
UNREADABLE = object()
#: What reading a message that does not fit its type raises (cattrs, with detailed
#: validation or without).
_UNFIT = (BaseValidationError, ValueError, TypeError, KeyError)


def unreadable_reason(error: Exception) -> str:
    """What does not fit in a message, in one short line: ``required field missing @
    $.params.position``; at most three problems, then how many more."""
    if isinstance(error, BaseValidationError):
        problems = transform_error(error, path="$")
    else:
        problems = ["".join(traceback.format_exception_only(error)).strip()]
    more = len(problems) - 3
    text = "; ".join(problems[:3]) + (f" (and {more} more)" if more > 0 else "")
    return _one_line(text)


def _one_line(text: str, limit: int = 300) -> str:
    """``text`` on one line, cut to ``limit`` characters (a client chooses its length)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def _is_result(data: Any) -> bool:
    """True for a JSON-RPC success response (an ``id``, no ``method``, no ``error``)."""
    return isinstance(data, dict) and "id" in data and "method" not in data and "error" not in data


class SkilldeckServer(LanguageServer):
    """pygls server named ``skilldeck``; ``session`` is set by :func:`build_server`."""

    def __init__(self) -> None:
        super().__init__(
            "skilldeck",
            __version__,
            protocol_cls=SkilldeckProtocol,
            converter_factory=converter_factory,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
        )
        from skilldeck.lsp.session import Session  # noqa: PLC0415

        self.session = Session(self)
        #: Set by ``exit``; None while the client has not sent it.
        self.exit_status: int | None = None
        #: Kinds of handler failure already announced with ``skilldeck/serverError``.
        self.failures_announced: set[str] = set()
        #: True while :meth:`log` sends (a failed send must not log again).
        self._logging = False

    @property
    def last_client_message_at(self) -> float:
        """``time.monotonic()`` of the client's last message (0: none yet)."""
        protocol = self.protocol
        return protocol.last_message_at if isinstance(protocol, SkilldeckProtocol) else 0.0

    def note_exit(self, params: None) -> None:
        """``exit``: remember the status (0 after ``shutdown``, else 1; LSP spec)."""
        self.exit_status = 0 if getattr(self.protocol, "_shutdown", False) else 1

    def log(self, message: str, level: types.MessageType = types.MessageType.Log) -> None:
        """Send ``window/logMessage`` (never raises: the client may be gone).

        pygls reports a failed send (a closed transport) to :meth:`report_server_error`,
        which logs to the client: that second send is skipped, or every failed send
        would recurse until Python's recursion limit."""
        if self._logging:
            logger.debug("could not log to client: %s", message)
            return
        self._logging = True
        try:
            self.window_log_message(types.LogMessageParams(type=level, message=message))
        except Exception:  # the transport is closed; nothing left to tell
            logger.debug("could not log to client: %s", message)
        finally:
            self._logging = False

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
        """Contain a failure: log it to the client; the server keeps serving.

        A request for a method we do not serve is routine (clients probe), and so is a
        deliberate JSON-RPC error (the handler refused bad input and the client got the
        reason): one log-level line, no traceback. A request refused on purpose
        (:class:`RequestRefused`, e.g. a rename onto a taken name) was answered with its
        reason: one info line, no traceback. Anything else is a bug: its traceback
        is logged as an error and, the first time for its kind (see :func:`failure_kind`),
        ``skilldeck/serverError`` tells the client so it can tell the user once.
        """
        if isinstance(error, JsonRpcMethodNotFound):
            self.log(f"skilldeck: {error}", types.MessageType.Log)
            return
        if isinstance(error, RequestRefused):
            self.log(f"skilldeck: refused: {error.message}", types.MessageType.Info)
            return
        kind = (
            "request"
            if source is FeatureRequestError
            else ("notification" if source is FeatureNotificationError else "message")
        )
        if isinstance(error, JsonRpcException) and not isinstance(error, JsonRpcInternalError):
            self.log(f"skilldeck: answered a {kind} with an error: {error}", types.MessageType.Log)
            return
        detail = failure_detail(error)
        self.log(f"skilldeck: error handling a {kind}: {detail}", types.MessageType.Error)
        key = failure_kind(error)
        if key in self.failures_announced or len(self.failures_announced) >= SERVER_ERROR_NOTICES:
            return
        self.failures_announced.add(key)
        summary = failure_summary(error)
        message = (
            f"skilldeck: internal error handling a {kind}: {summary}. The server keeps "
            "running; the Skilldeck output has the traceback (please report it)."
        )
        try:
            self.protocol.notify(SERVER_ERROR, {"kind": key, "message": message})
        except Exception:  # the transport is closed
            logger.debug("could not announce: %s", message)


def failure_summary(error: Exception) -> str:
    """``ZeroDivisionError: division by zero``: the exception's last line."""
    if isinstance(error, JsonRpcInternalError):
        return str(error)
    return "".join(traceback.format_exception_only(error)).strip()


def failure_detail(error: Exception) -> str:
    """The traceback of a failure (pygls keeps a request's traceback in ``data``)."""
    data = getattr(error, "data", None)
    if isinstance(error, JsonRpcInternalError) and isinstance(data, dict):
        frames = data.get("traceback")
        if isinstance(frames, list):
            stack = "".join(map(str, frames)).rstrip()
            return f"Traceback (most recent call last):\n{stack}\n{error}"
    return "".join(traceback.format_exception(error)).rstrip()


def failure_kind(error: Exception) -> str:
    """What makes two failures "the same": exception type and the innermost frame."""
    summary = failure_summary(error)
    detail = failure_detail(error)
    frames = [line.strip() for line in detail.splitlines() if line.strip().startswith("File ")]
    return f"{summary.split(':', 1)[0]} at {frames[-1] if frames else 'unknown'}"


class _QuietRefusals(logging.Filter):
    """Drop pygls' "Exception occurred" record (with traceback) for a refused request."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, RequestRefused)


def build_server(providers: Sequence[ProviderFactory] = ()) -> SkilldeckServer:
    """A server with every feature registered (see :mod:`skilldeck.lsp.features`).

    ``providers`` join the standard ones in every folder's deck (runtime, remote or
    in-house skill providers: their skills reach the catalog preview and Skills view).
    """
    from skilldeck.lsp.features import register_all  # noqa: PLC0415

    quiet_routine_logs()
    json_rpc_logger = logging.getLogger("pygls.protocol.json_rpc")
    if not any(isinstance(f, _QuietRefusals) for f in json_rpc_logger.filters):
        json_rpc_logger.addFilter(_QuietRefusals())

    server = SkilldeckServer()
    server.session.providers = tuple(providers)
    server.session.register_core()

    @server.feature(types.EXIT)
    def on_exit(params: None) -> None:
        server.note_exit(params)

    register_all(server)
    return server


def serve(*, tcp: tuple[str, int] | None = None, providers: Sequence[ProviderFactory] = ()) -> None:
    """Run the language server on stdio (default) or on ``tcp=(host, port)``.

    ``providers`` are extra skill providers of every folder's deck (see :func:`build_server`).

    Returns when the client goes away (end of stdin / closed socket) or sends ``exit``
    after ``shutdown``; ``exit`` before ``shutdown`` ends the process with status 1.
    """
    server = build_server(providers)
    try:
        if tcp is None:
            server.start_io()
        else:
            server.start_tcp(*tcp)
    finally:
        server.session.close()
    if server.exit_status:
        sys.exit(server.exit_status)
