"""What a pull-mode editor costs the server at steady state: VS Code's language client
re-pulls ``workspace/diagnostic`` every two seconds for as long as it runs.

    .venv/bin/python benchmarks/bench_pull.py DEST [--pulls N]

Starts ``python -m skilldeck serve`` on the corpus in ``DEST`` with a client that pulls
diagnostics, then times (wall, client side) and sizes (items, bytes of JSON) three kinds
of ``workspace/diagnostic`` request:

- ``first``: the first pull, which also waits for the index (the routing-overlap
  findings may come later: the server builds them after the scan is served and then asks
  the client to pull again with ``workspace/diagnostic/refresh``, which this client
  answers as VS Code does);
- ``full``: a pull without previous result ids (what every pull cost before result ids),
  once the server has settled (no refresh asked for 0.5 s);
- ``steady``: a pull with the result ids of the previous one, nothing changed meanwhile
  (what every two-second pull costs now); median of ``--pulls`` runs.
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
from pygls.lsp.client import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import Corpus, load


def _size(report: types.WorkspaceDiagnosticReport, client: LanguageClient) -> int:
    return len(json.dumps(client.protocol._converter.unstructure(report)))


async def bench_pull(corpus: Corpus, *, pulls: int = 5) -> dict[str, object]:
    """Measure the three kinds of pull on ``corpus`` (see the module doc)."""
    settings: dict[str, Any] = {
        "customSkillDirs": list(corpus.custom_dirs),
        "includeUserRoots": True,
    }
    client = LanguageClient("bench-pull", "1")

    @client.feature(types.WORKSPACE_CONFIGURATION)
    def on_configuration(params: types.ConfigurationParams) -> list[Any]:
        return [settings for _ in params.items]

    refreshed: list[float] = []

    @client.feature(types.WORKSPACE_DIAGNOSTIC_REFRESH)
    def on_refresh(params: None) -> None:
        refreshed.append(time.monotonic())

    async def settled(quiet: float = 0.5, limit: float = 60.0) -> None:
        """Until the server has asked for no refresh for ``quiet`` seconds."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            last = refreshed[-1] if refreshed else 0.0
            if time.monotonic() - last >= quiet:
                await asyncio.sleep(quiet)
                if (refreshed[-1] if refreshed else 0.0) == last:
                    return
            await asyncio.sleep(0.05)

    env = corpus.process_env()
    with tempfile.TemporaryDirectory(prefix="skilldeck-bench-pull-cache-") as cache:
        env["SKILLDECK_CACHE_DIR"] = cache
        argv = (sys.executable, "-m", "skilldeck", "serve", "--cwd", corpus.cwd)
        await client.start_io(argv[0], *argv[1:], env=env, cwd=corpus.cwd)
        folder = Path(corpus.cwd).as_uri()
        await client.initialize_async(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(
                    workspace=types.WorkspaceClientCapabilities(
                        configuration=True,
                        diagnostics=types.DiagnosticWorkspaceClientCapabilities(
                            refresh_support=True
                        ),
                    ),
                    text_document=types.TextDocumentClientCapabilities(
                        diagnostic=types.DiagnosticClientCapabilities(related_document_support=True)
                    ),
                ),
                process_id=os.getpid(),
                root_uri=folder,
                workspace_folders=[types.WorkspaceFolder(uri=folder, name="project")],
                initialization_options={"skilldeck": settings},
            )
        )
        client.initialized(types.InitializedParams())
        result: dict[str, object] = {}

        async def pull(previous: list[types.PreviousResultId]) -> tuple[float, Any]:
            start = time.perf_counter()
            report = await client.workspace_diagnostic_async(
                types.WorkspaceDiagnosticParams(previous_result_ids=previous)
            )
            return time.perf_counter() - start, report

        seconds, first = await pull([])
        result["first"] = {"s": seconds, "items": len(first.items), "bytes": _size(first, client)}
        await settled()
        full_times = []
        for _ in range(pulls):
            seconds, full = await pull([])
            full_times.append(seconds)
        result["full"] = {
            "median_s": statistics.median(full_times),
            "items": len(full.items),
            "bytes": _size(full, client),
        }
        previous = [
            types.PreviousResultId(uri=item.uri, value=item.result_id or "") for item in full.items
        ]
        steady_times = []
        for _ in range(pulls):
            seconds, steady = await pull(previous)
            steady_times.append(seconds)
        result["steady"] = {
            "median_s": statistics.median(steady_times),
            "items": len(steady.items),
            "bytes": _size(steady, client),
        }
        await client.shutdown_async(None)
        client.exit(None)
        await asyncio.sleep(0.2)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    """Print the pull figures of one corpus as JSON."""
    parser = argparse.ArgumentParser(description="workspace/diagnostic pull costs")
    parser.add_argument("corpus", help="a folder made by benchmarks/corpus.py")
    parser.add_argument("--pulls", type=int, default=5, help="pulls per kind (median)")
    args = parser.parse_args(argv)
    corpus = load(args.corpus)
    if corpus is None:
        parser.error(f"no corpus manifest in {args.corpus}")
    print(json.dumps(asyncio.run(bench_pull(corpus, pulls=args.pulls)), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
