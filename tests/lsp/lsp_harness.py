"""Helpers for language-server tests: workspace builder, capability sets, waiting.

The fixtures using them (``deck``, ``start_server``) are in ``conftest.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.uris import from_fs_path
from pytest_lsp import LanguageClient

SERVER_COMMAND = [sys.executable, "-m", "skilldeck.lsp"]

#: Seconds an awaited event may take before a test calls it a hang. The waits return
#: as soon as the event happens, so this only bounds a failure: generous, because a
#: loaded machine (a CI runner, two cores shared by several suites) starts a server
#: and indexes a small deck in well under a second idle but in tens of seconds at worst
#: (at a load average of 20-27 on 2 cores, the parity test's re-read took over 60 s).
HANG_S = 120.0


def skill_text(name: str, description: str = "Does a thing.", *, extra: str = "") -> str:
    """A SKILL.md with a frontmatter naming ``name``."""
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\n\n# {name}\n\nBody.\n"


@dataclass
class Deck:
    """A layered workspace: project roots, user roots and a custom dir under tmp_path."""

    base: Path
    project: Path = field(init=False)
    dsh_home: Path = field(init=False)
    agents_home: Path = field(init=False)

    def __post_init__(self) -> None:
        self.project = self.base / "project"
        (self.project / ".git").mkdir(parents=True)
        self.dsh_home = self.base / "home" / ".dsh"
        self.agents_home = self.base / "home" / ".agents"

    @property
    def project_dsh(self) -> Path:
        return self.project / ".dsh" / "skills"

    @property
    def project_agents(self) -> Path:
        return self.project / ".agents" / "skills"

    @property
    def user_dsh(self) -> Path:
        return self.dsh_home / "skills"

    @property
    def user_agents(self) -> Path:
        return self.agents_home / "skills"

    def write(self, root: Path, name: str, text: str | None = None, *, flat: bool = False) -> Path:
        """Write a skill (bundle unless ``flat``) and return its file path."""
        path = root / f"{name}.md" if flat else root / name / "SKILL.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(skill_text(name) if text is None else text, encoding="utf-8")
        return path

    def env(self) -> dict[str, str]:
        """Environment for the server process (user roots inside tmp_path)."""
        env = dict(os.environ)
        env["DSH_HOME"] = str(self.dsh_home)
        env["DSH_AGENTS_HOME"] = str(self.agents_home)
        env["HOME"] = str(self.base / "home")
        env.pop("DSH_BUNDLED_SKILL_DIR", None)
        return env


def uri(path: Path | str) -> str:
    """The file URI of ``path``."""
    result = from_fs_path(str(path))
    assert result is not None
    return result


def push_capabilities() -> types.ClientCapabilities:
    """A client that receives pushed diagnostics and answers workspace/configuration."""
    return types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(configuration=True),
        window=types.WindowClientCapabilities(work_done_progress=True),
        text_document=types.TextDocumentClientCapabilities(
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                related_information=True, code_description_support=True, data_support=True
            )
        ),
    )


def pull_capabilities() -> types.ClientCapabilities:
    """A client that pulls diagnostics (textDocument/diagnostic, workspace/diagnostic)."""
    return types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            configuration=True,
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True),
        ),
        text_document=types.TextDocumentClientCapabilities(
            diagnostic=types.DiagnosticClientCapabilities(related_document_support=True)
        ),
    )


StartServer = Callable[..., Awaitable[LanguageClient]]


def catalog_changes(client: LanguageClient) -> list[Any]:
    """Every ``skilldeck/catalogChanged`` notification the client received so far."""
    changes: list[Any] = getattr(client, "skilldeck_catalog_changes")  # noqa: B009
    return changes


async def wait_for(
    condition: Callable[[], Any], *, timeout: float = HANG_S, what: str = "condition"
) -> Any:
    """Poll ``condition`` until it returns something truthy (then return it)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def wait_until(
    check: Callable[[], Awaitable[Any]], *, timeout: float = HANG_S, what: str = "condition"
) -> Any:
    """Await ``check`` (requests to the server, answered as it is now) until it returns
    something truthy (then return it); fail after ``timeout`` (a hang, not a clock: a
    loaded machine only makes it slower)."""
    deadline = time.monotonic() + timeout
    while True:
        value = await check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}; last: {value!r}")
        await asyncio.sleep(0.02)


