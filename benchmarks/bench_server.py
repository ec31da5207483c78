"""The language server on one corpus, driven over stdio by pygls's client like an editor.

Figures:

- ``initialize``: spawn + ``initialize`` round trip (interpreter start and imports);
- ``index``: from sending ``initialized`` to the server's work-done progress ``end``
  (the server reports indexing as progress when the client supports it);
- ``rss``: the server's resident memory right after indexing and once idle;
- ``did_change``: ``textDocument/didChange`` -> the ``publishDiagnostics`` carrying that
  document version, for the corpus's probe skill (a project skill that shadows others),
  alternating an edit in the description and one in the body, one keystroke every
  ``gap`` seconds (so background work between keystrokes is part of the picture);
- ``completion`` (a new frontmatter line, a ``/`` mention in the body) and ``hover``
  (``name`` value, ``description`` key): request round trips.

With ``--save-every S`` another skill file of the corpus is rewritten on disk every ``S``
seconds while the keystrokes run (a new first sentence in its description; restored at
the end), as when a user saves or a checkout changes files: the server refreshes it and,
once the disk is quiet, builds the folder's routing overlap again. Use it with
``--no-client-watch`` (this client reports no file changes: the server must watch).

``python benchmarks/bench_server.py DEST`` runs it on an existing corpus (``corpus.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.client import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import Corpus, load
from measure import cpu_ns, percentile, rss_kb, settle


def uri_of(path: str) -> str:
    """A ``file://`` URI for an absolute path."""
    return Path(path).as_uri()


@dataclass
class _Watch:
    """What the client has seen from the server, with arrival times."""

    index_done: asyncio.Event = field(default_factory=asyncio.Event)
    index_done_at: float = 0.0
    progress_seen: bool = False
    published: int = 0
    versions: dict[str, dict[int | None, float]] = field(default_factory=dict)
    waiters: dict[tuple[str, int | None], asyncio.Future[float]] = field(default_factory=dict)
    logs: list[str] = field(default_factory=list)

    def diagnostics(self, params: types.PublishDiagnosticsParams) -> None:
        now = time.perf_counter()
        self.published += 1
        self.versions.setdefault(params.uri, {})[params.version] = now
        waiter = self.waiters.pop((params.uri, params.version), None)
        if waiter is not None and not waiter.done():
            waiter.set_result(now)

    def expect(self, uri: str, version: int | None) -> asyncio.Future[float]:
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.waiters[(uri, version)] = future
        return future


def _client(watch: _Watch, settings: dict[str, Any]) -> LanguageClient:
    client = LanguageClient("skilldeck-bench", "0")

    def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
        watch.diagnostics(params)

    def on_create(params: types.WorkDoneProgressCreateParams) -> None:
        return None

    def on_progress(params: types.ProgressParams) -> None:
        value = params.value
        kind = value.get("kind") if isinstance(value, dict) else getattr(value, "kind", None)
        watch.progress_seen = True
        if kind == "end" and not watch.index_done.is_set():
            watch.index_done_at = time.perf_counter()
            watch.index_done.set()

    def on_configuration(params: types.ConfigurationParams) -> list[Any]:
        return [settings for _ in params.items]

    def on_register(params: types.RegistrationParams) -> None:
        return None

    def on_log(params: types.LogMessageParams) -> None:
        watch.logs.append(params.message)

    def on_show(params: types.ShowMessageParams) -> None:
        watch.logs.append(params.message)

    def on_catalog(params: Any) -> None:
        return None

    client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(on_diagnostics)
    client.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)(on_create)
    client.feature(types.PROGRESS)(on_progress)
    client.feature(types.WORKSPACE_CONFIGURATION)(on_configuration)
    client.feature(types.CLIENT_REGISTER_CAPABILITY)(on_register)
    client.feature(types.WINDOW_LOG_MESSAGE)(on_log)
    client.feature(types.WINDOW_SHOW_MESSAGE)(on_show)
    client.feature("skilldeck/catalogChanged")(on_catalog)
    return client


def _capabilities(client_watches: bool = True) -> types.ClientCapabilities:
    return types.ClientCapabilities(
        window=types.WindowClientCapabilities(work_done_progress=True),
        workspace=types.WorkspaceClientCapabilities(
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(
                dynamic_registration=client_watches
            ),
            workspace_folders=True,
        ),
        text_document=types.TextDocumentClientCapabilities(
            synchronization=types.TextDocumentSyncClientCapabilities(),
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                related_information=True, version_support=True
            ),
            completion=types.CompletionClientCapabilities(
                completion_item=types.ClientCompletionItemOptions(snippet_support=True)
            ),
            hover=types.HoverClientCapabilities(
                content_format=[types.MarkupKind.Markdown, types.MarkupKind.PlainText]
            ),
        ),
    )


