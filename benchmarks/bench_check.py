"""The read floor and ``skilldeck check`` as a whole process, cold and warm, on one corpus.

- **read floor**: ``os.scandir`` of the five roots plus a read of every skill file the
  discovery rules visit, in this process (page cache warm), best of a few runs: the
  physical limit for a cold index on this machine.
- **cold**: ``skilldeck check --include-user-roots`` with a fresh, empty
  ``$SKILLDECK_CACHE_DIR`` (the first run a user sees; it also writes the cache), and
  with ``--no-cache`` (neither reads nor writes it).
- **warm**: the same command again with the cache the cold run left (nothing changed).

Every run's JSON output must be identical (a warm run that says something else than a
cold one is a bug, and the benchmark says so). ``python benchmarks/bench_check.py DEST``
runs it on an existing corpus (see ``corpus.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import Corpus, load
from measure import median, run_timed

#: Child names discovery skips, by root source (mirrors SPEC section 3).
_SKIPPED = {"user-dsh": frozenset({".system"})}


def read_floor_once(corpus: Corpus) -> tuple[int, int]:
    """One scandir + read pass over the corpus's roots: (files read, bytes read)."""
    files = size = 0
    for root in corpus.roots:
        skip = _SKIPPED.get(root.source, frozenset())
        with os.scandir(root.path) as listing:
            children = sorted((entry.name, entry) for entry in listing)
        for name, entry in children:
            if name in skip:
                continue
            if entry.is_dir():
                try:
                    with open(os.path.join(entry.path, "SKILL.md"), "rb") as handle:
                        size += len(handle.read())
                except FileNotFoundError:
                    continue
                files += 1
            elif name.endswith(".md") and entry.is_file():
                with open(entry.path, "rb") as handle:
                    size += len(handle.read())
                files += 1
    return files, size


def read_floor(corpus: Corpus, repeats: int = 5) -> dict[str, object]:
    """Best and median wall time of :func:`read_floor_once` (after one warm-up pass)."""
    read_floor_once(corpus)
    times: list[float] = []
    files = size = 0
    for _ in range(repeats):
        start = time.perf_counter()
        files, size = read_floor_once(corpus)
        times.append(time.perf_counter() - start)
    if files != corpus.n:
        raise RuntimeError(f"read floor saw {files} skill files, the corpus has {corpus.n}")
    return {"best_s": min(times), "median_s": median(times), "files": files, "bytes": size}


def check_argv(corpus: Corpus, *, no_cache: bool = False, fmt: str = "json") -> list[str]:
    """The ``skilldeck check`` command line for ``corpus`` (all five roots)."""
    argv = [
        sys.executable,
        "-m",
        "skilldeck",
        "check",
        "--include-user-roots",
        "--format",
        fmt,
        "--cwd",
        corpus.cwd,
    ]
    for custom in corpus.custom_dirs:
        argv += ["--custom-skill-dir", custom]
    if no_cache:
        argv.append("--no-cache")
    return argv


def _summary(stdout: bytes) -> dict[str, object]:
    digest = hashlib.sha256(stdout).hexdigest()[:16]
    try:
        data = json.loads(stdout)
    except ValueError:
        return {"sha": digest, "findings": None}
    findings = data.get("findings") if isinstance(data, dict) else data
    count = len(findings) if isinstance(findings, list) else None
    return {"sha": digest, "findings": count}


def bench_check(
    corpus: Corpus, *, repeats: int = 3, cache_root: str | None = None
) -> dict[str, object]:
    """Cold (fresh cache dir, and ``--no-cache``) and warm runs; medians and all samples."""
    base_env = corpus.process_env()
    base_env.pop("SKILLDECK_CACHE_DIR", None)
    scratch = tempfile.mkdtemp(prefix="skilldeck-bench-cache-", dir=cache_root)
    outputs: set[str] = set()
    findings: set[object] = set()
    cold: list[dict[str, float]] = []
    warm: list[dict[str, float]] = []
    no_cache: list[dict[str, float]] = []
    try:
        for attempt in range(repeats):
            cache_dir = os.path.join(scratch, f"cache-{attempt}")
            env = {**base_env, "SKILLDECK_CACHE_DIR": cache_dir}
            run = run_timed(check_argv(corpus), env=env, cwd=corpus.cwd)
            _expect_ok(run.returncode, run.stderr)
            cold.append({"wall": run.wall, "cpu": run.cpu, "rss_kb": run.max_rss_kb})
            summary = _summary(run.stdout)
            outputs.add(str(summary["sha"]))
            findings.add(summary["findings"])
            for _ in range(max(1, repeats)):
                run = run_timed(check_argv(corpus), env=env, cwd=corpus.cwd)
                _expect_ok(run.returncode, run.stderr)
                warm.append({"wall": run.wall, "cpu": run.cpu, "rss_kb": run.max_rss_kb})
                outputs.add(str(_summary(run.stdout)["sha"]))
            shutil.rmtree(cache_dir, ignore_errors=True)
            env = {**base_env, "SKILLDECK_CACHE_DIR": os.path.join(scratch, "unused")}
            run = run_timed(check_argv(corpus, no_cache=True), env=env, cwd=corpus.cwd)
            _expect_ok(run.returncode, run.stderr)
            no_cache.append({"wall": run.wall, "cpu": run.cpu, "rss_kb": run.max_rss_kb})
            outputs.add(str(_summary(run.stdout)["sha"]))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return {
        "cold": _stats(cold),
        "warm": _stats(warm),
        "no_cache": _stats(no_cache),
        "outputs_identical": len(outputs) == 1,
        "findings": next(iter(findings)) if len(findings) == 1 else sorted(map(str, findings)),
        "command": " ".join(check_argv(corpus)),
    }


def _stats(samples: list[dict[str, float]]) -> dict[str, object]:
    return {
        "wall_s": median([s["wall"] for s in samples]),
        "cpu_s": median([s["cpu"] for s in samples]),
        "max_rss_kb": max(int(s["rss_kb"]) for s in samples),
        "samples_wall_s": [round(s["wall"], 4) for s in samples],
    }


def _expect_ok(returncode: int, stderr: bytes) -> None:
    # 0 = clean, 1 = findings at or above --fail-on; both are a finished check.
    if returncode not in (0, 1):
        raise RuntimeError(
            f"skilldeck check failed with status {returncode}: "
            f"{stderr.decode(errors='replace')[-2000:]}"
        )


def python_startup(repeats: int = 5) -> float:
    """Median wall time of ``python -c pass`` (what any Python CLI pays before work)."""
    times = [run_timed([sys.executable, "-c", "pass"]).wall for _ in range(repeats)]
    return median(times)


def main(argv: Sequence[str] | None = None) -> int:
    """Run on an existing corpus folder and print JSON."""
    parser = argparse.ArgumentParser(description="read floor and skilldeck check timings")
    parser.add_argument("corpus", help="a folder made by benchmarks/corpus.py")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    corpus = load(args.corpus)
    if corpus is None:
        parser.error(f"no corpus manifest in {args.corpus}")
    result = {"read_floor": read_floor(corpus), "check": bench_check(corpus, repeats=args.repeats)}
    json.dump(result, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
