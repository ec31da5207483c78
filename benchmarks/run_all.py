"""Run every benchmark for N = 100, 1,000 and 10,000 skills; print a table, write JSON.

    .venv/bin/python benchmarks/run_all.py                 # all sizes, check + server
    .venv/bin/python benchmarks/run_all.py --sizes 100,1000 --skip-server

Corpora are generated (once per size and variant, reused while the generator is unchanged)
under ``benchmarks/corpus/``; results go to ``benchmarks/results/latest.json``. Both
folders are git-ignored. The near-duplicate variant is checked too (cold and warm) at
every size: it is the deck shape that makes similarity-based linters quadratic.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_check import bench_check, python_startup, read_floor  # noqa: E402
from corpus import VARIANTS, ensure  # noqa: E402
from measure import loadavg, machine  # noqa: E402

DEFAULT_SIZES = (100, 1000, 10000)

#: (key, description, limit, how to read the figure from a result) for the 10k targets.
Result = dict[str, Any]


def _get(result: Result, *path: str) -> float:
    value: Any = result
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return math.nan
        value = value[key]
    return float(value) if isinstance(value, int | float) else math.nan


def measure_size(
    n: int, *, corpus_root: Path, repeats: int, server: bool, edits: int, queries: int
) -> Result:
    """Every figure for one size (varied corpus) plus the near-duplicate check."""
    out: Result = {"n": n}
    for variant in VARIANTS:
        started = time.perf_counter()
        corpus = ensure(corpus_root / f"n{n}-{variant}", n, variant=variant)
        generated = time.perf_counter() - started
        entry: Result = {
            "corpus": corpus.dest,
            "bytes": corpus.total_bytes,
            "generate_or_reuse_s": round(generated, 3),
            "loadavg_before": loadavg(),
            "read_floor": read_floor(corpus),
            "check": bench_check(corpus, repeats=repeats),
        }
        if server and variant == "varied":
            from bench_server import bench_server  # noqa: PLC0415

            with tempfile.TemporaryDirectory(prefix="skilldeck-bench-server-") as cache:
                server_result = asyncio.run(
                    bench_server(corpus, edits=edits, queries=queries, cache_dir=cache)
                )
                again = asyncio.run(bench_server(corpus, edits=0, queries=0, cache_dir=cache))
            server_result["index_second_start_s"] = again.get("index_s")
            server_result["rss_after_index_second_start_kb"] = again.get("rss_after_index_kb")
            entry["server"] = server_result
        out[variant] = entry
        print(f"  measured N={n} {variant}", file=sys.stderr, flush=True)
    return out


def _ratio(a: float, b: float) -> float:
    return a / b if b and not math.isnan(a) and not math.isnan(b) else math.nan


def _fmt(value: float, digits: int = 3) -> str:
    if math.isnan(value):
        return "-"
    if abs(value) >= 100:
        return f"{value:.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.{digits}f}"


ROWS: list[tuple[str, Callable[[Result], float]]] = [
    ("read floor (s, best)", lambda r: _get(r, "varied", "read_floor", "best_s")),
    ("check cold (s)", lambda r: _get(r, "varied", "check", "cold", "wall_s")),
    (
        "  x read floor",
        lambda r: _ratio(
            _get(r, "varied", "check", "cold", "wall_s"), _get(r, "varied", "read_floor", "best_s")
        ),
    ),
    ("  cpu (s)", lambda r: _get(r, "varied", "check", "cold", "cpu_s")),
    ("check --no-cache (s)", lambda r: _get(r, "varied", "check", "no_cache", "wall_s")),
    ("check warm (s)", lambda r: _get(r, "varied", "check", "warm", "wall_s")),
    (
        "  x read floor",
        lambda r: _ratio(
            _get(r, "varied", "check", "warm", "wall_s"), _get(r, "varied", "read_floor", "best_s")
        ),
    ),
    ("  cpu (s)", lambda r: _get(r, "varied", "check", "warm", "cpu_s")),
    ("check peak RSS (MB)", lambda r: _get(r, "varied", "check", "cold", "max_rss_kb") / 1024),
    ("near-dup check cold (s)", lambda r: _get(r, "near-duplicate", "check", "cold", "wall_s")),
    ("near-dup check warm (s)", lambda r: _get(r, "near-duplicate", "check", "warm", "wall_s")),
    ("server initialize (s)", lambda r: _get(r, "varied", "server", "initialize_s")),
    ("server index (s)", lambda r: _get(r, "varied", "server", "index_s")),
    (
        "server index, 2nd start (s)",
        lambda r: _get(r, "varied", "server", "index_second_start_s"),
    ),
    ("didChange->diag p50 (ms)", lambda r: _get(r, "varied", "server", "did_change", "p50_ms")),
    ("didChange->diag p95 (ms)", lambda r: _get(r, "varied", "server", "did_change", "p95_ms")),
    ("completion key p50 (ms)", lambda r: _get(r, "varied", "server", "completion_key", "p50_ms")),
    ("completion key p95 (ms)", lambda r: _get(r, "varied", "server", "completion_key", "p95_ms")),
    (
        "completion /name p50 (ms)",
        lambda r: _get(r, "varied", "server", "completion_mention", "p50_ms"),
    ),
    (
        "completion /name p95 (ms)",
        lambda r: _get(r, "varied", "server", "completion_mention", "p95_ms"),
    ),
    ("hover name p50 (ms)", lambda r: _get(r, "varied", "server", "hover_name", "p50_ms")),
    ("hover name p95 (ms)", lambda r: _get(r, "varied", "server", "hover_name", "p95_ms")),
    (
        "hover description p95 (ms)",
        lambda r: _get(r, "varied", "server", "hover_description", "p95_ms"),
    ),
    (
        "server RSS after index (MB)",
        lambda r: _get(r, "varied", "server", "rss_after_index_kb") / 1024,
    ),
    ("server RSS at end (MB)", lambda r: _get(r, "varied", "server", "rss_end_kb") / 1024),
]


def table(results: Sequence[Result]) -> str:
    """The figures as a fixed-width table: one column per size, then 1k -> 10k growth."""
    sizes = [r["n"] for r in results]
    by_n = {r["n"]: r for r in results}
    growth = 1000 in by_n and 10000 in by_n
    head = ["figure"] + [f"N={n:,}" for n in sizes] + (["1k->10k"] if growth else [])
    rows = [head]
    for label, get in ROWS:
        values = [get(r) for r in results]
        if all(math.isnan(v) for v in values):
            continue
        row = [label] + [_fmt(v) for v in values]
        if growth:
            row.append(_fmt(_ratio(get(by_n[10000]), get(by_n[1000])), 2) + "x")
        rows.append(row)
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = []
    for number, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append("  ".join(cells))
        if number == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def targets(results: Sequence[Result]) -> list[dict[str, object]]:
    """The issue's targets, judged at the largest size measured (10,000 when present)."""
    by_n = {r["n"]: r for r in results}
    top = by_n[max(by_n)]
    floor = _get(top, "varied", "read_floor", "best_s")
    checks: list[dict[str, object]] = []

    def add(name: str, value: float, limit: float, unit: str) -> None:
        met = None if math.isnan(value) else value <= limit
        checks.append({"target": name, "value": value, "limit": limit, "unit": unit, "met": met})

    add(
        "cold check / read floor",
        _ratio(_get(top, "varied", "check", "cold", "wall_s"), floor),
        10,
        "x",
    )
    add(
        "warm check / read floor",
        _ratio(_get(top, "varied", "check", "warm", "wall_s"), floor),
        2,
        "x",
    )
    if 1000 in by_n and 10000 in by_n:
        add(
            "cold check growth 1k->10k",
            _ratio(
                _get(by_n[10000], "varied", "check", "cold", "wall_s"),
                _get(by_n[1000], "varied", "check", "cold", "wall_s"),
            ),
            10,
            "x",
        )
        add(
            "cold check CPU growth 1k->10k",
            _ratio(
                _get(by_n[10000], "varied", "check", "cold", "cpu_s"),
                _get(by_n[1000], "varied", "check", "cold", "cpu_s"),
            ),
            10,
            "x",
        )
        # No "marginal growth" (minus N=100) row: from 1,000 files on, a cold check forks
        # a helper process and N=100 does not, so the difference has no fixed meaning.
        add(
            "near-dup cold check growth 1k->10k",
            _ratio(
                _get(by_n[10000], "near-duplicate", "check", "cold", "wall_s"),
                _get(by_n[1000], "near-duplicate", "check", "cold", "wall_s"),
            ),
            10,
            "x",
        )
    add("server index after initialized", _get(top, "varied", "server", "index_s"), 2, "s")
    add(
        "didChange->diagnostics p95",
        _get(top, "varied", "server", "did_change", "p95_ms"),
        20,
        "ms",
    )
    if min(by_n) != max(by_n):
        add(
            f"didChange p95 N={max(by_n):,} / N={min(by_n):,}",
            _ratio(
                _get(top, "varied", "server", "did_change", "p95_ms"),
                _get(by_n[min(by_n)], "varied", "server", "did_change", "p95_ms"),
            ),
            1.5,
            "x",
        )
    for key, label in (
        ("completion_key", "completion (key) p95"),
        ("completion_mention", "completion (/name) p95"),
        ("hover_name", "hover (name) p95"),
        ("hover_description", "hover (description) p95"),
    ):
        add(label, _get(top, "varied", "server", key, "p95_ms"), 10, "ms")
    add(
        "server RSS after index",
        _get(top, "varied", "server", "rss_after_index_kb") / 1024,
        200,
        "MB",
    )
    return checks


