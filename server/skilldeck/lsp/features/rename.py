"""Renaming a skill: ``textDocument/prepareRename`` and ``textDocument/rename``.

Works with the cursor on a skill's ``name`` value (that skill) or on a ``/name`` mention
(the winning skill of that name). Anywhere else, the rest of the frontmatter included,
both requests are refused with the reason: an error, which clients show (VS Code shows
its message at the cursor; to a ``null`` answer it says "The element can't be renamed.").
The answer is one ``WorkspaceEdit`` with ``documentChanges``:

1. a ``RenameFile`` of the bundle folder (or the flat ``<name>.md``) to the new name,
   never overwriting (``overwrite: false``);
2. the ``name`` value edit, and every ``/name`` mention edit in every skill body of the
   deck and in every ``description`` and ``whenToUse`` (the text the model reads; a
   mention written with escapes there is left, and a message says where), addressed
   to the files' URIs *after* step 1 (versioned for open documents that did not move).

Mentions follow the winner: they are renamed only when the renamed skill is the one a
``/name`` gesture resolves to. The server writes nothing; the client applies the edit
as one unit. The file operation comes first so that its failure (the likely one: the
target appeared meanwhile, permission denied) leaves every file untouched even for a
client whose failure handling is ``abort``; clients with ``transactional`` or ``undo``
failure handling make the whole edit all-or-nothing.

Only the name's text is replaced (:func:`~skilldeck.lsp.scalar_text.scalar_text_span`):
anchors, tags, quotes, block-scalar headers and line breaks stay. Mentions inside
fenced or inline code are not gestures and are left alone.

Nothing outside the workspace folders is edited silently: a skill whose file lies
outside them (a user-level root shared by every project) is refused; mentions in files
outside them are offered as change annotations that need the user's confirmation, or
the rename is refused when the client cannot show those. Renaming a winner that shadows
a same-named skill says which skill wins the old name afterwards (the name edit's change
annotation, or a message).

Refusals are JSON-RPC errors (code ``-32803`` RequestFailed) with a message saying why:
not on a name, an invalid new name, a name already taken in the skill's root (by an
indexed skill or by a file or folder on disk), a name the file system cannot hold (more
bytes than a folder or file name may have, or a renamed path longer than a path may be:
the folder rename would fail while the other files' edits went through), an unknown
skill, a skill outside the workspace, or a client that cannot rename files through
workspace edits. They are the
user's answer, logged at info level (:class:`~skilldeck.lsp.refusals.RequestRefused`).
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lsprotocol import types

from skilldeck.engine.checks import name_problem
from skilldeck.engine.filesystem import FLAT_SUFFIX, SkillFileEntry
from skilldeck.engine.registry import SOURCE_USER_AGENTS, SOURCE_USER_DSH, is_skill_name
from skilldeck.engine.text import Span
from skilldeck.lsp.deck_mentions import deck_mentions, deck_value_mentions
from skilldeck.lsp.diagnostics import uri_of
from skilldeck.lsp.navigation import NameTarget, own_name_span, rename_target
from skilldeck.lsp.positions import to_lsp_range
from skilldeck.lsp.refusals import RequestRefused
from skilldeck.lsp.skill_document import SkillDocument, load_document

if TYPE_CHECKING:
    from skilldeck.lsp.index import FolderIndex
    from skilldeck.lsp.server import SkilldeckServer
    from skilldeck.lsp.session import Session

#: Change annotation ids of a rename's edits.
OUTSIDE_WORKSPACE = "skilldeck.outsideWorkspace"
PROMOTES = "skilldeck.promotes"


class RenameRefused(RequestRefused):
    """A rename the server will not propose; the message says why and what to do."""


@dataclass(frozen=True)
class RenamePlan:
    """What a rename touches: the skill's entry, its current name, and its index."""

    entry: SkillFileEntry
    old_name: str
    index: FolderIndex


