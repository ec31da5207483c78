"""The language server as the VS Code extension bundles it: pure Python, without libyaml,
orjson, PyStemmer, watchfiles or the MCP SDK (``benchmarks/pure_python.py serve`` refuses
them at import). It serves the same diagnostics; the client watches every root, user
roots outside the workspace too; an mcp source it cannot run is left out with a warning.
"""

from __future__ import annotations

import sys
from pathlib import Path

from lsp_harness import Deck, StartServer, codes, diagnostics_of, indexed
from lsprotocol import types

PURE_SERVER = [
    sys.executable,
    str(Path(__file__).resolve().parents[2] / "benchmarks" / "pure_python.py"),
    "serve",
]
WATCHING = types.ClientCapabilities(
    workspace=types.WorkspaceClientCapabilities(
        did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(
            dynamic_registration=True
        )
    )
)


async def test_without_watchfiles_the_client_watches_the_user_roots_too(
    deck: Deck, start_server: StartServer
) -> None:
    broken = deck.write(deck.project_dsh, "broken", "---\nname: broken\n---\n")
    deck.write(deck.user_dsh, "mine")
    client = await start_server(capabilities=WATCHING, command=PURE_SERVER)
    await indexed(client)

    assert codes(await diagnostics_of(client, broken, bool)) == ["SD204"]
    (registration,) = getattr(client, "skilldeck_registrations")  # noqa: B009
    globs = [w["globPattern"] for w in registration.register_options["watchers"]]
    assert f"{deck.project_dsh}/*/SKILL.md" in globs
    assert f"{deck.user_dsh}/*/SKILL.md" in globs  # outside the workspace folder

    # A file created in the user root reaches the server through the client's watcher.
    outside = deck.write(deck.user_dsh, "home-made", "---\nname: home-made\n---\n")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=outside.as_uri(), type=types.FileChangeType.Created)]
        )
    )
    assert codes(await diagnostics_of(client, outside, bool)) == ["SD204"]


async def test_an_mcp_source_without_the_sdk_is_left_out_and_said(
    deck: Deck, start_server: StartServer
) -> None:
    (deck.project / "skilldeck.toml").write_text(
        '[[sources]]\nname = "remote"\ntype = "mcp"\ncommand = ["skilldeck", "mcp"]\n',
        encoding="utf-8",
    )
    broken = deck.write(deck.project_dsh, "broken", "---\nname: broken\n---\n")
    client = await start_server(command=PURE_SERVER)

    assert codes(await diagnostics_of(client, broken, bool)) == ["SD204"]
    warnings = [m.message for m in client.log_messages if m.type == types.MessageType.Warning]
    assert any("skilldeck.importStrategy to fromEnvironment" in w for w in warnings), warnings
