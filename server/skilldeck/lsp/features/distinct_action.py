"""The quick fix "Declare `a` and `b` distinct" on an SD801 diagnostic.

Routing overlap is a judgement from words; a pair the author has checked and knows the
model tells apart is declared once in ``[overlap] distinct``
(:mod:`skilldeck.engine.config`). This action adds the pair there: in the
project's config file (``skilldeck.toml``, or ``[tool.skilldeck]`` of the
``pyproject.toml`` that holds the settings), or in a new ``skilldeck.toml`` at the
folder's root when there is none (only for a client that accepts file creation in a
workspace edit). The engine rewrites the file's text keeping its comments and layout; the
edit replaces the whole text (of the open buffer, when the file is open). Nothing is
written by the server: the client applies what the user accepts, and the changed config
file re-judges the deck.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from lsprotocol import types

from skilldeck.engine.config import declare_distinct
from skilldeck.engine.rules import Finding
from skilldeck.engine.text import Position, Span, split_lines
from skilldeck.lsp.diagnostics import uri_of
from skilldeck.lsp.positions import line_source, to_lsp_range

if TYPE_CHECKING:
    from skilldeck.lsp.session import Session
    from skilldeck.lsp.skill_document import SkillDocument

#: The config file made when the project has none.
NEW_CONFIG_FILE = "skilldeck.toml"


def distinct_actions(
    doc: SkillDocument,
    start: Position,
    end: Position,
    *,
    session: Session,
    capabilities: types.WorkspaceEditClientCapabilities | None,
    diagnostic: Callable[[Finding], types.Diagnostic],
) -> list[types.CodeAction]:
    """One "declare distinct" quick fix per SD801 finding of ``doc`` under ``start`` ..
    ``end`` (none when the config file cannot be read, or cannot be made here)."""
    name = doc.analysis.name
    if doc.index is None or doc.entry is None or name is None:
        return []
    reported = [
        (finding, other)
        for finding, other in doc.index.overlap.reported(doc.path)
        if finding.code == "SD801" and finding.span.start <= end and start <= finding.span.end
    ]
    if not reported:
        return []
    target = doc.config.config_file or os.path.join(doc.index.folder, NEW_CONFIG_FILE)
    text = _config_text(target, session)
    creating = text is None
    operations = list(capabilities.resource_operations or []) if capabilities else []
    if creating and not (
        capabilities
        and capabilities.document_changes
        and types.ResourceOperationKind.Create in operations
    ):
        return []
    pyproject = os.path.basename(target) == "pyproject.toml"
    result: list[types.CodeAction] = []
    for finding, other in reported:
        try:
            new_text = declare_distinct(text or "", (name, other.name), pyproject=pyproject)
        except ValueError:
            return []  # the file is broken: its own diagnostics say so
        result.append(
            types.CodeAction(
                title=(
                    f"Declare `{name}` and `{other.name}` distinct "
                    f"([overlap] distinct in {os.path.basename(target)})"
                ),
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[diagnostic(finding)],
                edit=_edit(target, text, new_text, session, capabilities),
            )
        )
    return result


def _config_text(path: str, session: Session) -> str | None:
    """The config file's text: the open buffer, else the file (``None``: no file)."""
    document = session.documents.get(path)
    if document is not None:
        return document.source
    try:
        with open(path, encoding="utf-8-sig") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError):
        return None


def _edit(
    path: str,
    old_text: str | None,
    new_text: str,
    session: Session,
    capabilities: types.WorkspaceEditClientCapabilities | None,
) -> types.WorkspaceEdit:
    """Replace ``path``'s whole text by ``new_text`` (make the file first when
    ``old_text`` is ``None``)."""
    document = session.documents.get(path)
    uri = document.uri if document is not None else uri_of(path)
    lines = split_lines(old_text or "")
    whole = Span(Position(0, 0), Position(len(lines) - 1, len(lines[-1])))
    edit = types.TextEdit(
        range=to_lsp_range(whole, line_source(old_text or ""), session.encoding),
        new_text=new_text,
    )
    if old_text is not None and not (capabilities and capabilities.document_changes):
        return types.WorkspaceEdit(changes={uri: [edit]})
    changes: list[types.TextDocumentEdit | types.CreateFile | types.RenameFile | types.DeleteFile]
    changes = [types.CreateFile(uri=uri)] if old_text is None else []
    changes.append(
        types.TextDocumentEdit(
            text_document=types.OptionalVersionedTextDocumentIdentifier(
                uri=uri, version=document.version if document is not None else None
            ),
            edits=[edit],
        )
    )
    return types.WorkspaceEdit(document_changes=changes)
