"""Where a deck scan spends its time: in-process timings and a cProfile listing.

    .venv/bin/python benchmarks/profile_scan.py DEST            # timings only
    .venv/bin/python benchmarks/profile_scan.py DEST --profile 30 --sort tottime

Timings (wall and CPU of this process) for ``scan_deck`` on the corpus in ``DEST``: as
shipped, warm from an index cache, plus the
per-file cost of ``analyze_skill_bytes`` alone and of libyaml's event stream alone (the
floor for any event-based frontmatter composer). ``--profile N`` prints the top N
functions of one cold single-threaded scan (cProfile only sees the calling thread).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import Corpus, load
from skilldeck.engine.config._rule_settings import RuleSettings
from skilldeck.engine.config._skilldeck_config import SkilldeckConfig
from skilldeck.engine.files._skill_file import analyze_skill_bytes
from skilldeck.engine.filesystem import _fs_provider as fs_provider
from skilldeck.engine.filesystem._index_cache import IndexCache


def config_for(corpus: Corpus) -> SkilldeckConfig:
    """The configuration ``skilldeck check --include-user-roots`` uses on ``corpus``."""
    return SkilldeckConfig(
        custom_skill_dirs=corpus.custom_dirs,
        dsh_home=corpus.env["DSH_HOME"],
        agents_home=corpus.env["DSH_AGENTS_HOME"],
    )


def timed(label: str, work: Callable[[], object], per: int = 0) -> None:
    """Run ``work`` once and print its wall and CPU time (and per-item CPU in us)."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    each = f"  {cpu / per * 1e6:7.1f} us/file" if per else ""
    print(f"{label:44} wall {wall:7.3f} s  cpu {cpu:7.3f} s{each}")


def _events_only(texts: Sequence[str]) -> None:
    try:
        from _ruamel_yaml import CParser  # type: ignore[import-not-found]  # noqa: PLC0415
    except ImportError:
        return
    from ruamel.yaml.events import StreamEndEvent  # noqa: PLC0415

    for text in texts:
        try:
            next_event = CParser(text).get_event
            while not isinstance(next_event(), StreamEndEvent):
                pass
        except Exception:  # broken files are part of the corpus
            continue


def _frontmatter_texts(corpus: Corpus) -> list[str]:
    texts: list[str] = []
    for path in corpus.skill_files:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if text.startswith("---\n"):
            end = text.find("\n---", 3)
            if end > 0:
                texts.append(text[4 : end + 1])
    return texts


def main(argv: Sequence[str] | None = None) -> int:
    """Print the timings (and optionally the profile) for one corpus."""
    parser = argparse.ArgumentParser(description="profile scan_deck on a corpus")
    parser.add_argument("corpus", help="a folder made by benchmarks/corpus.py")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="top N functions")
    parser.add_argument("--sort", default="cumulative", help="pstats sort key")
    args = parser.parse_args(argv)
    corpus = load(args.corpus)
    if corpus is None:
        parser.error(f"no corpus manifest in {args.corpus}")
    config = config_for(corpus)
    n = corpus.n

    def scan(cache: IndexCache | None = None) -> object:
        return fs_provider.scan_deck(config, corpus.cwd, cache=cache)

    scan()  # page cache and imports warm
    timed("scan_deck as shipped", scan, n)
    with tempfile.TemporaryDirectory() as folder:
        cache = IndexCache(folder)
        scan(cache)
        timed("scan_deck warm from the index cache", lambda: scan(cache), n)
    blobs = [(p, Path(p).read_bytes()) for p in corpus.skill_files]
    settings = RuleSettings()

    def analyze_all() -> None:
        for path, data in blobs:
            analyze_skill_bytes(data, path=path, expected_name=None, settings=settings)

    gc.disable()
    try:
        analyze_all()
        timed("analyze_skill_bytes only (GC off)", analyze_all, n)
        texts = _frontmatter_texts(corpus)
        timed("libyaml events only (GC off)", lambda: _events_only(texts), len(texts))
    finally:
        gc.enable()
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(scan)
        pstats.Stats(profile).sort_stats(args.sort).print_stats(args.profile)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
