"""What the VS Code extension's bundled (pure-Python) server costs: ``skilldeck check``
on a 1,000-skill deck with the compiled speed-ups and without them.

Without them (``pure_python.py``): the pure ruamel.yaml parser instead of libyaml, the
standard library's ``json`` for the index cache instead of orjson, snowballstemmer
instead of PyStemmer for the overlap index. Cold runs use a fresh cache folder and
``--no-cache`` (every file parsed, every stem computed), warm runs the cache the cold
run left. Both modes must print the same JSON (the benchmark says so if not).

Run ``python benchmarks/bench_pure_fallbacks.py [--n 1000] [--repeats 3] [--corpus DEST]``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_check import check_argv
from corpus import Corpus, ensure
from measure import machine, median, run_timed

PURE = str(Path(__file__).resolve().parent / "pure_python.py")


def _argv(corpus: Corpus, *, pure: bool, no_cache: bool) -> list[str]:
    argv = check_argv(corpus, no_cache=no_cache)
    # check_argv runs `python -m skilldeck check ...`; the pure mode runs the same through
    # the runner that refuses the compiled modules.
    return [argv[0], PURE, *argv[3:]] if pure else argv


def bench(corpus: Corpus, repeats: int) -> dict[str, object]:
    """Median wall and CPU seconds per mode (cold no-cache, cold writing the cache, warm).
    CPU time (the process and its helpers) is the steadier number on a shared machine."""
    base_env = corpus.process_env()
    results: dict[str, object] = {}
    outputs: dict[str, set[str]] = {}
    scratch = tempfile.mkdtemp(prefix="skilldeck-bench-pure-")
    for pure in (False, True):
        mode = "pure" if pure else "compiled"
        samples: dict[str, list[float]] = {"no_cache": [], "cold": [], "warm": []}
        cpu: dict[str, list[float]] = {"no_cache": [], "cold": [], "warm": []}
        for attempt in range(repeats):
            cache = os.path.join(scratch, f"{mode}-{attempt}")
            env = {**base_env, "SKILLDECK_CACHE_DIR": cache}
            for kind, no_cache in (("no_cache", True), ("cold", False), ("warm", False)):
                run = run_timed(
                    _argv(corpus, pure=pure, no_cache=no_cache), env=env, cwd=corpus.cwd
                )
                if run.returncode not in (0, 1):
                    raise RuntimeError(run.stderr.decode(errors="replace"))
                samples[kind].append(run.wall)
                cpu[kind].append(run.cpu)
                outputs.setdefault(mode, set()).add(hashlib.sha256(run.stdout).hexdigest())
        results[mode] = {
            "wall": {kind: round(median(values), 3) for kind, values in samples.items()},
            "cpu": {kind: round(median(values), 3) for kind, values in cpu.items()},
        }
    compiled, pure_out = outputs["compiled"], outputs["pure"]
    results["same_output"] = len(compiled) == 1 and compiled == pure_out
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--corpus", default=os.path.join(tempfile.gettempdir(), "skilldeck-pure-corpus")
    )
    args = parser.parse_args(argv)
    corpus = ensure(args.corpus, args.n)
    results = bench(corpus, args.repeats)
    print(json.dumps({"n": args.n, "machine": machine(), **results}, indent=2))
    return 0 if results["same_output"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
