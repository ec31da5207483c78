"""Every generated file is what its declaration makes now: a changed rule or setting
without ``scripts/generate`` fails here, naming the file and the command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from skilldeck._generate import COMMAND, GENERATED, stale

ROOT = Path(__file__).resolve().parents[1]


def test_no_generated_file_is_stale() -> None:
    found = stale(ROOT)
    assert found == [], "\n".join(f"{path} is stale: run {COMMAND}" for path in found)


def test_the_check_names_a_stale_file_and_the_command(tmp_path: Path) -> None:
    # A copy of the generated files with one of them edited by hand.
    for relative in GENERATED:
        target = tmp_path / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((ROOT / relative).read_bytes())
    (tmp_path / "server" / "skilldeck").mkdir(parents=True, exist_ok=True)
    edited = tmp_path / "docs" / "settings.md"
    edited.write_text(edited.read_text(encoding="utf-8") + "hand edit\n", encoding="utf-8")
    check = subprocess.run(
        [sys.executable, "-m", "skilldeck._generate", str(tmp_path), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 1
    assert check.stderr == "docs/settings.md is stale: run scripts/generate\n"
    assert "hand edit" in edited.read_text(encoding="utf-8")  # --check writes nothing
    write = subprocess.run(
        [sys.executable, "-m", "skilldeck._generate", str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert write.stdout == "wrote docs/settings.md\n"
    assert stale(tmp_path) == []
