"""The SD10xx safety rules' share of a cold ``skilldeck check`` on a deck (issue #40's
target: under a fifth on the real-derived 10,000-skill deck).

Runs, alternating, the cold ``check`` of ``bench_check.py`` (a fresh, empty
``$SKILLDECK_CACHE_DIR``: the first run a user sees) as shipped and with the safety
rules stubbed out (the per-file rules, ``check_safety`` taken out of
``engine.checks._run.FILE_CHECKS``, and the bundle scan, ``bundle_findings``, replaced by
a no-op before the command starts; the modules are still imported, and the scan's forked
helpers inherit the stubs; a stub that no longer applies stops the benchmark). The share is
``(with - without) / with`` of the median CPU time (user + system, the process and its
helpers, from ``wait4``); wall times are printed beside it. With ``--no-cache`` the runs
neither read nor write the cache.

With ``--keystroke`` it measures the editor instead: the language server on the deck,
driven by ``bench_server.py`` (``didChange`` in the probe skill's description and body, one
keystroke every 50 ms, to the ``publishDiagnostics`` of that version), as shipped and
with the same stubs, alternating, each after the server's work after indexing has settled
(``--settle``); it prints p50 and p95 of each run and the server's CPU time a keystroke
(on a loaded machine the comparable figure: latency there measures the other jobs).

With ``--baseline TREE`` (a checkout of another commit, e.g. from ``git worktree add``)
each round also runs that tree's ``skilldeck`` (``PYTHONPATH=TREE/server``), with and
without its rules, so a change is measured against its parent in the same minutes.

Numbers, not pass/fail; the machine is shared, so compare within one run (the load
average is printed before and after), and compare CPU medians: wall time on a loaded
machine measures the other jobs.

    .venv/bin/python benchmarks/real_corpus.py benchmarks/corpus/real-10000 --n 10000
    .venv/bin/python benchmarks/bench_safety_share.py benchmarks/corpus/real-10000 [--repeats 3]
    .venv/bin/python benchmarks/bench_safety_share.py benchmarks/corpus/real-10000 --keystroke
    .venv/bin/python benchmarks/bench_safety_share.py benchmarks/corpus/real-10000 --jobs 1 \
        --baseline /tmp/old-tree
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_check import check_argv
from bench_server import bench_server
from corpus import Corpus, load
from measure import run_timed

#: ``python -c`` program: ``skilldeck`` with the safety rules stubbed out. A stub that
#: no longer finds what it replaces exits 97 (not 1, which ``check`` uses for findings):
#: the stubbed runs would otherwise time an import and a traceback.
_WITHOUT_SAFETY = (
    "import sys\n"
    "try:\n"
    "    from skilldeck.engine.checks import _run, _sd10_safety\n"
    "    from skilldeck.engine.files import _skill_file\n"
    "    from skilldeck.engine.safety._bundle import BundleFindings\n"
    "    assert _sd10_safety.check_safety in _run.FILE_CHECKS\n"
    "    assert callable(_skill_file.bundle_findings)\n"
    "except (ImportError, AttributeError, AssertionError) as error:\n"
    "    print(f'the safety stub no longer applies: {error!r}', file=sys.stderr)\n"
    "    raise SystemExit(97) from None\n"
    "_run.FILE_CHECKS = tuple(c for c in _run.FILE_CHECKS if c is not _sd10_safety.check_safety)\n"
    "_skill_file.bundle_findings = lambda path: BundleFindings()\n"
    "from skilldeck.cli.main import main\n"
    "sys.argv[0] = 'skilldeck'\n"
    "raise SystemExit(main())\n"
)


def _argv(argv: list[str], *, safety: bool) -> list[str]:
    """``argv`` (``python -m skilldeck ...``) as shipped, or with the rules stubbed."""
    assert argv[1:3] == ["-m", "skilldeck"], argv
    if safety:
        return argv
    return [argv[0], "-c", _WITHOUT_SAFETY, *argv[3:]]


def _load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


@dataclass(frozen=True)
class _Variant:
    """One tree (``None``: the installed one), with or without its safety rules."""

    tree: str | None
    safety: bool

    @property
    def label(self) -> str:
        rules = "with the safety rules" if self.safety else "safety rules stubbed"
        return rules if self.tree is None else f"{rules} ({self.tree})"


def _rounds(trees: Sequence[str | None], repeats: int) -> Iterator[_Variant]:
    """Every variant once a round, the order reversed every other round."""
    variants = [_Variant(tree, safety) for tree in trees for safety in (True, False)]
    for attempt in range(repeats):
        yield from variants if attempt % 2 == 0 else reversed(variants)


@contextmanager
def _on_path(tree: str | None) -> Iterator[None]:
    """``PYTHONPATH`` pointing at ``tree``'s ``server`` folder while a variant runs (the
    children read it: ``Corpus.process_env`` copies ``os.environ``)."""
    before = os.environ.get("PYTHONPATH")
    if tree is not None:
        os.environ["PYTHONPATH"] = str(Path(tree) / "server")
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = before


def keystroke(
    corpus: Corpus,
    *,
    repeats: int,
    edits: int,
    trees: Sequence[str | None] = (None,),
    settle_s: float = 0.0,
) -> None:
    """``didChange`` to diagnostics in the language server, with and without the rules."""
    serve = [sys.executable, "-m", "skilldeck", "serve", "--cwd", corpus.cwd]
    runs: dict[_Variant, list[dict[str, float]]] = {}
    for variant in _rounds(trees, repeats):
        with _on_path(variant.tree):
            result = asyncio.run(
                bench_server(
                    corpus,
                    edits=edits,
                    queries=0,
                    server_argv=_argv(serve, safety=variant.safety),
                    settle_s=settle_s or None,
                )
            )
        runs.setdefault(variant, []).append(result["did_change"])  # type: ignore[arg-type]
    print(
        f"keystroke (didChange -> publishDiagnostics) on {corpus.n:,} skills, {edits} edits a run:"
    )
    for variant, results in runs.items():
        cells = ", ".join(
            f"p50 {r['p50_ms']:.1f} / p95 {r['p95_ms']:.1f} ms "
            f"(server CPU {r['server_cpu_ms']:.1f} ms)"
            for r in results
        )
        print(f"  {variant.label:24} {cells}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", help="a folder made by real_corpus.py or corpus.py")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each, alternating")
    parser.add_argument("--no-cache", action="store_true", help="check --no-cache")
    parser.add_argument(
        "--jobs",
        default=None,
        help="check -j N (1: no helper processes, whose deadline a loaded machine can pass)",
    )
    parser.add_argument("--keystroke", action="store_true", help="the language server instead")
    parser.add_argument("--edits", type=int, default=100, help="keystrokes a server run")
    parser.add_argument(
        "--settle",
        type=float,
        default=120.0,
        metavar="S",
        help="--keystroke: wait (at most S seconds) for the server's work after indexing "
        "to finish before typing, so its CPU a keystroke is the keystroke's (0: no wait)",
    )
    parser.add_argument(
        "--baseline",
        action="append",
        default=[],
        metavar="TREE",
        help="also run this checkout's skilldeck (PYTHONPATH=TREE/server), alternating",
    )
    args = parser.parse_args(argv)
    corpus = load(args.corpus)
    if corpus is None:
        parser.error(f"no corpus manifest in {args.corpus}")
    trees: list[str | None] = [None, *args.baseline]
    if args.keystroke:
        print(f"load average before: {_load()}")
        keystroke(corpus, repeats=args.repeats, edits=args.edits, trees=trees, settle_s=args.settle)
        print(f"load average after:  {_load()}")
        return 0
    base = check_argv(corpus, no_cache=args.no_cache)
    if args.jobs is not None:
        base += ["-j", str(args.jobs)]
    samples: dict[_Variant, list[tuple[float, float]]] = {}
    outputs: dict[_Variant, set[int]] = {}
    print(f"load average before: {_load()}")
    scratch = tempfile.mkdtemp(prefix="skilldeck-bench-share-")
    try:
        for attempt, variant in enumerate(_rounds(trees, args.repeats)):
            cache = os.path.join(scratch, f"cache-{attempt}")
            with _on_path(variant.tree):
                run = run_timed(
                    _argv(base, safety=variant.safety),
                    env={**corpus.process_env(), "SKILLDECK_CACHE_DIR": cache},
                    cwd=corpus.cwd,
                )
            if run.returncode not in (0, 1):
                raise RuntimeError(run.stderr.decode(errors="replace")[-2000:])
            samples.setdefault(variant, []).append((run.cpu, run.wall))
            outputs.setdefault(variant, set()).add(run.stdout.count(b'"code": "SD10'))
            shutil.rmtree(cache, ignore_errors=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"load average after:  {_load()}")
    kind = "check --no-cache" if args.no_cache else "cold check (empty cache dir)"
    print(f"{kind} of {corpus.n:,} skills ({args.corpus}), median of {args.repeats} runs each:")
    for tree in trees:
        medians = {}
        for safety in (True, False):
            variant = _Variant(tree, safety)
            cpu = statistics.median(s[0] for s in samples[variant])
            wall = statistics.median(s[1] for s in samples[variant])
            medians[safety] = cpu
            runs = ", ".join(f"{s[0]:.2f}" for s in samples[variant])
            print(f"  {variant.label:24} CPU {cpu:6.2f} s  wall {wall:6.2f} s  (CPU runs: {runs})")
        share = (medians[True] - medians[False]) / medians[True]
        print(
            f"  safety share of the CPU time: {share:.1%} "
            f"({medians[True] - medians[False]:.2f} s of {medians[True]:.2f} s)"
        )
        print(
            f"  SD10xx findings printed: {sorted(outputs[_Variant(tree, True)])} "
            f"(stubbed: {sorted(outputs[_Variant(tree, False)])})"
        )
    print(f"command: {' '.join(base)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
