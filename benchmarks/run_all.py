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

import real_corpus  # noqa: E402
from bench_check import bench_check, python_startup, read_floor  # noqa: E402
from bench_peers import bench_peers, peers_dir  # noqa: E402
from corpus import VARIANTS, ensure  # noqa: E402
from measure import loadavg, machine  # noqa: E402

DEFAULT_SIZES = (100, 1000, 10000)
#: The decks: ``generated`` (corpus.py: varied and near-duplicate) and ``real``
#: (real_corpus.py: renamed copies of a public collection's skills).
DECKS = ("generated", "real")
REAL = "real"

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
    n: int,
    *,
    corpus_root: Path,
    repeats: int,
    server: bool,
    edits: int,
    queries: int,
    decks: Sequence[str] = DECKS,
    peers: Path | None = None,
) -> Result:
    """Every figure for one size: the generated deck (varied, plus the near-duplicate
    check) and the deck of renamed copies of real skills (with the peers on it)."""
    out: Result = {"n": n}
    planned: list[str] = list(VARIANTS) if "generated" in decks else []
    if "real" in decks:
        if real_corpus.source_files(real_corpus.source_dir()):
            planned.append(REAL)
        else:
            print(f"  no real collection under {real_corpus.SOURCE}: skipped", file=sys.stderr)
    for variant in planned:
        started = time.perf_counter()
        if variant == REAL:
            corpus = real_corpus.ensure(corpus_root / f"real-n{n}", n)
        else:
            corpus = ensure(corpus_root / f"n{n}-{variant}", n, variant=variant)  # type: ignore[arg-type]
        generated = time.perf_counter() - started
        entry: Result = {
            "corpus": corpus.dest,
            "bytes": corpus.total_bytes,
            "generate_or_reuse_s": round(generated, 3),
            "loadavg_before": loadavg(),
            "read_floor": read_floor(corpus),
            "check": bench_check(corpus, repeats=repeats),
        }
        if variant == REAL:
            entry["peers"] = bench_peers(corpus, peers, repeats=repeats)
        if server and variant in ("varied", REAL):
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


Row = tuple[str, Callable[[Result], float]]


def _rows(variant: str) -> list[Row]:
    """The table's rows for one deck (``varied`` or ``real``), read from a size's result."""

    def get(*path: str) -> Callable[[Result], float]:
        return lambda r: _get(r, variant, *path)

    def over(
        top: Callable[[Result], float], bottom: Callable[[Result], float]
    ) -> Callable[[Result], float]:
        return lambda r: _ratio(top(r), bottom(r))

    floor = get("read_floor", "best_s")
    cold = get("check", "cold", "wall_s")
    warm = get("check", "warm", "wall_s")
    rows: list[Row] = [
        ("read floor (s, best)", floor),
        ("check cold (s)", cold),
        ("  x read floor", over(cold, floor)),
        ("  cpu (s)", get("check", "cold", "cpu_s")),
        ("check --no-cache (s)", get("check", "no_cache", "wall_s")),
        ("check warm (s)", warm),
        ("  x read floor", over(warm, floor)),
        ("  cpu (s)", get("check", "warm", "cpu_s")),
        ("check peak RSS (MB)", lambda r: _get(r, variant, "check", "cold", "max_rss_kb") / 1024),
        ("check findings", get("check", "findings")),
    ]
    if variant == REAL:
        agnix = get("peers", "agnix", "wall_s")
        skills_ref = get("peers", "skills_ref_rs", "wall_s")
        rows += [
            ("agnix (s)", agnix),
            ("  check cold / agnix", over(cold, agnix)),
            ("skills-ref-rs (s)", skills_ref),
            ("  check warm / skills-ref-rs", over(warm, skills_ref)),
        ]
    else:
        rows += [
            (
                "near-dup check cold (s)",
                lambda r: _get(r, "near-duplicate", "check", "cold", "wall_s"),
            ),
            (
                "near-dup check warm (s)",
                lambda r: _get(r, "near-duplicate", "check", "warm", "wall_s"),
            ),
        ]
    rows += [
        ("server initialize (s)", get("server", "initialize_s")),
        ("server index (s)", get("server", "index_s")),
        ("server index, 2nd start (s)", get("server", "index_second_start_s")),
    ]
    for key, label in _REQUESTS:
        rows.append((f"{label} p50 (ms)", get("server", key, "p50_ms")))
        rows.append((f"{label} p95 (ms)", get("server", key, "p95_ms")))
    rows += [
        (
            "server RSS after index (MB)",
            lambda r: _get(r, variant, "server", "rss_after_index_kb") / 1024,
        ),
        ("server RSS at end (MB)", lambda r: _get(r, variant, "server", "rss_end_kb") / 1024),
    ]
    return rows


