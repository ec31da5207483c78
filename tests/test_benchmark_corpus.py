"""The benchmark corpus generator: deterministic, and the deck it advertises.

The engine judges the generated files, so a change in either shows up here: the broken
files are exactly the ones rejected, and the shadowed names really are shadowed.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from corpus import FIXED_MTIME, generate, load
from skilldeck.engine.config._skilldeck_config import SkilldeckConfig
from skilldeck.engine.deck._deck import deck_findings
from skilldeck.engine.filesystem._fs_provider import scan_deck

N = 50


def _tree(top: Path) -> dict[str, str]:
    """Every file under ``top`` (relative path -> sha256), manifest excluded."""
    out: dict[str, str] = {}
    for dirpath, _, filenames in os.walk(top):
        for name in filenames:
            path = Path(dirpath) / name
            rel = path.relative_to(top).as_posix()
            if rel != "corpus.json":
                out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    top = tmp_path_factory.mktemp("corpus") / "deck"
    generate(top, N)
    return top


def test_same_seed_same_bytes(deck: Path, tmp_path: Path) -> None:
    again = generate(tmp_path / "again", N)
    assert _tree(tmp_path / "again") == _tree(deck)
    assert again.total_bytes == load(deck).total_bytes  # type: ignore[union-attr]


def test_other_seed_or_variant_differs(deck: Path, tmp_path: Path) -> None:
    generate(tmp_path / "seed", N, seed=10)
    generate(tmp_path / "dup", N, variant="near-duplicate")
    assert _tree(tmp_path / "seed") != _tree(deck)
    assert _tree(tmp_path / "dup") != _tree(deck)


def test_manifest_shape(deck: Path) -> None:
    corpus = load(deck)
    assert corpus is not None
    assert corpus.n == N
    assert [r.source for r in corpus.roots] == [
        "project-dsh",
        "project-agents",
        "custom",
        "user-dsh",
        "user-agents",
    ]
    assert [r.files for r in corpus.roots] == [16, 10, 7, 10, 7]
    assert len(corpus.skill_files) == N
    assert corpus.bundles + corpus.flat == N
    assert corpus.bundles > corpus.flat > 0
    assert corpus.shadowed == 4  # 10% of N, less one same-root pair
    assert corpus.same_root_duplicates == 2
    assert sum(corpus.broken.values()) == 3
    assert (deck / "project" / ".git").is_dir()
    assert corpus.env == {
        "DSH_HOME": str(deck / "home" / "dsh"),
        "DSH_AGENTS_HOME": str(deck / "home" / "agents"),
    }
    assert os.stat(corpus.probe).st_mtime == FIXED_MTIME


def test_sizes_and_frontmatter_styles(deck: Path) -> None:
    corpus = load(deck)
    assert corpus is not None
    sizes = [os.path.getsize(p) for p in corpus.skill_files]
    assert min(sizes) >= 2000
    assert max(sizes) <= 11_000
    texts = [Path(p).read_bytes().decode("utf-8", "replace") for p in corpus.skill_files]
    joined = "\n".join(texts)
    for marker in (
        "description: >-",
        'description: "',
        "description: '",
        "metadata:",
        "whenToUse:",
        "disable-model-invocation:",
    ):
        assert marker in joined, marker


def test_engine_sees_the_advertised_deck(deck: Path) -> None:
    corpus = load(deck)
    assert corpus is not None
    config = SkilldeckConfig(
        custom_skill_dirs=corpus.custom_dirs,
        dsh_home=corpus.env["DSH_HOME"],
        agents_home=corpus.env["DSH_AGENTS_HOME"],
    )
    scan = scan_deck(config, corpus.cwd)
    entries = scan.entries()
    assert sorted(e.path for e in entries) == sorted(corpus.skill_files)
    rejected = [e for e in entries if not e.analysis.accepted]
    assert len(rejected) == sum(corpus.broken.values())
    groups = scan.groups()
    losers = sum(len(members) - 1 for members in groups.values())
    assert losers == corpus.shadowed + corpus.same_root_duplicates // 2
    codes = Counter(f.code for fs in deck_findings(scan).values() for f in fs)
    assert codes["SD701"] == corpus.shadowed
    assert codes["SD703"] == corpus.same_root_duplicates
    probe_name = next(e.analysis.name for e in entries if e.path == corpus.probe)
    assert probe_name is not None
    assert len(groups[probe_name]) > 1  # the probe skill shadows another


def test_bench_pull_sees_every_report_once_then_nothing(deck: Path) -> None:
    import asyncio  # noqa: PLC0415

    from bench_pull import bench_pull  # noqa: PLC0415

    corpus = load(str(deck))
    assert corpus is not None
    result = asyncio.run(bench_pull(corpus, pulls=1))
    first, full, steady = result["first"], result["full"], result["steady"]
    assert isinstance(first, dict) and isinstance(full, dict) and isinstance(steady, dict)
    # The first pull may precede the routing-overlap findings (the server asks for a
    # refresh when they arrive); once settled, every report is there.
    assert 0 < first["items"] <= full["items"]  # the corpus has broken files
    assert (steady["items"], steady["bytes"]) == (0, len('{"items": []}'))
