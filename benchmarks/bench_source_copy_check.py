"""What checking a git source's cached copy costs each time it is used.

A copy is served only when it matches its mark (every file's path and size as fetched,
``git_cache.is_whole``), so each lookup, ``skilldeck sources`` and the editor's refresh
timer walk the copy's tree. This makes a copy of ``--skills`` skills (each a ``SKILL.md``,
a reference and a script: three files and three folders) and times, over ``--rounds``
rounds (the median, in ms):

- ``mark only``: reading the mark's first line (what was checked before: no walk);
- ``is_whole``: the check now (the mark, then the walk and the digest);
- ``scan``: the engine's scan of the same skills (what every lookup does anyway).

Not a test: numbers, not pass/fail. Scratch files go to a temp dir.

    .venv/bin/python benchmarks/bench_source_copy_check.py [--skills 1000] [--rounds 20]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from skilldeck.engine.config._skilldeck_config import SkilldeckConfig
from skilldeck.engine.filesystem._fs_provider import scan_root
from skilldeck.engine.filesystem._roots import SkillRoot
from skilldeck.engine.sources._git_cache import is_whole, tree_digest


def _make_copy(rev: Path, skills: int) -> str:
    commit = "0" * 40
    for number in range(skills):
        folder = rev / "skills" / f"skill-{number:05d}"
        (folder / "references").mkdir(parents=True)
        (folder / "scripts").mkdir()
        (folder / "SKILL.md").write_text(
            f"---\nname: skill-{number:05d}\ndescription: Skill number {number}.\n---\n\n"
            + "Body text.\n" * 40,
            encoding="utf-8",
        )
        (folder / "references" / "guide.md").write_text("A guide.\n" * 100, encoding="utf-8")
        (folder / "scripts" / "run.py").write_text("print('run')\n", encoding="utf-8")
    (rev / ".skilldeck-rev").write_text(f"{commit}\n{tree_digest(rev)}\n", encoding="utf-8")
    return commit


def _median_ms(function: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        function()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skills", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        rev = Path(scratch) / "rev-copy"
        commit = _make_copy(rev, args.skills)
        mark = rev / ".skilldeck-rev"
        assert is_whole(rev, commit)
        root = SkillRoot(350, "git:bench", str(rev / "skills"), True)
        settings = SkilldeckConfig().rule_settings()
        rows = [
            ("mark only", _median_ms(lambda: mark.read_text(encoding="utf-8"), args.rounds)),
            ("is_whole", _median_ms(lambda: is_whole(rev, commit), args.rounds)),
            ("scan", _median_ms(lambda: scan_root(root, settings), args.rounds)),
        ]
    print(f"{args.skills} skills ({3 * args.skills} files), median of {args.rounds} rounds:")
    for name, ms in rows:
        print(f"  {name:<10} {ms:8.2f} ms")


if __name__ == "__main__":
    main()
