"""Language-server latency: initial index and didChange -> publishDiagnostics.

Generates a corpus in a temp dir (a project with N bundles in ``.dsh/skills`` and a user
root with 1% duplicates), runs ``python -m skilldeck.lsp`` over stdio and prints a table:
initial index time (``initialized`` -> first ``skilldeck/catalogChanged``), edit latency
p50/p95/max over alternating invalid/valid edits of one open skill, ``skilldeck/catalog``
latency, and the server's RSS. Not a test: numbers, not pass/fail.

    .venv/bin/python benchmarks/bench_lsp.py [--sizes 100 10000] [--edits 200]
        [--hosts dsh claude-code codex]   # the editor's skilldeck.hosts setting
        [--settings '{"rules": {"SD801": "off", "SD802": "off"}}']
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lsprotocol import types
from lsprotocol.types import TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS
from pygls.protocol import default_converter
from pygls.uris import from_fs_path
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, LanguageClient, register_lsp_features

BODY = "# Steps\n\n" + "Do the thing carefully and check the result.\n" * 20


def skill(name: str, index: int) -> str:
    return (
        f"---\nname: {name}\ndescription: Skill number {index} for benchmarking the index; "
        f"use it when the task mentions topic {index % 97}.\nmetadata:\n  owner: bench\n---\n\n"
        + BODY
    )


def make_corpus(base: Path, size: int) -> tuple[Path, Path]:
    project = base / "project"
    (project / ".git").mkdir(parents=True)
    root = project / ".dsh" / "skills"
    for index in range(size):
        folder = root / f"skill-{index:05d}"
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(skill(f"skill-{index:05d}", index), encoding="utf-8")
    user = base / "home" / ".agents" / "skills"
    for index in range(0, size, 100):
        folder = user / f"skill-{index:05d}"
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(skill(f"skill-{index:05d}", index), encoding="utf-8")
    return project, root / "skill-00001" / "SKILL.md"


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def server_env(base: Path, **more: str) -> dict[str, str]:
    """The server's environment for a corpus under ``base``: its user roots and home
    there (plus ``more``, e.g. a cache folder)."""
    return dict(
        os.environ,
        DSH_HOME=str(base / "home" / ".dsh"),
        DSH_AGENTS_HOME=str(base / "home" / ".agents"),
        HOME=str(base / "home"),
        **more,
    )


class NameEditProbe:
    """A client that edits the ``name`` line (line 1) of one skill file, ``target``, and
    times each edit until the server publishes the diagnostics of that version; it also
    notes the first ``skilldeck/catalogChanged`` (the index is complete)."""

    def __init__(self, target: Path) -> None:
        self.target = target
        self.uri = from_fs_path(str(target)) or ""
        self.published: dict[int, float] = {}
        self.arrived = asyncio.Event()
        self.catalog_seen = asyncio.Event()
        self.client = LanguageClient(converter_factory=default_converter)
        features = {
            k: v
            for k, v in DEFAULT_CLIENT_FEATURES.items()
            if k != TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS
        }
        register_lsp_features(self.client, features)

        # Plain functions: pygls marks a handler with attributes, which a bound method
        # cannot take.
        @self.client.feature(TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
            if params.uri == self.uri and params.version is not None:
                self.published[params.version] = time.perf_counter()
                self.arrived.set()

        @self.client.feature("skilldeck/catalogChanged")
        def on_catalog(params: Any) -> None:
            self.catalog_seen.set()

    def open(self) -> None:
        """Open the target (version 1) with its text on disk."""
        text = self.target.read_text(encoding="utf-8")
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                types.TextDocumentItem(uri=self.uri, language_id="markdown", version=1, text=text)
            )
        )

    async def edit(self, number: int) -> float:
        """Edit number ``number`` (version ``number + 2``): the name becomes invalid on
        even numbers and valid again on odd ones; milliseconds until its diagnostics."""
        version = number + 2
        line = "name: " + ("Bad_Name" if number % 2 == 0 else "skill-00001")
        self.arrived.clear()
        sent = time.perf_counter()
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=self.uri, version=version),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(types.Position(1, 0), types.Position(2, 0)),
                        text=line + "\n",
                    )
                ],
            )
        )
        while version not in self.published:
            await asyncio.wait_for(self.arrived.wait(), 30)
            self.arrived.clear()
        return (self.published[version] - sent) * 1000


async def run(
    size: int, edits: int, hosts: Sequence[str] = (), extra: dict[str, Any] | None = None
) -> dict[str, Any]:
    extra = extra or {}
    with tempfile.TemporaryDirectory(prefix="skilldeck-bench-") as tmp:
        base = Path(tmp)
        project, target = make_corpus(base, size)
        probe = NameEditProbe(target)
        client = probe.client
        await client.start_io(sys.executable, "-m", "skilldeck.lsp", env=server_env(base))
        await client.initialize_session(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(),
                workspace_folders=[
                    types.WorkspaceFolder(uri=from_fs_path(str(project)) or "", name="project")
                ],
                initialization_options={**({"hosts": list(hosts)} if hosts else {}), **extra}
                or None,
            )
        )
        started = time.perf_counter()
        await asyncio.wait_for(probe.catalog_seen.wait(), 600)
        index_s = time.perf_counter() - started
        assert client._server is not None
        pid = client._server.pid
        rss_indexed = rss_mb(pid)

        probe.open()
        latencies: list[float] = []
        for number in range(edits):
            latencies.append(await probe.edit(number))
            # Simulate typing cadence so edits are separate events, not one burst.
            await asyncio.sleep(0.005)

        sent = time.perf_counter()
        await client.protocol.send_request_async(
            "skilldeck/catalog", {"uri": from_fs_path(str(project))}
        )
        catalog_ms = (time.perf_counter() - sent) * 1000
        rss_final = rss_mb(pid)
        await client.shutdown_session()
        await client.stop()
    latencies.sort()
    return {
        "size": size,
        "index_s": index_s,
        "p50": statistics.median(latencies),
        "p95": latencies[int(len(latencies) * 0.95) - 1],
        "max": latencies[-1],
        "catalog_ms": catalog_ms,
        "rss_indexed": rss_indexed,
        "rss_final": rss_final,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 10_000])
    parser.add_argument("--edits", type=int, default=200)
    parser.add_argument("--hosts", nargs="*", default=[], help="skilldeck.hosts to send")
    parser.add_argument(
        "--settings", default="{}", help='more skilldeck settings as JSON, e.g. {"rules": {...}}'
    )
    args = parser.parse_args()
    extra = json.loads(args.settings)
    rows = [asyncio.run(run(size, args.edits, args.hosts, extra)) for size in args.sizes]
    header = (
        f"{'skills':>7} {'index s':>8} {'edit p50 ms':>12} {'p95 ms':>8} {'max ms':>8} "
        f"{'catalog ms':>11} {'RSS MB idx':>11} {'RSS MB end':>11}"
    )
    print(header)
    print("-" * len(header))
    for r in rows:
        print(
            f"{r['size']:>7} {r['index_s']:>8.2f} {r['p50']:>12.2f} {r['p95']:>8.2f} "
            f"{r['max']:>8.2f} {r['catalog_ms']:>11.1f} {r['rss_indexed']:>11.1f} "
            f"{r['rss_final']:>11.1f}"
        )


if __name__ == "__main__":
    main()
