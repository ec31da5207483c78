"""``textDocument/codeAction``: the engine's fixes as quick fixes, plus fix-all for a file.

Every :class:`~skilldeck.engine.rules.Fix` of a finding under the requested range
becomes one ``quickfix`` action with its exact edits and the finding's diagnostic
attached (``isPreferred`` when the finding has exactly one fix). ``source.fixAll.skilldeck``
applies the engine's fix-all (:func:`~skilldeck.engine.frontmatter.fix_all`): the first fix
of every finding that combines safely with the earlier ones. Edits carry the open
document's version (when the client supports ``documentChanges``), so a client never
applies them to text that changed since. Nothing is written by the server: the client
applies what the user accepts.

An SD801 diagnostic also gets "Declare `a` and `b` distinct", which adds the pair to the
config file's ``[overlap] distinct`` (:mod:`skilldeck.lsp.features.distinct_action`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from lsprotocol import types

from skilldeck.engine.checks import DESCRIPTION_PLACEHOLDER
from skilldeck.engine.frontmatter import fix_all
from skilldeck.engine.rules import Finding, TextEdit
from skilldeck.engine.text import Position, Span
from skilldeck.lsp.diagnostics import to_diagnostic
from skilldeck.lsp.features.distinct_action import distinct_actions
from skilldeck.lsp.skill_document import SkillDocument, load_document

if TYPE_CHECKING:
    from skilldeck.lsp.server import SkilldeckServer
    from skilldeck.lsp.session import Session

FIX_ALL = "source.fixAll.skilldeck"
FIX_ALL_TITLE = "Fix all skilldeck problems"


def register(server: SkilldeckServer) -> None:
    """Register ``textDocument/codeAction``."""

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL]),
    )
    async def code_action(params: types.CodeActionParams) -> list[types.CodeAction] | None:
        doc = await load_document(server.session, params.text_document.uri)
        if doc is None:
            return None
        session = server.session
        workspace = server.client_capabilities.workspace
        edit_caps = workspace.workspace_edit if workspace is not None else None
        versioned = bool(edit_caps and edit_caps.document_changes)
        snippets = versioned and bool(edit_caps and edit_caps.snippet_edit_support)

        def diagnostic(finding: Finding) -> types.Diagnostic:
            return to_diagnostic(finding, doc.line_source, session.encoding, session.lines)

        return actions(
            doc,
            params,
            versioned=versioned,
            diagnostic=diagnostic,
            session=session,
            capabilities=edit_caps,
            snippets=snippets,
        )


def _kind(kind: types.CodeActionKind | str) -> str:
    return kind.value if isinstance(kind, types.CodeActionKind) else kind


def _wanted(kind: str, only: list[str] | None) -> bool:
    if not only:
        return True
    return any(kind == want or kind.startswith(want + ".") for want in only)


def _touches(span: Span, start: Position, end: Position) -> bool:
    return span.start <= end and start <= span.end


def actions(
    doc: SkillDocument,
    params: types.CodeActionParams,
    *,
    versioned: bool,
    diagnostic: Callable[[Finding], types.Diagnostic],
    session: Session,
    capabilities: types.WorkspaceEditClientCapabilities | None,
    snippets: bool = False,
) -> list[types.CodeAction]:
    """The quick fixes under ``params.range`` (the engine's fixes, then "declare
    distinct" on SD801) and the file's fix-all."""
    only = [_kind(kind) for kind in params.context.only] if params.context.only else None
    start = doc.position(params.range.start)
    end = doc.position(params.range.end)
    findings = doc.fixable_findings
    result: list[types.CodeAction] = []
    if _wanted(types.CodeActionKind.QuickFix.value, only):
        for finding in findings:
            if not _touches(finding.span, start, end):
                continue
            attached = diagnostic(finding)
            for fix in finding.fixes:
                result.append(
                    types.CodeAction(
                        title=fix.title,
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[attached],
                        is_preferred=len(finding.fixes) == 1,
                        edit=workspace_edit(doc, fix.edits, versioned=versioned, snippets=snippets),
                    )
                )
        result += distinct_actions(
            doc, start, end, session=session, capabilities=capabilities, diagnostic=diagnostic
        )
    if findings and _wanted(FIX_ALL, only):
        combined = fix_all(doc.text, findings)
        if combined.edits:
            result.append(
                types.CodeAction(
                    title=FIX_ALL_TITLE,
                    kind=FIX_ALL,
                    diagnostics=[diagnostic(f) for f in combined.findings],
                    edit=workspace_edit(doc, combined.edits, versioned=versioned),
                )
            )
    return result


def _snippet_edit(doc: SkillDocument, edit: TextEdit) -> types.SnippetTextEdit:
    """``edit`` as a snippet whose first tab stop is the placeholder, selected."""
    before, _, after = edit.new_text.partition(DESCRIPTION_PLACEHOLDER)
    snippet = (
        _snippet_escape(before)
        + "${1:"
        + _snippet_escape(DESCRIPTION_PLACEHOLDER).replace("}", "\\}")
        + "}"
        + _snippet_escape(after)
    )
    return types.SnippetTextEdit(range=doc.range(edit.span), snippet=types.StringValue(snippet))


def _snippet_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("$", "\\$")


def workspace_edit(
    doc: SkillDocument,
    edits: tuple[TextEdit, ...] | list[TextEdit],
    *,
    versioned: bool,
    snippets: bool = False,
) -> types.WorkspaceEdit:
    """``edits`` of ``doc`` as a workspace edit (versioned ``documentChanges`` if allowed).

    With ``snippets`` (the client takes ``SnippetTextEdit``, LSP 3.18
    ``workspace.workspaceEdit.snippetEditSupport``), an edit that inserts the new-skill
    placeholder inserts it as a snippet placeholder: the client selects it, for the
    author to type over."""
    ordered = sorted(edits, key=lambda edit: (edit.span.start, edit.span.end))
    text_edits: list[types.TextEdit | types.AnnotatedTextEdit | types.SnippetTextEdit] = [
        _snippet_edit(doc, edit)
        if snippets and DESCRIPTION_PLACEHOLDER in edit.new_text
        else types.TextEdit(range=doc.range(edit.span), new_text=edit.new_text)
        for edit in ordered
    ]
    if versioned:
        return types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(
                        uri=doc.uri, version=doc.version
                    ),
                    edits=text_edits,
                )
            ]
        )
    plain = [types.TextEdit(range=doc.range(e.span), new_text=e.new_text) for e in ordered]
    return types.WorkspaceEdit(changes={doc.uri: plain})
