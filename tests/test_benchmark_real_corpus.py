"""The real-derived benchmark deck: renamed copies of a public collection, each name
rewritten where the engine reads it (skips when ``../shared/corpora`` is absent)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import real_corpus
from corpus import load
from skilldeck.engine.files._skill_file import analyze_skill_file


def test_copies_are_renamed_and_the_manifest_reads_back(tmp_path: Path) -> None:
    files = real_corpus.source_files(real_corpus.source_dir())
    if not files:
        pytest.skip("../shared/corpora is absent")
    n = len(files) + 41  # every skill once (-r1), then the first 41 again (-r2)
    corpus = real_corpus.build(tmp_path / "deck", n)
    assert load(tmp_path / "deck") == corpus
    written = [Path(path) for path in corpus.skill_files]
    assert len(written) == len({path.parent.name for path in written}) == n
    assert written[len(files)].parent.name == f"{files[0].parent.name}-r2"
    named = 0
    for path in written[:: max(1, n // 60)] + written[-3:]:
        analysis = analyze_skill_file(str(path), expected_name=path.parent.name)
        if analysis.name is not None:
            named += 1
            assert analysis.name == path.parent.name
    assert named > 30
    assert Path(corpus.probe).is_file()
    assert real_corpus.renamed("no frontmatter\n", "x-r1") == "no frontmatter\n"
    text = "---\nname: old\ndescription: d\nmetadata:\n  name: inner\n---\nname: body\n"
    assert real_corpus.renamed(text, "x-r1") == text.replace("name: old", "name: x-r1", 1)
