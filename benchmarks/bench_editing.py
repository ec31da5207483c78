"""Completion and hover latency on a large deck (issue #7).

Generates a deck in a temp dir (N bundles in the project's ``.dsh/skills``, every 20th
also in the user ``.agents/skills`` so it is shadowed, some with
``disable-model-invocation``), starts ``python -m skilldeck.lsp`` over stdio, opens one
skill and times round trips (request sent -> response received, in the client) for:

- completion of a frontmatter key, of a boolean value, of ``/`` in the body (every
  user-invocable skill of the deck is a candidate) and of ``/skill-0042`` typed further;
- hover on ``name`` (catalog line + shadowing), on ``description`` and on a mention.

Prints p50/p95/max per kind. Not a test: numbers, not pass/fail (target p95 <= 10 ms).

    .venv/bin/python benchmarks/bench_editing.py [--size 10000] [--queries 200]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.protocol import default_converter
from pygls.uris import from_fs_path
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, LanguageClient, register_lsp_features

from bench_lsp import server_env

BODY = "# Steps\n\n" + "Check the input, then run the steps in order.\n" * 30


def skill(name: str, index: int) -> str:
    extra = "disable-model-invocation: true\n" if index % 13 == 0 else ""
    return (
        f"---\nname: {name}\ndescription: Skill {index} of the editing benchmark; use it "
        f"when the task mentions topic {index % 89}.\n{extra}metadata:\n  owner: bench\n---\n\n"
        + BODY
    )


def make_deck(base: Path, size: int) -> tuple[Path, Path]:
    """Write the deck; returns the project folder and the skill file typed into."""
    project = base / "project"
    (project / ".git").mkdir(parents=True)
    roots = [project / ".dsh" / "skills", base / "home" / ".agents" / "skills"]
    for index in range(size):
        name = f"skill-{index:05d}"
        for root in roots[: 2 if index % 20 == 0 else 1]:
            folder = root / name
            folder.mkdir(parents=True)
            (folder / "SKILL.md").write_text(skill(name, index), encoding="utf-8")
    return project, roots[0] / "skill-00021" / "SKILL.md"


def open_doc(client: LanguageClient, path: Path, text: str) -> types.TextDocumentIdentifier:
    """Open ``path`` with ``text`` (unsaved) in the client."""
    uri = from_fs_path(str(path)) or ""
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id="markdown", version=1, text=text)
        )
    )
    return types.TextDocumentIdentifier(uri=uri)


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


async def timed(call: Callable[[], Awaitable[Any]], count: int) -> tuple[list[float], Any]:
    samples: list[float] = []
    result: Any = None
    for _ in range(count):
        started = time.perf_counter()
        result = await call()
        samples.append((time.perf_counter() - started) * 1000)
    return samples, result


async def run(size: int, queries: int) -> list[tuple[str, list[float], str]]:
    with tempfile.TemporaryDirectory(prefix="skilldeck-bench-editing-") as tmp:
        base = Path(tmp)
        project, target = make_deck(base, size)
        indexed = asyncio.Event()

        client = LanguageClient(converter_factory=default_converter)
        register_lsp_features(client, DEFAULT_CLIENT_FEATURES)
        client.feature("skilldeck/catalogChanged")(lambda params: indexed.set())
        env = server_env(base, XDG_CACHE_HOME=str(base / "cache"))
        await client.start_io(sys.executable, "-m", "skilldeck.lsp", env=env)
        markup = [types.MarkupKind.Markdown]
        await client.initialize_session(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(
                    text_document=types.TextDocumentClientCapabilities(
                        completion=types.CompletionClientCapabilities(
                            completion_item=types.ClientCompletionItemOptions(
                                documentation_format=markup
                            )
                        ),
                        hover=types.HoverClientCapabilities(content_format=markup),
                    )
                ),
                workspace_folders=[
                    types.WorkspaceFolder(uri=from_fs_path(str(project)) or "", name="p")
                ],
            )
        )
        await asyncio.wait_for(indexed.wait(), 600)
        text = target.read_text(encoding="utf-8")
        lines = text.split("\n")
        # Typing: a half-typed key and a value in the frontmatter, "/" lines in the body.
        lines.insert(3, "us")
        lines.insert(4, "user-invocable: ")
        lines += ["Try /", "Try /skill-0004"]
        last = len(lines) - 1
        typed_doc = open_doc(client, target, "\n".join(lines))
        # Reading: a valid skill that shadows a user skill and mentions another skill.
        shown = target.parent.parent / "skill-00040" / "SKILL.md"
        shown_text = shown.read_text(encoding="utf-8") + "Then run /skill-00042 now.\n"
        shown_doc = open_doc(client, shown, shown_text)
        mention_line = shown_text.count("\n") - 1

        def completion(line: int, character: int) -> Callable[[], Awaitable[Any]]:
            params = types.CompletionParams(
                text_document=typed_doc, position=types.Position(line, character)
            )
            return lambda: client.text_document_completion_async(params)

        def hover(line: int, character: int) -> Callable[[], Awaitable[Any]]:
            params = types.HoverParams(
                text_document=shown_doc, position=types.Position(line, character)
            )
            return lambda: client.text_document_hover_async(params)

        cases = [
            ("completion: frontmatter key", completion(3, 2)),
            ("completion: boolean value", completion(4, 16)),
            ("completion: '/' in body", completion(last - 1, 5)),
            ("completion: '/skill-0004'", completion(last, 15)),
            ("hover: name (catalog line)", hover(1, 8)),
            ("hover: description", hover(2, 20)),
            ("hover: /name mention", hover(mention_line, 12)),
        ]
        await timed(cases[0][1], 5)  # warm up imports and caches
        rows: list[tuple[str, list[float], str]] = []
        for label, call in cases:
            samples, result = await timed(call, queries)
            if isinstance(result, types.CompletionList):
                note = f"{len(result.items)} items" + (
                    ", incomplete" if result.is_incomplete else ""
                )
            else:
                note = "hover" if result is not None else "no answer"
            rows.append((label, samples, note))
        await client.shutdown_session()
        await client.stop()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    rows = asyncio.run(run(args.size, args.queries))
    header = f"{'request':<30} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}  answer"
    print(f"{args.size} skills, {args.queries} requests each (client round trip)")
    print(header)
    print("-" * len(header))
    for label, samples, note in rows:
        print(
            f"{label:<30} {statistics.median(samples):>8.2f} {percentile(samples, 0.95):>8.2f} "
            f"{max(samples):>8.2f}  {note}"
        )


if __name__ == "__main__":
    main()