@dataclass(frozen=True)
class _Probe:
    """Where the benchmark types in the probe skill."""

    text: str
    description_edit: types.Position
    body_edit: types.Position
    name_value: types.Position
    description_key: types.Position
    closing_line: int


def _probe(path: str) -> _Probe:
    text = Path(path).read_text(encoding="utf-8")
    lines = text.split("\n")
    closing = next(i for i in range(1, len(lines)) if lines[i] == "---")
    name_line = next(i for i in range(1, closing) if lines[i].startswith("name:"))
    desc_line = next(i for i in range(1, closing) if lines[i].startswith("description:"))
    line = lines[desc_line]
    if line.rstrip().endswith((">-", "|", ">")):
        edit = types.Position(desc_line + 1, _utf16(lines[desc_line + 1]))
    elif line.endswith(("'", '"')):
        edit = types.Position(desc_line, _utf16(line) - 1)
    else:
        edit = types.Position(desc_line, _utf16(line))
    body_line = next(i for i in range(closing + 1, len(lines)) if lines[i].startswith("#"))
    return _Probe(
        text=text,
        description_edit=edit,
        body_edit=types.Position(body_line, _utf16(lines[body_line])),
        name_value=types.Position(name_line, 8),
        description_key=types.Position(desc_line, 3),
        closing_line=closing,
    )


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _change(
    start: types.Position, end: types.Position, text: str
) -> types.TextDocumentContentChangePartial:
    return types.TextDocumentContentChangePartial(range=types.Range(start, end), text=text)