def format_targets(checks: Sequence[dict[str, object]], n: int) -> str:
    """One line per target: value, limit, met / MISSED / not measured."""
    lines = [f"targets at N={n:,}:"]
    for check in checks:
        value = float(check["value"])  # type: ignore[arg-type]
        verdict = {True: "met", False: "MISSED", None: "not measured"}[check["met"]]  # type: ignore[index]
        lines.append(
            f"  {check['target']:<42} {_fmt(value):>8} {check['unit']:<2} "
            f"(limit {check['limit']}{check['unit']})  {verdict}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse options, run, print, write JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)))
    parser.add_argument("--corpus-dir", default=str(HERE / "corpus"))
    parser.add_argument("--out", default=str(HERE / "results" / "latest.json"))
    parser.add_argument("--repeats", type=int, default=3, help="cold check runs per size")
    parser.add_argument("--edits", type=int, default=100, help="didChange samples")
    parser.add_argument("--queries", type=int, default=100, help="samples per request kind")
    parser.add_argument("--skip-server", action="store_true")
    parser.add_argument(
        "--report", metavar="JSON", default=None, help="only reprint the table of a results file"
    )
    args = parser.parse_args(argv)
    if args.report:
        saved = json.loads(Path(args.report).read_text())
        print_report(saved["machine"], saved["results"], saved.get("loadavg_at_end", []))
        return 0
    sizes = [int(s) for s in args.sizes.split(",") if s]

    started = time.time()
    info = machine()
    info["python_startup_s"] = python_startup()
    results: list[Result] = []
    for n in sizes:
        print(f"N={n:,} ...", file=sys.stderr, flush=True)
        results.append(
            measure_size(
                n,
                corpus_root=Path(args.corpus_dir),
                repeats=args.repeats,
                server=not args.skip_server,
                edits=args.edits,
                queries=args.queries,
            )
        )
    report = {
        "machine": info,
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(started)),
        "duration_s": round(time.time() - started, 1),
        "loadavg_at_end": loadavg(),
        "results": results,
        "targets": targets(results),
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1, default=str) + "\n")

    print_report(info, results, report["loadavg_at_end"])
    print(f"\nJSON: {out}")
    return 0


def print_report(info: dict[str, Any], results: list[Result], load_end: object) -> None:
    """The machine line, the table and the targets."""
    print(
        f"machine: {info['nproc']} CPUs, {info['cpu_model']}, Python {info['python']}; "
        f"load {info['loadavg_at_start']} -> {load_end}"
    )
    print(table(results))
    print()
    print(format_targets(targets(results), max(r["n"] for r in results)))


if __name__ == "__main__":
    raise SystemExit(main())