def register(server: SkilldeckServer) -> None:
    """Register ``textDocument/prepareRename`` and ``textDocument/rename``."""
    session = server.session

    @server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
    async def prepare_rename(
        params: types.PrepareRenameParams,
    ) -> types.PrepareRenamePlaceholder | None:
        _check_client(server)
        doc = await load_document(session, params.text_document.uri)
        if doc is None:
            raise RenameRefused(_NOT_A_NAME)
        target = _target(doc, params.position)
        _check_inside(session, _plan(doc, target))
        span = target.span
        if target.kind == "mention":  # the name without its slash
            span = Span.at(span.start.line, span.start.character + 1, span.end.character)
        return types.PrepareRenamePlaceholder(range=doc.range(span), placeholder=target.name)

    @server.feature(types.TEXT_DOCUMENT_RENAME, types.RenameOptions(prepare_provider=True))
    async def rename(params: types.RenameParams) -> types.WorkspaceEdit | None:
        _check_client(server)
        doc = await load_document(session, params.text_document.uri)
        if doc is None:
            raise RenameRefused(_NOT_A_NAME)
        plan = _plan(doc, _target(doc, params.position))
        return await rename_edit(session, plan, params.new_name)


_NOT_A_NAME = "Rename works on a skill's 'name' value or on a '/name' mention in a skill body."


def _target(doc: SkillDocument, at: types.Position) -> NameTarget:
    target = rename_target(doc, doc.position(at))
    if target is None:
        raise RenameRefused(_NOT_A_NAME)
    return target


def _plan(doc: SkillDocument, target: NameTarget) -> RenamePlan:
    if doc.index is None:
        raise RenameRefused(f"{doc.path} is not in a skill root of this workspace.")
    if target.kind == "own":
        if doc.entry is None:
            raise RenameRefused(f"{doc.path} is not in a skill root of this workspace.")
        return RenamePlan(doc.entry, target.name, doc.index)
    group = doc.index.group(target.name)
    if not group:
        raise RenameRefused(f"No skill named '{target.name}' in this workspace.")
    return RenamePlan(group[0], target.name, doc.index)


def _check_client(server: SkilldeckServer) -> None:
    workspace = server.client_capabilities.workspace
    caps = workspace.workspace_edit if workspace is not None else None
    operations = list(caps.resource_operations or []) if caps is not None else []
    if not (caps and caps.document_changes and types.ResourceOperationKind.Rename in operations):
        raise RenameRefused(
            "Renaming a skill renames its folder or file, and this editor does not accept "
            "file renames in workspace edits (documentChanges with RenameFile)."
        )


def _destination(entry: SkillFileEntry, new_name: str) -> str:
    if entry.folder is not None:
        return os.path.join(entry.root.path, new_name)
    return os.path.join(entry.root.path, new_name + FLAT_SUFFIX)


def _taken_on_disk(entry: SkillFileEntry, new_name: str) -> str | None:
    """Blocking: a path in the root that already carries ``new_name``."""
    for candidate in (
        os.path.join(entry.root.path, new_name),
        os.path.join(entry.root.path, new_name + FLAT_SUFFIX),
    ):
        if os.path.lexists(candidate):
            return candidate
    return None


def _too_long_on_disk(entry: SkillFileEntry, new_name: str) -> str | None:
    """Blocking: why the file system cannot hold the renamed folder (or flat file) or
    the skill file in it; ``None`` when it can. The limits are the root's (``pathconf``:
    bytes per name, and per path with its terminating NUL)."""
    root = entry.root.path
    destination = _destination(entry, new_name)
    component = os.path.basename(destination)
    kind = "folder" if entry.folder is not None else "file"
    name_max = _path_limit(root, "PC_NAME_MAX", 255)
    size = len(os.fsencode(component))
    if size > name_max:
        return (
            f"'{_shortened(new_name)}' is too long for a {kind} name in {root}: {size} bytes, "
            f"and the file system allows at most {name_max} bytes per name. Choose a shorter "
            "name."
        )
    path_max = _path_limit(root, "PC_PATH_MAX", 4096)
    renamed = destination
    if entry.folder is not None:
        renamed = destination + entry.path[len(entry.folder) :]
    size = len(os.fsencode(renamed))
    if size >= path_max:
        return (
            f"'{_shortened(new_name)}' is too long for {root}: the renamed skill file's path "
            f"would be {size} bytes, and the file system allows paths of at most "
            f"{path_max - 1} bytes. Choose a shorter name."
        )
    return None


