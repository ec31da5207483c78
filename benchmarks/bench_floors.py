"""How low any ``skilldeck check`` written in Python can go on a deck (issue #27's floors).

Issue #27 sets its cold and warm targets against the *read floor* (one already running
Python process listing the roots and reading every skill file) and against agnix (a
compiled peer). A ``skilldeck check`` is a new process: before it reads a file it pays
the interpreter's start and the import of its own code, and a warm run must at least
``stat`` what its memo vouches for. This script measures those parts, alternating, in
one run, and prints each target beside the least a Python process could take for it:

- **interpreter**: ``python -c pass`` (the virtual environment's Python, ``site`` on).
- **empty check, cold / warm**: ``skilldeck check`` of a project with no skills and a
  fresh / a used ``$SKILLDECK_CACHE_DIR``: the interpreter plus everything ``check``
  imports and sets up, with nothing to read.
- **stat pass**: a new ``python`` process that ``stat``s every skill file and every bundle
  folder of the deck (what the deck memo's key must look at; see
  ``skilldeck.cli.check_memo.deck_key``), nothing else imported.
- **read floor**: as in ``bench_check.py`` (in this process, best of five).
- **check cold / warm** of the deck, and **agnix** when ``--peers`` names its install.

``python benchmarks/bench_floors.py DEST [--peers BIN] [--rounds N]`` prints JSON: each
figure's median and range over the rounds, and per target the bound these parts give
(``bounds``). A bound is a lower bound: a check cannot take less than its parts.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_check import check_argv, read_floor
from bench_peers import peers_dir
from corpus import Corpus, load
from measure import median, run_timed

#: A new process's ``stat`` of every skill file and bundle folder (paths on stdin).
_STAT_PASS = """
import os, sys
for path in sys.stdin.read().split("\\0"):
    os.stat(path)
    os.stat(os.path.dirname(path))
"""


def _stat_paths(corpus: Corpus) -> bytes:
    return "\0".join(corpus.skill_files).encode("utf-8", "surrogateescape")


def _empty_project(base: str) -> tuple[list[str], dict[str, str]]:
    """``check`` of a project with no skills (and empty user roots) in ``base``."""
    project = Path(base, "project")
    (project / ".git").mkdir(parents=True)
    argv = [sys.executable, "-m", "skilldeck", "check", "--include-user-roots"]
    argv += ["--format", "json", "--cwd", str(project)]
    env = dict(os.environ)
    env.update({"DSH_HOME": str(Path(base, "dsh")), "DSH_AGENTS_HOME": str(Path(base, "agents"))})
    return argv, env


def _spread(values: list[float]) -> dict[str, float]:
    return {"median_s": median(values), "min_s": min(values), "max_s": max(values)}


def measure(corpus: Corpus, peers: Path | None, rounds: int) -> dict[str, object]:
    """Every figure of the module docstring over ``rounds`` alternating rounds."""
    samples: dict[str, list[float]] = {}
    scratch = tempfile.mkdtemp(prefix="floors-")
    try:
        empty_argv, empty_env = _empty_project(scratch)
        warm_env = {**corpus.process_env(), "SKILLDECK_CACHE_DIR": os.path.join(scratch, "warm")}
        empty_warm_env = {**empty_env, "SKILLDECK_CACHE_DIR": os.path.join(scratch, "ew")}
        for env in (warm_env, empty_warm_env):
            env.pop("PYTHONDONTWRITEBYTECODE", None)
        run_timed(check_argv(corpus), env=warm_env, cwd=corpus.cwd)  # fills the warm cache
        run_timed(empty_argv, env=empty_warm_env)
        paths = _stat_paths(corpus)
        agnix = peers / "agnix" if peers is not None else None
        for number in range(rounds):
            cold = os.path.join(scratch, f"cold-{number}")
            empty_cold = os.path.join(scratch, f"empty-cold-{number}")
            runs = {
                "interpreter": ([sys.executable, "-c", "pass"], None, None, None),
                "empty_check_cold": (
                    empty_argv,
                    {**empty_warm_env, "SKILLDECK_CACHE_DIR": empty_cold},
                    None,
                    None,
                ),
                "empty_check_warm": (empty_argv, empty_warm_env, None, None),
                "stat_pass": ([sys.executable, "-c", _STAT_PASS], None, None, paths),
                "check_cold": (
                    check_argv(corpus),
                    {**warm_env, "SKILLDECK_CACHE_DIR": cold},
                    corpus.cwd,
                    None,
                ),
                "check_warm": (check_argv(corpus), warm_env, corpus.cwd, None),
            }
            if agnix is not None and agnix.is_file():
                runs["agnix"] = (
                    [str(agnix), "--format", "json", "."],
                    {**os.environ, "AGNIX_TELEMETRY": "0"},
                    corpus.cwd,
                    None,
                )
            order = list(runs) if number % 2 == 0 else list(reversed(runs))
            for name in order:
                argv, env, cwd, stdin = runs[name]
                run = run_timed(argv, env=env, cwd=cwd, stdin=stdin)
                if run.returncode not in (0, 1):
                    raise RuntimeError(f"{name} failed: {run.stderr.decode(errors='replace')}")
                samples.setdefault(name, []).append(run.wall)
            floor = read_floor(corpus)
            samples.setdefault("read_floor", []).append(float(floor["best_s"]))  # type: ignore[arg-type]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    figures = {name: _spread(values) for name, values in samples.items()}
    return {"deck": corpus.dest, "skills": corpus.n, "rounds": rounds, "figures": figures}


def bounds(result: dict[str, object]) -> dict[str, object]:
    """Each target of issue #27 in seconds, the least a Python ``check`` could take for
    it (from the measured parts), and the measured ``check``."""
    figures: dict[str, dict[str, float]] = result["figures"]  # type: ignore[assignment]

    def m(name: str) -> float:
        return figures[name]["median_s"]

    floor = m("read_floor")
    out: dict[str, object] = {
        "cold <= 10x read floor": {
            "target_s": 10 * floor,
            "least_s": m("empty_check_cold") + floor,
            "measured_s": m("check_cold"),
        },
        "warm <= 1.5x read floor": {
            "target_s": 1.5 * floor,
            "least_s": m("empty_check_warm") + m("stat_pass") - m("interpreter"),
            "measured_s": m("check_warm"),
        },
    }
    if "agnix" in figures:
        out["cold <= 1/5 of agnix"] = {
            "target_s": m("agnix") / 5,
            "least_s": m("empty_check_cold") + floor,
            "measured_s": m("check_cold"),
        }
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Measure one deck and print JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("corpus", help="a folder made by corpus.py or real_corpus.py")
    parser.add_argument("--peers", default=None, help="the peers' bin folder (agnix)")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    corpus = load(args.corpus)
    if corpus is None:
        parser.error(f"no corpus manifest in {args.corpus}")
    result = measure(corpus, peers_dir(args.peers), args.rounds)
    result["bounds"] = bounds(result)
    json.dump(result, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
