"""One skill document as the editing features see it: text, analysis, place in the deck.

Every editing feature (completion, hover, navigation, code lens, rename, symbols,
links, folding) starts from a :class:`SkillDocument`: the current text (the unsaved
buffer when the document is open, else the file read in a worker thread), the engine's
analysis of *that* text, the folder index and entry that place it in a root, and the
profile in force. Conversions between engine positions (code points) and LSP positions
go through :mod:`skilldeck.lsp.positions`, never anywhere else.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from lsprotocol import types

from skilldeck.engine.config import SkilldeckConfig
from skilldeck.engine.files import (
    SkillFileAnalysis,
    SkillReadError,
    analyze_skill_text,
    buffer_has_bom,
    decode_skill_bytes,
    read_skill_bytes,
)
from skilldeck.engine.filesystem import (
    BUNDLE_FILE,
    FLAT_SUFFIX,
    Layout,
    NotASkill,
    SkillFileEntry,
    name_span,
)
from skilldeck.engine.frontmatter import Frontmatter, FrontmatterBounds, find_frontmatter
from skilldeck.engine.registry import DirectoryResourceBase, SkillSummary
from skilldeck.engine.rules import Finding, Profile, get_profile
from skilldeck.engine.text import Encoding, Position, Span, split_lines
from skilldeck.lsp.positions import (
    LineSource,
    from_lsp_position,
    line_source,
    to_lsp_range,
)

if TYPE_CHECKING:
    from skilldeck.lsp.index import FolderIndex
    from skilldeck.lsp.session import Session


@dataclass(frozen=True)
class SkillDocument:
    """A skill file's current text and everything the engine says about it.

    ``entry`` is the folder index's entry (root, layout, expected name) when the file
    lies in one of the folder's roots; ``None`` for a skill file outside every root,
    which still gets frontmatter completion and hover under the folder's profile.
    ``analysis`` is always computed from ``text``. ``not_a_skill`` is set for a
    Markdown file under a root that the skill layout does not pick up (``SD007``):
    nothing may present it as a skill. ``file_gone`` is set for an open buffer of a skill
    file under a root whose file is no longer on disk: the deck has left it out (it is
    judged again once saved), so nothing may present it as loaded.
    """

    uri: str
    path: str
    text: str
    version: int | None
    encoding: Encoding
    index: FolderIndex | None
    entry: SkillFileEntry | None
    layout: Layout
    expected_name: str
    analysis: SkillFileAnalysis
    profile: Profile
    config: SkilldeckConfig
    lines: tuple[str, ...]
    not_a_skill: NotASkill | None = None
    file_gone: bool = False

    @property
    def fixable_findings(self) -> list[Finding]:
        """Findings of this text that carry fixes: the file's own and its ``/name``
        mentions judged against the folder's deck (the engine's ``mention_findings``)."""
        found = [f for f in self.analysis.findings if f.fixes]
        if self.index is not None and self.entry is not None and self.analysis.mentions:
            mentions = self.index.mention_findings(self.entry)
            found.extend(f for f in mentions if f.fixes)
        return found

    # -- text ----------------------------------------------------------------------

    @property
    def frontmatter(self) -> Frontmatter | None:
        """The parsed frontmatter (``None`` when the YAML is missing or invalid)."""
        return self.analysis.frontmatter

    @property
    def bounds(self) -> FrontmatterBounds | str | None:
        """The textual frontmatter bounds (see :func:`find_frontmatter`)."""
        return find_frontmatter(self.text)

    def line(self, number: int) -> str:
        """Line ``number`` without its line break (``""`` past the end)."""
        return self.lines[number] if 0 <= number < len(self.lines) else ""

    def frontmatter_lines(self) -> tuple[int, int] | None:
        """``(first, closing)``: the opening ``---`` line and the closing line.

        An unterminated frontmatter (the user is still typing it) runs to the end of
        the document; ``None`` when the first line is not ``---``.
        """
        if not self.lines or self.lines[0].lstrip("\ufeff") != "---":
            return None
        for number in range(1, len(self.lines)):
            if self.lines[number] == "---":
                return 0, number
        return 0, len(self.lines)

    def body_start_line(self) -> int:
        """The first line of the Markdown body (0 when there is no frontmatter)."""
        fm = self.frontmatter_lines()
        if fm is None:
            return 0
        return min(fm[1] + 1, len(self.lines))

    # -- positions -----------------------------------------------------------------

    @property
    def line_source(self) -> LineSource:
        """Line text for position conversion."""
        return line_source(self.text)

    def position(self, position: types.Position) -> Position:
        """An LSP position in this document as an engine position."""
        return from_lsp_position(position, self.line_source, self.encoding)

    def range(self, span: Span) -> types.Range:
        """An engine span in this document as an LSP range."""
        return to_lsp_range(span, self.line_source, self.encoding)

    # -- skill ---------------------------------------------------------------------

    @property
    def resource_dir(self) -> str:
        """Where relative resources resolve (the engine's rule: bundle folder, or root)."""
        if self.entry is not None:
            return self.entry.resource_dir
        return os.path.dirname(self.path)

    def resource_summary(self) -> SkillSummary:
        """A summary carrying this skill's resource base, for ``resolve_resource``."""
        return SkillSummary(
            name=self.analysis.name or self.expected_name,
            description=self.analysis.description or "",
            source=self.entry.root.source if self.entry is not None else "",
            provider="filesystem",
            resource_base=DirectoryResourceBase(self.resource_dir),
        )

    def group(self) -> list[SkillFileEntry]:
        """Accepted entries sharing this skill's name, winner first (empty when none)."""
        name = self.analysis.name
        if self.index is None or not name:
            return []
        return self.index.group(name)


def _read_text(path: str) -> str | None:
    """The decoded text of a skill file (blocking: run it in a worker thread)."""
    try:
        return decode_skill_bytes(read_skill_bytes(path))
    except SkillReadError:
        return None


def _locate(
    session: Session, path: str, uri: str
) -> tuple[FolderIndex | None, SkillFileEntry | None]:
    for index in session.folders.values():
        entry = index.entry(path)
        if entry is not None:
            return index, entry
    for index in session.folders.values():
        if index.ready and index.classify(path) is not None:
            return index, None
    return session.folder_for(uri), None


def _layout_of(path: str, *, misplaced: bool) -> tuple[Layout, str] | None:
    """Outside every root only a ``SKILL.md`` is known to be a skill (a bundle); a
    misplaced Markdown file is read as the skill it looks like."""
    base = os.path.basename(path)
    if base == BUNDLE_FILE:
        return "bundle", os.path.basename(os.path.dirname(path))
    if misplaced:
        return "flat", base[: -len(FLAT_SUFFIX)]
    return None


async def load_document(session: Session, uri: str) -> SkillDocument | None:
    """The :class:`SkillDocument` of ``uri``; ``None`` when it is no Markdown skill file.

    Waits for the first index, lets pending buffer edits reach the index, and reads an
    unopened file in a worker thread (the event loop never waits on disk).
    """
    await session.wait_indexed()
    await asyncio.sleep(0)  # let a just-received didChange reach the index first
    path = session.documents.path_of(uri)
    if path is None:
        return None
    document = session.documents.get(path)
    if document is not None:
        text: str | None = document.source
        version: int | None = document.version
    else:
        text = await asyncio.to_thread(_read_text, path)
        version = None
    if text is None:
        return None
    index, entry = _locate(session, path, uri)
    hit = index.classify(path) if index is not None and entry is None else None
    # An open buffer under a root that the deck left out: its file is gone from disk.
    gone = (
        hit is not None
        and document is not None
        and not await asyncio.to_thread(os.path.isfile, path)
    )
    misplaced: NotASkill | None = None
    if entry is not None:
        layout: Layout = entry.layout
        expected = entry.expected_name
    elif hit is not None:
        layout, expected = hit[1], hit[2]
    else:
        misplaced = session.not_a_skill(path)
        guessed = _layout_of(path, misplaced=misplaced is not None)
        if guessed is None:
            return None
        layout, expected = guessed
    config = index.config if index is not None else session.loose.config_of(path)
    settings = config.rule_settings()
    reused = index.analysis_of_text(path, text) if index is not None and entry is not None else None
    analysis = (
        reused
        if reused is not None
        else analyze_skill_text(
            text,
            path=path,
            expected_name=expected,
            settings=settings,
            bom=buffer_has_bom(text, path),
        )
    )
    if entry is not None:
        entry = replace(entry, analysis=analysis, name_span=name_span(analysis))
    elif hit is not None:
        folder = os.path.dirname(path) if layout == "bundle" else None
        entry = SkillFileEntry(
            hit[0], layout, path, folder, expected, analysis, name_span(analysis)
        )
    lines = tuple(split_lines(text))
    return SkillDocument(
        uri=uri,
        path=path,
        text=text,
        version=version,
        encoding=session.encoding,
        index=index,
        entry=entry,
        layout=layout,
        expected_name=expected,
        analysis=analysis,
        profile=get_profile(settings.profile),
        config=config,
        lines=lines,
        not_a_skill=misplaced,
        file_gone=gone,
    )
