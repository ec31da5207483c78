"""The language server's cost while the editor idles: CPU and inotify watches (issue #41).

Starts ``python -m skilldeck serve`` on a corpus (``corpus.py`` / ``real_corpus.py``),
announces VS Code's capabilities (vscode-languageclient 11, which offers to watch files:
``tests/lsp/client_capabilities/vscode-1.100.json``), waits for the index and for the
background work after it to end, then measures over an idle window:

- ``idle_cpu_ms``: CPU time the server ran (``/proc/PID/schedstat``);
- ``inotify_watches``: the watches its inotify instances hold (``/proc/PID/fdinfo``);
- ``registered_globs``: the globs it asked the client to watch.

Run it against another tree with ``PYTHONPATH=/old/tree/server`` to compare (the server
before issue #41 left the project's roots to the client and watched only the user roots).

    .venv/bin/python benchmarks/bench_idle.py DEST [--idle 30]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.protocol import default_converter

from bench_server import _client, _Watch, uri_of
from corpus import load
from measure import cpu_ns, settle

VSCODE = (
    Path(__file__).resolve().parents[1]
    / "tests"
    / "lsp"
    / "client_capabilities"
    / "vscode-1.100.json"
)


def inotify_watches(pid: int) -> int:
    """The inotify watches of process ``pid`` (0 when /proc does not say)."""
    count = 0
    fdinfo = Path(f"/proc/{pid}/fdinfo")
    try:
        entries = list(fdinfo.iterdir())
    except OSError:
        return 0
    for entry in entries:
        try:
            count += sum(1 for line in entry.read_text().splitlines() if line.startswith("inotify"))
        except OSError:
            continue
    return count


async def bench_idle(corpus_dir: str, idle_s: float) -> dict[str, Any]:
    corpus = load(corpus_dir)
    settings: dict[str, Any] = {
        "customSkillDirs": list(corpus.custom_dirs),
        "includeUserRoots": True,
    }
    watch = _Watch()
    client = _client(watch, settings)
    globs: list[Any] = []

    def on_register(params: types.RegistrationParams) -> None:
        for registration in params.registrations:
            options = registration.register_options
            watchers = options["watchers"] if isinstance(options, dict) else options.watchers
            globs.extend(watchers)

    # _client answers registrations with nothing: count them here instead.
    client.protocol.fm.features[types.CLIENT_REGISTER_CAPABILITY] = on_register
    raw = json.loads(VSCODE.read_text(encoding="utf-8"))["capabilities"]
    capabilities = default_converter().structure(raw, types.ClientCapabilities)
    env = corpus.process_env()
    with tempfile.TemporaryDirectory(prefix="skilldeck-bench-idle-cache-") as cache:
        env["SKILLDECK_CACHE_DIR"] = cache
        argv = [sys.executable, "-m", "skilldeck", "serve", "--cwd", corpus.cwd]
        await client.start_io(argv[0], *argv[1:], env=env, cwd=corpus.cwd)
        server = client._server
        assert server is not None
        await client.initialize_async(
            types.InitializeParams(
                capabilities=capabilities,
                process_id=os.getpid(),
                root_uri=uri_of(corpus.cwd),
                workspace_folders=[types.WorkspaceFolder(uri=uri_of(corpus.cwd), name="project")],
                initialization_options={"skilldeck": settings},
            )
        )
        client.initialized(types.InitializedParams())
        await asyncio.wait_for(watch.index_done.wait(), 300)
        settled_s, _ = await settle(server.pid, 60)
        before = cpu_ns(server.pid)
        started = time.perf_counter()
        await asyncio.sleep(idle_s)
        elapsed = time.perf_counter() - started
        result = {
            "settle_s": round(settled_s, 2),
            "idle_s": round(elapsed, 2),
            "idle_cpu_ms": round((cpu_ns(server.pid) - before) / 1e6, 2),
            "inotify_watches": inotify_watches(server.pid),
            "registered_globs": len(globs),
        }
        await asyncio.wait_for(client.shutdown_async(None), 30)
        client.exit(None)
        await client.stop()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", help="a corpus folder (corpus.py / real_corpus.py)")
    parser.add_argument("--idle", type=float, default=30.0, help="idle window in seconds")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(bench_idle(args.corpus, args.idle)), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
