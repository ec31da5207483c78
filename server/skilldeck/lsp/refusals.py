"""Requests the server declines on purpose: the user's answer, not a server fault.

A :class:`RequestRefused` is answered as a JSON-RPC error (``RequestFailed``, -32803)
whose message says why and what to do; the server logs it at info level without a
traceback (:meth:`~skilldeck.lsp.server.SkilldeckServer.report_server_error`).
"""

from __future__ import annotations

from pygls.exceptions import JsonRpcException

#: LSP ``RequestFailed``: the request was valid but could not be carried out.
REQUEST_FAILED = -32803


class RequestRefused(JsonRpcException):
    """A request the server will not carry out; the message says why and what to do."""

    CODE = REQUEST_FAILED
