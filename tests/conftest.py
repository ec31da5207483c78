"""Fixtures every suite may use."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

import skilldeck

PACKAGE = Path(skilldeck.__file__).resolve().parent


@dataclass(frozen=True)
class PackageCopy:
    """A copy of the ``skilldeck`` package that a test may edit (a rule, a check, a
    setting) and run as a real process (``env()`` puts it first on ``PYTHONPATH``)."""

    root: Path

    @property
    def package(self) -> Path:
        return self.root / "skilldeck"

    def edit(self, old: str, new: str) -> Path:
        """Replace ``old`` (found exactly once in the package's Python files) by ``new``;
        the edited file."""
        hits = [
            (path, text)
            for path in sorted(self.package.rglob("*.py"))
            if old in (text := path.read_text(encoding="utf-8"))
        ]
        assert len(hits) == 1 and hits[0][1].count(old) == 1, (
            f"{old!r} must occur once in the package (found in {[str(p) for p, _ in hits]}): "
            "the code moved, update the test's edit"
        )
        path, text = hits[0]
        path.write_text(text.replace(old, new), encoding="utf-8")
        return path

    def env(self) -> dict[str, str]:
        """The variables that run the copy: first on ``PYTHONPATH``, bytecode written
        in it (an empty ``PYTHONDONTWRITEBYTECODE`` is unset)."""
        path = os.pathsep.join([str(self.root), *filter(None, [os.environ.get("PYTHONPATH")])])
        return {"PYTHONPATH": path, "PYTHONDONTWRITEBYTECODE": ""}


@pytest.fixture
def package_copy(tmp_path: Path) -> PackageCopy:
    """A fresh copy of the installed ``skilldeck`` package under ``tmp_path``."""
    root = tmp_path / "package-copy"
    shutil.copytree(PACKAGE, root / "skilldeck", ignore=shutil.ignore_patterns("__pycache__"))
    return PackageCopy(root)
