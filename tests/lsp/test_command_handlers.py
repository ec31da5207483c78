"""The server's ``workspace/executeCommand`` handlers take the arguments every supported
Python gives them: pygls calls ``issubclass(annotation, LanguageServer)`` on a handler's
first parameter, and ``typing.Any`` is no class before Python 3.11, so a handler
annotated ``Any`` answered VS Code's ``arguments: []`` with "Invalid Params" on 3.10."""

from __future__ import annotations

import inspect
import typing

from skilldeck.lsp.server import build_server


def test_no_command_handler_parameter_is_annotated_any() -> None:
    server = build_server()
    commands = server.protocol.fm.commands
    assert "skilldeck.sources.update" in commands
    for name, handler in commands.items():
        hints = typing.get_type_hints(inspect.unwrap(handler))
        for parameter in inspect.signature(inspect.unwrap(handler)).parameters:
            hint = hints.get(parameter)
            assert hint is not typing.Any, f"{name}: parameter {parameter!r} is annotated Any"
            assert hint is None or inspect.isclass(hint) or typing.get_origin(hint), name
