"""``skilldeck mcp`` on a generated deck, through the MCP SDK's client over stdio.

- **first answer**: from starting the process to the first ``tools/list`` answer
  (import, the first deck read, the ``server/discover`` exchange), with an empty index
  cache and again with the cache the first start left;
- **skills/list**: one page (100 entries) over and over; *cold* is the first walk of
  every page (entries built from files: SKILL.md and resources read and hashed), *warm*
  the same pages again (entries kept for the deck view);
- **tools/call skill**: the ``skill`` tool for random accepted names (each reads the
  file again, as ``skilldeck load`` does);
- **RSS** of the server process after all of that.

Targets (issue #18): ``skills/list`` p95 <= 50 ms warm, ``tools/call skill`` p95 <= 10 ms,
RSS <= 200 MB, first answer within 2 s. Run ``python benchmarks/bench_mcp.py DEST
[--n 10000] [--require-safe]`` (the corpus is generated in DEST when missing; see
``corpus.py``; ``--require-safe`` serves behind the safety gate, which judges the bytes
each entry and tool call serves).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters
from pydantic import TypeAdapter

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import Corpus, ensure
from measure import loadavg, machine, percentile, rss_kb

ANY: TypeAdapter[dict[str, Any]] = TypeAdapter(dict[str, Any])


class _ListParams(types.PaginatedRequestParams):
    pass


class _ListRequest(types.Request[_ListParams, str]):
    method: str = "skills/list"
    params: _ListParams


async def _skills_list(client: Client, cursor: str | None) -> dict[str, Any]:
    return await client.session.send_request(_ListRequest(params=_ListParams(cursor=cursor)), ANY)


def _server_pid() -> int:
    """The ``skilldeck mcp`` child of this process (0 when not found)."""
    me = str(os.getpid())
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                command = handle.read()
        except OSError:
            continue
        if fields[1] == me and b"skilldeck\x00mcp" in command:
            return int(entry)
    return 0


def _ms(values: list[float]) -> dict[str, float]:
    return {
        "p50_ms": round(percentile(values, 50) * 1000, 2),
        "p95_ms": round(percentile(values, 95) * 1000, 2),
        "max_ms": round(max(values) * 1000, 2),
        "count": len(values),
    }


async def measure(corpus: Corpus, calls: int, require_safe: bool = False) -> dict[str, object]:
    cache_dir = tempfile.mkdtemp(prefix="bench-mcp-cache-")
    env = corpus.process_env()
    env["SKILLDECK_CACHE_DIR"] = cache_dir
    args = ["-m", "skilldeck", "mcp", "--cwd", corpus.cwd]
    for folder in corpus.custom_dirs:
        args += ["--custom-skill-dir", folder]
    if require_safe:
        args.append("--require-safe")
    parameters = StdioServerParameters(command=sys.executable, args=args, env=env)
    started = time.perf_counter()
    async with Client(parameters, mode="auto", cache=None, read_timeout_seconds=120) as client:
        await client.list_tools()
        first_answer_cold = time.perf_counter() - started  # the index cache was empty
    started = time.perf_counter()
    async with Client(parameters, mode="auto", cache=None, read_timeout_seconds=120) as client:
        await client.list_tools()
        first_answer = time.perf_counter() - started  # the index cache the first run left

        cold: list[float] = []
        names: list[str] = []
        cursors: list[str | None] = [None]
        while True:
            begin = time.perf_counter()
            page = await _skills_list(client, cursors[-1])
            cold.append(time.perf_counter() - begin)
            names += [entry["frontmatter"]["name"] for entry in page["skills"]]
            if "nextCursor" not in page:
                break
            cursors.append(page["nextCursor"])
        warm: list[float] = []
        for cursor in cursors:
            begin = time.perf_counter()
            await _skills_list(client, cursor)
            warm.append(time.perf_counter() - begin)

        rng = random.Random(18)
        tool: list[float] = []
        for _ in range(calls):
            name = rng.choice(names)
            begin = time.perf_counter()
            result = await client.call_tool("skill", {"name": name})
            tool.append(time.perf_counter() - begin)
            assert not result.is_error, result.content
        pid = _server_pid()
        rss = rss_kb(pid) if pid else 0
    return {
        "skills": corpus.n,
        "require_safe": require_safe,
        "served_entries": len(names),
        "first_answer_cold_cache_s": round(first_answer_cold, 3),
        "first_answer_warm_cache_s": round(first_answer, 3),
        "skills_list_cold_page": _ms(cold),
        "skills_list_warm_page": _ms(warm),
        "skills_list_cold_walk_s": round(sum(cold), 3),
        "tools_call_skill": _ms(tool),
        "server_rss_mb": round(rss / 1024, 1),
        "machine": machine(),
        "loadavg": loadavg(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dest", help="corpus folder (generated when missing)")
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument(
        "--require-safe",
        action="store_true",
        help="serve with --require-safe (each entry and tool call judges the bytes it serves)",
    )
    args = parser.parse_args(argv)
    corpus = ensure(args.dest, args.n)
    print(json.dumps(anyio.run(measure, corpus, args.calls, args.require_safe), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