async def bench_server(
    corpus: Corpus,
    *,
    edits: int = 100,
    queries: int = 100,
    gap_s: float = 0.05,
    timeout_s: float = 300.0,
    server_argv: Sequence[str] | None = None,
    cache_dir: str | None = None,
    extra_settings: dict[str, Any] | None = None,
    idle_s: float = 1.0,
    client_watches: bool = True,
    save_every_s: float | None = None,
    settle_s: float | None = None,
) -> dict[str, object]:
    """Start the server on ``corpus`` and measure (see the module doc).

    ``server_argv`` replaces ``python -m skilldeck serve --cwd CWD`` (to try a patched server).
    ``cache_dir`` becomes the server's ``$SKILLDECK_CACHE_DIR`` (default: a fresh temporary
    folder, so the user's cache is never touched). With ``edits == queries == 0`` only the
    start-up figures are taken. ``idle_s`` is the pause between indexing and opening the
    probe (the idle RSS is taken after it); 0 edits right after indexing, while the
    server's own watches go live. ``client_watches=False`` declares no dynamic
    registration of file watchers, so the server watches every root itself (as for
    editors that cannot), not only those outside the workspace.
    """
    settings: dict[str, Any] = {
        "customSkillDirs": list(corpus.custom_dirs),
        "includeUserRoots": True,
        **(extra_settings or {}),
    }
    watch = _Watch()
    client = _client(watch, settings)
    env = corpus.process_env()
    scratch = None
    if cache_dir is None:
        scratch = tempfile.TemporaryDirectory(prefix="skilldeck-bench-server-cache-")
        cache_dir = scratch.name
    env["SKILLDECK_CACHE_DIR"] = cache_dir
    result: dict[str, object] = {}
    start = time.perf_counter()
    argv = list(server_argv or (sys.executable, "-m", "skilldeck", "serve", "--cwd", corpus.cwd))
    await client.start_io(argv[0], *argv[1:], env=env, cwd=corpus.cwd)
    server = client._server  # the asyncio subprocess pygls started
    assert server is not None
    try:
        await asyncio.wait_for(
            client.initialize_async(
                types.InitializeParams(
                    capabilities=_capabilities(client_watches),
                    process_id=os.getpid(),
                    root_uri=uri_of(corpus.cwd),
                    workspace_folders=[
                        types.WorkspaceFolder(uri=uri_of(corpus.cwd), name="project")
                    ],
                    initialization_options={"skilldeck": settings},
                )
            ),
            timeout_s,
        )
        result["initialize_s"] = time.perf_counter() - start
        sent = time.perf_counter()
        client.initialized(types.InitializedParams())
        await asyncio.wait_for(watch.index_done.wait(), timeout_s)
        result["index_s"] = watch.index_done_at - sent
        result["diagnostics_published_at_index"] = watch.published
        result["rss_after_index_kb"] = rss_kb(server.pid)
        await asyncio.sleep(idle_s)
        if settle_s:
            # Wait for the background work after an index (publishing every file's
            # diagnostics, the overlap build) to finish: the requests below then measure
            # their own work, not the queue behind it.
            result["settle_s"], result["settle_cpu_s"] = await settle(server.pid, settle_s)
        result["rss_idle_kb"] = rss_kb(server.pid)

        if edits == 0 and queries == 0:
            await asyncio.wait_for(client.shutdown_async(None), 30)
            client.exit(None)
            return result

        probe = _probe(corpus.probe)
        uri = uri_of(corpus.probe)
        opened = watch.expect(uri, 1)
        t_open = time.perf_counter()
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                types.TextDocumentItem(uri=uri, language_id="markdown", version=1, text=probe.text)
            )
        )
        result["did_open_s"] = await asyncio.wait_for(opened, timeout_s) - t_open

        latencies: list[float] = []
        edits_cpu = cpu_ns(server.pid)
        version = 1
        stop_saving = asyncio.Event()
        saver = (
            asyncio.ensure_future(_save_repeatedly(_other_skill(corpus), save_every_s, stop_saving))
            if save_every_s
            else None
        )
        for k in range(edits):
            at = probe.description_edit if k % 4 < 2 else probe.body_edit
            if k % 2 == 0:
                change = _change(at, at, "x")
            else:
                change = _change(at, types.Position(at.line, at.character + 1), "")
            version += 1
            waiter = watch.expect(uri, version)
            t0 = time.perf_counter()
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[change],
                )
            )
            latencies.append(await asyncio.wait_for(waiter, timeout_s) - t0)
            await asyncio.sleep(gap_s)
        if saver is not None:
            stop_saving.set()
            result["saves"] = await saver
        result["did_change"] = _summary(latencies)
        if latencies:
            spent = (cpu_ns(server.pid) - edits_cpu) / 1e6 / len(latencies)
            result["did_change"]["server_cpu_ms"] = spent  # type: ignore[index]
        result["did_change_slowest"] = sorted(
            ({"ms": round(lat * 1000, 1), "edit": k} for k, lat in enumerate(latencies)),
            key=lambda row: -row["ms"],
        )[:3]

        # A blank frontmatter line and a "/" mention, for completion.
        closing = probe.closing_line
        version += 1
        slash_line = closing + 2
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[
                    _change(types.Position(closing, 0), types.Position(closing, 0), "\n"),
                    _change(
                        types.Position(slash_line, 0), types.Position(slash_line, 0), "Use /\n"
                    ),
                ],
            )
        )
        await asyncio.sleep(0.3)
        doc = types.TextDocumentIdentifier(uri=uri)
        result["completion_key"] = await _requests(
            queries,
            server.pid,
            lambda: client.text_document_completion_async(
                types.CompletionParams(doc, types.Position(closing, 0))
            ),
        )
        result["completion_mention"] = await _requests(
            queries,
            server.pid,
            lambda: client.text_document_completion_async(
                types.CompletionParams(doc, types.Position(slash_line, 5))
            ),
        )
        result["hover_name"] = await _requests(
            queries,
            server.pid,
            lambda: client.text_document_hover_async(types.HoverParams(doc, probe.name_value)),
        )
        result["hover_description"] = await _requests(
            queries,
            server.pid,
            lambda: client.text_document_hover_async(types.HoverParams(doc, probe.description_key)),
        )
        result["rss_end_kb"] = rss_kb(server.pid)
        result["server_errors"] = [log for log in watch.logs if "error" in log.lower()][:5]
        await asyncio.wait_for(client.shutdown_async(None), 30)
        client.exit(None)
    finally:
        if server.returncode is None:
            try:
                await asyncio.wait_for(server.wait(), 10)
            except asyncio.TimeoutError:
                server.kill()
        await client.stop()  # type: ignore[no-untyped-call]
        if scratch is not None:
            scratch.cleanup()
    return result


def _other_skill(corpus: Corpus) -> Path:
    """A bundle skill of the corpus's project that is not the probe."""
    for path in sorted(Path(corpus.cwd).glob(".dsh/skills/*/SKILL.md")):
        if str(path) != corpus.probe:
            return path
    raise RuntimeError("the corpus has no second project skill")