#: The language-server requests measured: (result key, label).
_REQUESTS = (
    ("did_change", "didChange->diag"),
    ("completion_key", "completion key"),
    ("completion_mention", "completion /name"),
    ("hover_name", "hover name"),
    ("hover_description", "hover description"),
)


def table(results: Sequence[Result], variant: str = "varied") -> str:
    """One deck's figures as a fixed-width table: one column per size, then 1k -> 10k."""
    results = [r for r in results if variant in r]
    if not results:
        return ""
    sizes = [r["n"] for r in results]
    by_n = {r["n"]: r for r in results}
    growth = 1000 in by_n and 10000 in by_n
    head = ["figure"] + [f"N={n:,}" for n in sizes] + (["1k->10k"] if growth else [])
    rows = [head]
    for label, get in _rows(variant):
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


def targets(results: Sequence[Result], variant: str = "varied") -> list[dict[str, object]]:
    """Issue #27's targets for one deck, judged at the largest size measured."""
    results = [r for r in results if variant in r]
    checks: list[dict[str, object]] = []
    if not results:
        return checks
    by_n = {r["n"]: r for r in results}
    top = by_n[max(by_n)]
    floor = _get(top, variant, "read_floor", "best_s")

    def add(name: str, value: float, limit: float, unit: str) -> None:
        met = None if math.isnan(value) else value <= limit
        checks.append({"target": name, "value": value, "limit": limit, "unit": unit, "met": met})

    def at(n: int, *path: str) -> float:
        return _get(by_n[n], variant, *path) if n in by_n else math.nan

    add(
        "cold check / read floor",
        _ratio(_get(top, variant, "check", "cold", "wall_s"), floor),
        10,
        "x",
    )
    add(
        "warm check / read floor",
        _ratio(_get(top, variant, "check", "warm", "wall_s"), floor),
        1.5,
        "x",
    )
    if variant == REAL:
        add(
            "warm check / skills-ref-rs",
            _ratio(
                _get(top, variant, "check", "warm", "wall_s"),
                _get(top, variant, "peers", "skills_ref_rs", "wall_s"),
            ),
            1,
            "x",
        )
        add(
            "cold check at 1k / agnix at 1k",
            _ratio(at(1000, "check", "cold", "wall_s"), at(1000, "peers", "agnix", "wall_s")),
            0.2,
            "x",
        )
    for kind in ("wall_s", "cpu_s"):
        add(
            f"cold check growth 1k->10k ({kind[:-2]})",
            _ratio(at(10000, "check", "cold", kind), at(1000, "check", "cold", kind)),
            11,
            "x",
        )
    add("server index after initialized", _get(top, variant, "server", "index_s"), 1.5, "s")
    small = min(by_n)
    for key, label in _REQUESTS:
        add(f"{label} p95", _get(top, variant, "server", key, "p95_ms"), 10, "ms")
        if small != max(by_n):
            add(
                f"{label} p50 N={max(by_n):,} / N={small:,}",
                _ratio(
                    _get(top, variant, "server", key, "p50_ms"),
                    at(small, "server", key, "p50_ms"),
                ),
                1.3,
                "x",
            )
    add(
        "server RSS after index",
        _get(top, variant, "server", "rss_after_index_kb") / 1024,
        150,
        "MB",
    )
    add("server RSS at end", _get(top, variant, "server", "rss_end_kb") / 1024, 150, "MB")
    add("check peak RSS", _get(top, variant, "check", "cold", "max_rss_kb") / 1024, 150, "MB")
    return checks


def format_targets(checks: Sequence[dict[str, object]], n: int, deck: str = "") -> str:
    """One line per target: value, limit, met / MISSED / not measured."""
    lines = [f"targets at N={n:,}{' (' + deck + ')' if deck else ''}:"]
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
        "--decks", default=",".join(DECKS), help="generated, real, or both (default both)"
    )
    parser.add_argument(
        "--peers",
        default=None,
        help="bin folder with agnix and skills-ref-rs (see bench_peers.py; "
        "default $SKILLDECK_BENCH_PEERS)",
    )
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
                decks=[d for d in args.decks.split(",") if d],
                peers=peers_dir(args.peers),
            )
        )
    report = {
        "machine": info,
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(started)),
        "duration_s": round(time.time() - started, 1),
        "loadavg_at_end": loadavg(),
        "results": results,
        "targets": {deck: targets(results, deck) for deck in ("varied", REAL)},
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
    for deck, title in (("varied", "generated deck (corpus.py)"), (REAL, "real-derived deck")):
        text = table(results, deck)
        if not text:
            continue
        print(f"\n{title}:")
        print(text)
        print()
        print(format_targets(targets(results, deck), max(r["n"] for r in results), title))


if __name__ == "__main__":
    raise SystemExit(main())
