"""Registering a bound method as a pygls feature handler."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any


def as_handler(method: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A plain function calling ``method`` (pygls tags handlers; bound methods refuse)."""
    if asyncio.iscoroutinefunction(method):

        async def handle_async(params: Any) -> Any:
            return await method(params)

        return handle_async

    def handle(params: Any) -> Any:
        return method(params)

    return handle


def as_notification_handler(method: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """:func:`as_handler` for a notification: one whose work is cancelled (the client
    went away, the server is stopping) just ends. A notification has no answer, and pygls
    would report the cancelled task as an unhandled callback error with a traceback."""
    if not asyncio.iscoroutinefunction(method):
        return as_handler(method)

    async def handle_async(params: Any) -> Any:
        try:
            return await method(params)
        except asyncio.CancelledError:
            return None

    return handle_async