async def _save_repeatedly(path: Path, every_s: float, stop: asyncio.Event) -> int:
    """Rewrite ``path`` every ``every_s`` seconds (its description gets a new first
    sentence) until ``stop``; the original text is put back. Returns how many saves."""
    original = path.read_text(encoding="utf-8")
    saves = 0
    try:
        while True:
            try:
                await asyncio.wait_for(stop.wait(), every_s)
                return saves
            except asyncio.TimeoutError:
                saves += 1
                path.write_text(_revised(original, f"Revision {saves}."), encoding="utf-8")
    finally:
        path.write_text(original, encoding="utf-8")


def _revised(text: str, sentence: str) -> str:
    """``text`` with ``sentence`` first in its ``description`` (plain, quoted or block)."""
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("description:"))
    value = lines[at][len("description:") :].strip()
    if value[:1] in (">", "|"):
        following = lines[at + 1]
        indent = following[: len(following) - len(following.lstrip())]
        lines.insert(at + 1, indent + sentence)
    elif value[:1] in ("'", '"'):
        lines[at] = f"description: {value[0]}{sentence} {value[1:]}"
    else:
        lines[at] = f"description: {sentence} {value}"
    return "\n".join(lines)


async def _requests(count: int, pid: int, send: Any) -> dict[str, object]:
    """Send a request ``count`` times (after one warm-up) and summarise the round trips,
    with the server's CPU time per request (``server_cpu_ms``: what the answers cost it,
    however busy the machine is)."""
    try:
        first = await asyncio.wait_for(send(), 60)
    except Exception as error:
        return {"supported": False, "error": f"{type(error).__name__}: {error}"[:200]}
    latencies: list[float] = []
    cpu_before = cpu_ns(pid)
    for _ in range(count):
        t0 = time.perf_counter()
        await asyncio.wait_for(send(), 60)
        latencies.append(time.perf_counter() - t0)
    summary = _summary(latencies)
    if count:
        summary["server_cpu_ms"] = (cpu_ns(pid) - cpu_before) / 1e6 / count
    summary["supported"] = first is not None
    summary["items"] = _size(first)
    return summary


def _size(answer: object) -> int | None:
    if isinstance(answer, types.CompletionList):
        return len(answer.items)
    if isinstance(answer, list):
        return len(answer)
    if isinstance(answer, types.Hover):
        contents = answer.contents
        return len(contents.value) if isinstance(contents, types.MarkupContent) else None
    return None


def _summary(latencies: Sequence[float]) -> dict[str, object]:
    return {
        "p50_ms": percentile(latencies, 50) * 1000,
        "p95_ms": percentile(latencies, 95) * 1000,
        "max_ms": max(latencies) * 1000 if latencies else float("nan"),
        "samples": len(latencies),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run on an existing corpus folder and print JSON."""
    parser = argparse.ArgumentParser(description="language server timings on a corpus")
    parser.add_argument("corpus", help="a folder made by benchmarks/corpus.py")
    parser.add_argument("--edits", type=int, default=100)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--gap", type=float, default=0.05, help="seconds between keystrokes")
    parser.add_argument(
        "--server",
        nargs="+",
        default=None,
        help="server command (default: python -m skilldeck serve)",
    )
    parser.add_argument(
        "--idle",
        type=float,
        default=1.0,
        help="seconds between indexing and the first edit (0: edit while watches go live)",
    )
    parser.add_argument(
        "--no-client-watch",
        action="store_true",
        help="declare no file-watcher registration: the server watches every root itself",
    )
    parser.add_argument(
        "--save-every",
        type=float,
        default=None,
        help="rewrite another skill file on disk every S seconds while typing",
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=None,
        metavar="S",
        help="after indexing, wait (at most S seconds) until the server is idle before typing",
    )
    parser.add_argument(
        "--cache-dir",
        default=None,
        metavar="DIR",
        help="the server's $SKILLDECK_CACHE_DIR (default: a fresh temporary folder); run "
        "twice with one DIR to measure an index from a warm cache (the second open)",
    )
    parser.add_argument(
        "--settings", default="{}", help='more skilldeck settings as JSON, e.g. {"rules": {...}}'
    )
    args = parser.parse_args(argv)
    corpus = load(args.corpus)
    if corpus is None:
        parser.error(f"no corpus manifest in {args.corpus}")
    result = asyncio.run(
        bench_server(
            corpus,
            edits=args.edits,
            queries=args.queries,
            gap_s=args.gap,
            server_argv=args.server,
            extra_settings=json.loads(args.settings),
            idle_s=args.idle,
            client_watches=not args.no_client_watch,
            save_every_s=args.save_every,
            settle_s=args.settle,
            cache_dir=args.cache_dir,
        )
    )
    json.dump(result, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