async def diagnostics_of(
    client: LanguageClient,
    path: Path,
    predicate: Callable[[list[types.Diagnostic]], bool],
    *,
    timeout: float = HANG_S,
) -> list[types.Diagnostic]:
    """Wait until the pushed diagnostics of ``path`` satisfy ``predicate``."""
    target = uri(path)

    def check() -> tuple[list[types.Diagnostic]] | None:
        if target not in client.diagnostics:
            return None
        found = list(client.diagnostics[target])
        return (found,) if predicate(found) else None

    try:
        result = await wait_for(check, timeout=timeout)
        return list(result[0])
    except AssertionError:
        raise AssertionError(
            f"diagnostics of {path} never matched; last: {client.diagnostics.get(target)}"
        ) from None


def pulls(client: LanguageClient) -> bool:
    """Whether the server chose pull diagnostics for this client (it registered
    ``textDocument/diagnostic`` in its ``initialize`` answer)."""
    capabilities = getattr(client, "skilldeck_server_capabilities", None)
    return capabilities is not None and capabilities.diagnostic_provider is not None


async def seen_diagnostics(
    client: LanguageClient,
    path: Path,
    predicate: Callable[[list[types.Diagnostic]], bool],
    *,
    timeout: float = HANG_S,
) -> list[types.Diagnostic]:
    """Wait until the diagnostics of ``path`` satisfy ``predicate``, as the client gets
    them: pushed, or pulled (``textDocument/diagnostic``, as a pull client asks again
    when told to refresh or when it shows the file) when the server chose pull."""
    if not pulls(client):
        return await diagnostics_of(client, path, predicate, timeout=timeout)
    deadline = time.monotonic() + timeout
    last: list[types.Diagnostic] = []
    while True:
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri(path)))
        )
        last = list(getattr(report, "items", []) or [])
        if predicate(last):
            return last
        if time.monotonic() > deadline:
            raise AssertionError(f"pulled diagnostics of {path} never matched; last: {last}")
        await asyncio.sleep(0.05)


def codes(diagnostics: list[types.Diagnostic]) -> list[str]:
    """The diagnostic codes, sorted."""
    return sorted(str(d.code) for d in diagnostics)


async def indexed(client: LanguageClient, *, timeout: float = HANG_S) -> None:
    """Wait for the first ``skilldeck/catalogChanged`` (sent once the first index is applied)."""
    await wait_for(lambda: catalog_changes(client), timeout=timeout, what="the first index")


def overlap_builds(client: LanguageClient) -> list[str]:
    """The log lines of the routing-overlap builds the server finished. Each follows the
    build's diagnostics: after the first one, a server whose disk and buffers stay as
    they are publishes nothing more."""
    return [
        m.message for m in client.log_messages if m.message.startswith("skilldeck: routing overlap")
    ]


def watching(client: LanguageClient, root: Path) -> bool:
    """Whether the server said its own watch of ``root`` is live (``window/logMessage``;
    from then on a change in ``root`` or directly in a bundle folder of it is seen)."""
    said = f"skilldeck: watching {root} ("
    return any(m.message.startswith(said) for m in client.log_messages)


def plain(value: Any) -> Any:
    """pygls turns unknown methods' JSON objects into namedtuples; give back dicts."""
    if hasattr(value, "_asdict"):
        return {key: plain(item) for key, item in value._asdict().items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    return value


async def request(client: LanguageClient, method: str, params: Any) -> Any:
    """Send a custom request (e.g. ``skilldeck/catalog``); the result as plain JSON values."""
    return plain(await client.protocol.send_request_async(method, params))


async def raw_request(client: LanguageClient, method: str, params: Any, *, msg_id: str) -> Any:
    """Send a request whose params bypass the client's type checks (to test bad input)."""
    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    client.protocol._request_futures[msg_id] = future  # the client routes the answer here
    body = json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
    data = f"Content-Length: {len(body.encode())}\r\n\r\n{body}".encode()
    writer = client.protocol.writer
    assert writer is not None
    writer.write(data)
    return plain(await asyncio.wait_for(future, HANG_S))


async def stop_client(client: LanguageClient) -> None:
    """Shut the server down politely; close its stdin if it does not go; kill as a last resort."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(client.shutdown_session(), 10)
    process = client._server
    if process is not None and process.returncode is None:
        if process.stdin is not None:
            process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), 5)
        except TimeoutError:
            process.kill()
            await process.wait()
    await asyncio.wait_for(client.stop(), 5)