def _path_limit(folder: str, name: str, default: int) -> int:
    """``os.pathconf(folder, name)``, or ``default`` where it says nothing."""
    pathconf = getattr(os, "pathconf", None)
    try:
        limit = pathconf(folder, name) if pathconf is not None else -1
    except (OSError, ValueError):
        limit = -1
    return limit if isinstance(limit, int) and limit > 0 else default


def _shortened(name: str, keep: int = 40) -> str:
    """``name``, its middle elided when longer than ``keep`` characters (for a message)."""
    if len(name) <= keep:
        return name
    return f"{name[: keep // 2]}...{name[-(keep // 2) :]} ({len(name)} characters)"


def _inside(path: str, folder: str) -> bool:
    path, folder = os.path.normpath(path), os.path.normpath(folder)
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _in_workspace(session: Session, path: str) -> bool:
    return any(_inside(path, folder) for folder in session.folders)


def _annotations_supported(session: Session) -> bool:
    workspace = session.server.client_capabilities.workspace
    caps = workspace.workspace_edit if workspace is not None else None
    return caps is not None and caps.change_annotation_support is not None


def _check_inside(session: Session, plan: RenamePlan) -> None:
    """Refuse renaming a skill that lives outside every workspace folder."""
    entry = plan.entry
    if _in_workspace(session, entry.path):
        return
    shared = entry.root.source in (SOURCE_USER_DSH, SOURCE_USER_AGENTS)
    raise RenameRefused(
        f"'{plan.old_name}' is defined in {entry.path}, outside the workspace folders"
        + (
            f"; it is a user-level skill ({entry.root.source} root) every project shares"
            if shared
            else ""
        )
        + f". Open {entry.root.path} as a workspace folder to rename it there."
    )


def _promotion(plan: RenamePlan, new_name: str) -> str | None:
    """What wins the old name once the winner is renamed, when another skill carries it."""
    group = plan.index.group(plan.old_name)
    if len(group) < 2 or group[0].path != plan.entry.path or new_name == plan.old_name:
        return None
    heir = group[1]
    return (
        f"After this rename, '{plan.old_name}' from {heir.path} ({heir.root.source}, rank "
        f"{heir.root.rank}) is no longer shadowed and becomes the '{plan.old_name}' skill; "
        f"the /{plan.old_name} mentions in this workspace are renamed to /{new_name}."
    )


