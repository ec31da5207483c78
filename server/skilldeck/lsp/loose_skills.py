"""Open ``SKILL.md`` files outside every skill root: judged alone, as ``skilldeck check
<file>`` judges a lone file.

Such a file belongs to no deck (no shadowing, no mentions, no overlap), but it is a skill
by its name: ``check`` reports its own findings (the bundle's other files included) with
the folder's name as the expected name, and the editor shows the same, while the buffer is
open. Hover and quick fixes already read it this way (:mod:`skilldeck.lsp.skill_document`).
Tests: ``tests/lsp/test_workspace_folders.py``.
"""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING

from skilldeck.engine.config import SkilldeckConfig
from skilldeck.engine.files import (
    SkillFileAnalysis,
    analyze_skill_text,
    buffer_has_bom,
    bundle_findings_of,
    keep_bundle_findings,
    with_bundle_findings,
)
from skilldeck.engine.filesystem import BUNDLE_FILE
from skilldeck.engine.rules import Finding
from skilldeck.engine.safety import BundleFindings
from skilldeck.lsp.file_events import inside_or_equal

if TYPE_CHECKING:
    from skilldeck.lsp.session import Session


def loose_expected_name(path: str) -> str:
    """The name a lone ``SKILL.md`` should carry: its folder's (``check``'s rule)."""
    return os.path.basename(os.path.dirname(path))


class LooseSkills:
    """The verdicts of open ``SKILL.md`` files that no folder's roots hold."""

    def __init__(self, session: Session) -> None:
        self.session = session
        #: path -> (the text judged, the config judged with, the analysis).
        self._judged: dict[str, tuple[str, SkilldeckConfig, SkillFileAnalysis]] = {}
        #: path -> what its bundle's other files hold, read from disk.
        self._bundles: dict[str, BundleFindings] = {}
        self._reading: set[str] = set()

    def is_loose(self, path: str) -> bool:
        """Whether ``path`` is an open ``SKILL.md`` that no folder's roots hold (a file
        under a root whose file is gone, or misplaced there, is not: the deck decides)."""
        session = self.session
        if os.path.basename(path) != BUNDLE_FILE or session.documents.get(path) is None:
            return False
        for index in session.folders.values():
            if index.entry(path) is not None or (index.ready and index.classify(path)):
                return False
        return session.not_a_skill(path) is None

    def paths(self) -> set[str]:
        """Every open loose ``SKILL.md``, and the files of their bundles with safety
        findings."""
        loose = {path for path, _ in self.session.documents.items() if self.is_loose(path)}
        return loose | {file for path in loose for file, _f in self._bundle_located(path)}

    def bundle_file_findings(self, path: str) -> tuple[Finding, ...] | None:
        """The safety findings of ``path``, a file of an open loose skill's bundle, at
        that file; ``None`` when it is no such file."""
        for skill in list(self._bundles):
            if not self.is_loose(skill):
                continue
            found = tuple(f for file, f in self._bundle_located(skill) if file == path)
            if found:
                return found
        return None

    def _bundle_located(self, path: str) -> tuple[tuple[str, Finding], ...]:
        bundle = self._bundles.get(path)
        return bundle.located if bundle is not None else ()

    def config_of(self, path: str) -> SkilldeckConfig:
        """The configuration of the deepest folder holding ``path`` (outside every
        folder: the editor's settings, :meth:`SettingsSync.config_outside_folders`), as
        the hover and quick fixes of the file use."""
        best = None
        for index in self.session.folders.values():
            if inside_or_equal(path, index.folder) and (
                best is None or len(index.folder) > len(best.folder)
            ):
                best = index
        if best is not None:
            return best.config
        return self.session.settings_sync.config_outside_folders(os.path.dirname(path))

    def findings(self, path: str) -> tuple[Finding, ...] | None:
        """The findings of ``path`` judged alone; ``None`` when it is no loose skill."""
        if not self.is_loose(path):
            self.forget(path)
            return None
        document = self.session.documents.get(path)
        assert document is not None
        config = self.config_of(path)
        judged = self._judged.get(path)
        if judged is not None and judged[0] is document.source and judged[1] is config:
            analysis = judged[2]
        else:
            analysis = analyze_skill_text(
                document.source,
                path=path,
                expected_name=loose_expected_name(path),
                settings=config.rule_settings(),
                bom=buffer_has_bom(document.source, path),
            )
            self._judged[path] = (document.source, config, analysis)
        bundle = self._bundles.get(path)
        if bundle is None:
            self._read_bundle(path, analysis, config)
        else:
            analysis = keep_bundle_findings(analysis, bundle)
        return analysis.findings

    def opened(self, path: str) -> None:
        """A buffer opened: its bundle's other files are read again."""
        self._bundles.pop(path, None)

    def forget(self, path: str) -> None:
        """Drop what is kept for ``path`` (closed, or now in a root)."""
        self._judged.pop(path, None)
        self._bundles.pop(path, None)

    def _read_bundle(self, path: str, analysis: SkillFileAnalysis, config: SkilldeckConfig) -> None:
        if path in self._reading:
            return
        self._reading.add(path)
        self.session.spawn(self._bundle_of(path, analysis, config))

    async def _bundle_of(
        self, path: str, analysis: SkillFileAnalysis, config: SkilldeckConfig
    ) -> None:
        """Read the bundle's other files in a worker thread, then publish the file again."""
        try:
            found = await asyncio.to_thread(
                lambda: bundle_findings_of(with_bundle_findings(analysis, config.rule_settings()))
            )
        finally:
            self._reading.discard(path)
        if self.is_loose(path):
            before = {file for file, _f in self._bundle_located(path)}
            self._bundles[path] = found
            self.session.publisher.changed({path} | before | {file for file, _f in found.located})
