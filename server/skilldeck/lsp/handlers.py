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