async def rename_edit(
    session: Session, plan: RenamePlan, new_name: str
) -> types.WorkspaceEdit | None:
    """The workspace edit renaming ``plan.entry`` to ``new_name`` (see the module doc)."""
    entry = plan.entry
    if not is_skill_name(new_name):
        raise RenameRefused(
            f"'{new_name}' is not a valid skill name: {name_problem(new_name)}. Use lowercase "
            "letters, digits and single hyphens, e.g. 'pdf-forms'."
        )
    if new_name == plan.old_name and entry.expected_name == new_name:
        return None
    _check_inside(session, plan)
    root = entry.root
    for other in plan.index.entries():
        if other.root.path != root.path or other.path == entry.path:
            continue
        if new_name in (other.analysis.name, other.expected_name):
            raise RenameRefused(
                f"'{new_name}' is already taken in the {root.source} root ({root.path}) "
                f"by {other.path}."
            )
    moves = entry.expected_name != new_name
    if moves:
        too_long = await asyncio.to_thread(_too_long_on_disk, entry, new_name)
        if too_long is not None:
            raise RenameRefused(too_long)
        existing = await asyncio.to_thread(_taken_on_disk, entry, new_name)
        if existing is not None:
            raise RenameRefused(
                f"'{new_name}' is already taken in the {root.source} root: {existing} exists."
            )
    skill_doc = await load_document(session, uri_of(entry.path))
    span = own_name_span(skill_doc) if skill_doc is not None else None
    if skill_doc is None or span is None:
        raise RenameRefused(f"Cannot read the 'name' of {entry.path}.")

    old_dir = entry.folder if entry.folder is not None else entry.path
    new_dir = _destination(entry, new_name)

    def moved(path: str) -> str:
        if not moves:
            return path
        if path == old_dir or path.startswith(old_dir + os.sep):
            return new_dir + path[len(old_dir) :]
        return path

    annotate = _annotations_supported(session)
    annotations: dict[str, types.ChangeAnnotation] = {}
    promotion = _promotion(plan, new_name)
    name_range = skill_doc.range(span)
    name_edit: types.TextEdit | types.AnnotatedTextEdit
    name_edit = types.TextEdit(range=name_range, new_text=new_name)
    if promotion is not None and annotate:
        annotations[PROMOTES] = types.ChangeAnnotation(
            label=f"Rename '{plan.old_name}' to '{new_name}'", description=promotion
        )
        name_edit = types.AnnotatedTextEdit(
            annotation_id=PROMOTES, range=name_range, new_text=new_name
        )
    edits: dict[str, list[types.TextEdit | types.AnnotatedTextEdit]] = {}
    edits.setdefault(entry.path, []).append(name_edit)
    outside: set[str] = set()
    group = plan.index.group(plan.old_name)
    left: dict[str, int] = {}
    if group and group[0].path == entry.path:
        in_values, left = await deck_value_mentions(session, plan.index, plan.old_name)
        in_bodies = await deck_mentions(session, plan.index, plan.old_name)
        for mention in in_values + in_bodies:
            name_only = Span.at(
                mention.span.start.line,
                mention.span.start.character + 1,
                mention.span.end.character,
            )
            lsp_range = to_lsp_range(name_only, mention.line_source, session.encoding)
            edit: types.TextEdit | types.AnnotatedTextEdit
            if _in_workspace(session, mention.path):
                edit = types.TextEdit(range=lsp_range, new_text=new_name)
            else:
                outside.add(mention.path)
                edit = types.AnnotatedTextEdit(
                    annotation_id=OUTSIDE_WORKSPACE, range=lsp_range, new_text=new_name
                )
            edits.setdefault(mention.path, []).append(edit)
    if outside:
        listed = ", ".join(sorted(outside))
        if not annotate:
            raise RenameRefused(
                f"Renaming '{plan.old_name}' would also edit /{plan.old_name} mentions in "
                f"{len(outside)} file(s) outside the workspace folders ({listed}), and this "
                "editor cannot ask to confirm such edits (change annotations). Rename them "
                "by hand, or open their folder in the workspace."
            )
        annotations[OUTSIDE_WORKSPACE] = types.ChangeAnnotation(
            label="Outside the workspace",
            needs_confirmation=True,
            description=f"/{plan.old_name} mentions in skills outside the workspace "
            f"folders: {listed}",
        )
    changes: list[
        types.TextDocumentEdit | types.CreateFile | types.RenameFile | types.DeleteFile
    ] = []
    if moves:
        changes.append(
            types.RenameFile(
                old_uri=uri_of(old_dir),
                new_uri=uri_of(new_dir),
                options=types.RenameFileOptions(overwrite=False, ignore_if_exists=False),
            )
        )
    documents = session.documents
    for path, file_edits in edits.items():
        target = moved(path)
        open_doc = documents.get(path)
        version = open_doc.version if open_doc is not None and target == path else None
        file_edits.sort(key=lambda e: (e.range.start.line, e.range.start.character))
        changes.append(
            types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(
                    uri=uri_of(target), version=version
                ),
                edits=list(file_edits),
            )
        )
    if promotion is not None and not annotate:  # said once the rename is sure to be offered
        session.server.window_show_message(
            types.ShowMessageParams(type=types.MessageType.Info, message=promotion)
        )
    if left:
        count = sum(left.values())
        listed = ", ".join(sorted(left))
        session.server.window_show_message(
            types.ShowMessageParams(
                type=types.MessageType.Warning,
                message=f"Renaming '{plan.old_name}' leaves {count} /{plan.old_name} "
                f"mention(s) in a description or whenToUse written with escapes ({listed}): "
                "edit them by hand.",
            )
        )
    return types.WorkspaceEdit(document_changes=changes, change_annotations=annotations or None)
