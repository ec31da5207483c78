"""The log of ``skilldeck mcp --http`` when the process runs out of file descriptors:
asyncio's accept loop reports each failed ``accept`` (up to the listen backlog, again
every second) through the loop's exception handler; the server makes each a line
without a traceback and lets a few through per window."""

from __future__ import annotations

import asyncio
import logging

from skilldeck.mcp.http_connections import LogBudget, accept_errors_logged_briefly

ACCEPT_FAILED = "socket.accept() out of system resource"


def _failed_accept(loop):
    loop.call_exception_handler(
        {"message": ACCEPT_FAILED, "exception": OSError(24, "Too many open files")}
    )


async def test_failed_accepts_are_a_few_lines_without_traceback(caplog):
    loop = asyncio.get_running_loop()
    others = []
    loop.set_exception_handler(lambda loop, context: others.append(context["message"]))
    caplog.set_level(logging.WARNING)
    try:
        with accept_errors_logged_briefly(loop):
            for _ in range(2048):  # one listen backlog's worth, as asyncio reports it
                _failed_accept(loop)
            loop.call_exception_handler({"message": "something else"})
        _failed_accept(loop)  # outside: the previous handler again
    finally:
        loop.set_exception_handler(None)
    lines = [record for record in caplog.records if record.name.startswith("skilldeck")]
    assert [record.getMessage() for record in lines] == [
        "cannot accept a connection: [Errno 24] Too many open files (retried in a second)"
    ] * 5
    assert all(record.exc_info is None for record in lines)
    assert others == ["something else", ACCEPT_FAILED]


def test_a_log_budget_holds_back_what_exceeds_it_and_says_so():
    now = [0.0]
    budget = LogBudget(burst=2, window_s=10.0, clock=lambda: now[0])

    def passes(text):
        return budget.filter(logging.LogRecord("x", logging.WARNING, __file__, 1, text, (), None))

    assert [passes(f"line {index}") for index in range(5)] == [True, True, False, False, False]
    now[0] = 9.9
    assert not passes("still held")
    now[0] = 10.0
    record = logging.LogRecord("x", logging.WARNING, __file__, 1, "again: %s", ("x",), None)
    assert budget.filter(record)
    assert record.getMessage() == "again: x (4 similar messages held back)"
    assert passes("one more")
    assert not passes("over again")
