"""Before and after from several ``run_all.py`` results: median (range) per figure, as
Markdown tables, one per deck and size.

    .venv/bin/python benchmarks/compare_runs.py --before b1.json b2.json --after a1.json a2.json

Run the sides alternately (before, after, before, after) on the same machine, so that
load that comes and goes falls on both; each cell is the median of the runs' figures and
their range. The rows are ``run_all.py``'s.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import median
from run_all import REAL, Result, _fmt, _rows

DECKS = (("varied", "generated deck (corpus.py)"), (REAL, "real-derived deck (real_corpus.py)"))


def _load(paths: Sequence[str]) -> list[list[Result]]:
    return [json.loads(Path(path).read_text())["results"] for path in paths]


def _cell(values: list[float]) -> str:
    values = [v for v in values if not math.isnan(v)]
    if not values:
        return "-"
    if len(values) == 1:
        return _fmt(values[0])
    return f"{_fmt(median(values))} ({_fmt(min(values))}-{_fmt(max(values))})"


def tables(before: list[list[Result]], after: list[list[Result]]) -> str:
    """One Markdown table per deck and size: figure | before | after."""
    out: list[str] = []
    sizes = sorted({r["n"] for runs in (*before, *after) for r in runs})
    for deck, title in DECKS:
        for n in sizes:

            def pick(runs: list[list[Result]], n: int = n, deck: str = deck) -> list[Result]:
                return [r for run in runs for r in run if r["n"] == n and deck in r]

            b, a = pick(before), pick(after)
            if not b and not a:
                continue
            out.append(f"\n### {title}, N = {n:,}\n")
            out.append(f"| figure | before ({len(b)} runs) | after ({len(a)} runs) |")
            out.append("|---|---|---|")
            for label, get in _rows(deck):
                left = [get(r) for r in b]
                right = [get(r) for r in a]
                if all(math.isnan(v) for v in left + right):
                    continue
                shown = "&nbsp;&nbsp;" + label.strip() if label.startswith(" ") else label
                out.append(f"| {shown} | {_cell(left)} | {_cell(right)} |")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--before", nargs="+", required=True, help="run_all.py JSON files")
    parser.add_argument("--after", nargs="+", required=True, help="run_all.py JSON files")
    args = parser.parse_args(argv)
    for side, paths in (("before", args.before), ("after", args.after)):
        for path in paths:
            print(f"{side}: {path}: {machine_line(path)}")
    print(tables(_load(args.before), _load(args.after)))
    return 0


def machine_line(path: str) -> str:
    """The machine and load of one results file."""
    data: dict[str, Any] = json.loads(Path(path).read_text())
    info = data["machine"]
    return f"{info['nproc']} CPUs, load {info['loadavg_at_start']} -> {data['loadavg_at_end']}"


if __name__ == "__main__":
    raise SystemExit(main())
