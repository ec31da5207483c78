"""``textDocument/completion`` for skill files.

In the frontmatter: the active profile's keys not yet written (documentation, default
and the surface each controls, all from :mod:`skilldeck.engine.rules`), values for a
key (the profile's values, e.g. ``true``/``false``; the folder or file name for
``name``), and a snippet with the profile's required keys in an empty skill file. In the
body: ``/name`` of user-invocable skills (winners of the deck), and the relative paths of
files inside a bundle's folder.

Every item carries a ``filterText`` (the text its edit writes, or what was typed for a
near miss): a client may trust an item with a text edit but no filter text to be
filtered already (Neovim 0.11, ``runtime/lua/vim/lsp/completion.lua``), and the server
does not filter. An item replaces the whole word the cursor is in, not only what is
before the cursor (``/al|pha`` never becomes ``/alphapha``): a key or a value; a
``/name`` mention's slash and name characters; a path's last part typed before the
cursor and the rest of the path after it (to whitespace, a closing bracket or quote, a
``#fragment``, or the punctuation ending a sentence). A client that declares
``insertReplaceSupport`` gets mention and path items as an ``InsertReplaceEdit``
(insert: up to the cursor; replace: the whole token) when the token goes on after the
cursor, and lets its user choose (VS Code: ``editor.suggest.insertMode``); other clients
get the whole token's range.

Completion runs as the user types: the trigger characters are ``/``, ``-`` and the ASCII
letters (a letter outside the frontmatter, a mention or a link answers nothing). A key
item whose key has values to suggest carries the command ``editor.action.triggerSuggest``,
so accepting ``name`` goes on to its value.

Typing frontmatter by hand must not fight the suggest widget, where Enter accepts the
selected item: the snippet comes only in an empty file, or when asked for (Ctrl+Space)
while the file holds nothing but (the start of) a ``---`` line (never while ``---`` is
being typed, where Enter means a new line); values come, as they are typed, only while
what is typed is the start of one and not yet a whole one (the list is re-asked at every
character), so a value typed whole (``Read``) or typed otherwise (``PDF-Forms``) leaves
no list for Enter to accept.

``allowed-tools`` and ``disallowed-tools`` offer Claude Code's tool names
(:mod:`skilldeck.lsp.tool_names`) for the entry of the list the cursor is in, less those
already written.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import re
import string
from bisect import bisect_left
from collections.abc import Callable
from typing import TYPE_CHECKING

from lsprotocol import types

from skilldeck.engine.checks import DESCRIPTION_PLACEHOLDER, could_mean
from skilldeck.engine.filesystem import BUNDLE_FILE
from skilldeck.engine.frontmatter import profile_key, profile_keys
from skilldeck.engine.model_view import resolve_resource
from skilldeck.engine.registry import is_skill_name
from skilldeck.engine.text import Position, Span, catalog_description
from skilldeck.lsp.frontmatter_cursor import Slot, slot_at, top_level_keys
from skilldeck.lsp.key_docs import documentation, key_detail, key_markdown
from skilldeck.lsp.markdown_body import in_code
from skilldeck.lsp.skill_document import SkillDocument, load_document
from skilldeck.lsp.tool_names import CLAUDE_CODE_TOOLS, TOOL_LIST_KEYS, TOOLS_SOURCE

if TYPE_CHECKING:
    from skilldeck.lsp.index import FolderIndex
    from skilldeck.lsp.server import SkilldeckServer

#: Most ``/name`` items in one answer; more make the list incomplete (re-asked as typed).
MENTION_LIMIT = 50
#: Most path items in one answer.
PATH_LIMIT = 500

#: Characters that ask the client for completion as they are typed.
TRIGGER_CHARACTERS = ["/", "-", *string.ascii_letters]
#: The client command that opens the suggestions again (after a key is accepted), as
#: typing opens them (``auto``): a list that filters down to nothing closes, where an
#: explicit request would stay open on "No suggestions." and take the next Enter.
TRIGGER_SUGGEST = types.Command(
    "Suggest", "editor.action.triggerSuggest", arguments=[{"auto": True}]
)

_MENTION_HEAD = re.compile(r"(?:^|(?<=\s))/([a-z0-9-]*)$")
_MENTION_TAIL = re.compile(r"[\w-]*")
_PATH_HEAD = re.compile(r"[^\s()\[\]<>\"'`]*$")
_PATH_TAIL = re.compile(r"[^\s()\[\]<>\"'`#]*")
#: Punctuation after a path that ends the sentence, not the path (as document links read).
_SENTENCE_END = ".,;:!?"


def register(server: SkilldeckServer) -> None:
    """Register ``textDocument/completion``."""

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=TRIGGER_CHARACTERS),
    )
    async def completion(params: types.CompletionParams) -> types.CompletionList | None:
        doc = await load_document(server.session, params.text_document.uri)
        if doc is None:
            return None
        snippets, formats, insert_replace = _item_support(server)
        invoked = params.context is None or (
            params.context.trigger_kind == types.CompletionTriggerKind.Invoked
        )
        return await complete(
            doc,
            params.position,
            snippets=snippets,
            invoked=invoked,
            formats=formats,
            insert_replace=insert_replace,
        )


def _item_support(server: SkilldeckServer) -> tuple[bool, list[types.MarkupKind], bool]:
    """The client's snippet support, documentation formats and ``insertReplaceSupport``."""
    text = server.client_capabilities.text_document
    completion = text.completion if text is not None else None
    item = completion.completion_item if completion is not None else None
    formats = list(item.documentation_format or []) if item is not None else []
    return bool(item and item.snippet_support), formats, bool(item and item.insert_replace_support)


async def complete(
    doc: SkillDocument,
    at: types.Position,
    *,
    snippets: bool,
    invoked: bool,
    formats: list[types.MarkupKind] | None = None,
    insert_replace: bool = False,
) -> types.CompletionList | None:
    """The completion list at ``at`` in ``doc`` (``None`` when nothing applies);
    ``insert_replace``: the client takes ``InsertReplaceEdit`` (see the module doc)."""
    position = doc.position(at)
    frontmatter = doc.frontmatter_lines()
    starting = doc.not_a_skill is None and _blank_start(doc) and position.line <= 1
    fresh = starting and (invoked or not any(line.strip() for line in doc.lines))
    if frontmatter is None:
        if position.line == 0 and fresh:
            item = _snippet(doc, snippets, formats)
            return types.CompletionList(is_incomplete=False, items=[item])
        if position.line == 0 and starting:
            return None  # `-`, `--` typed: a frontmatter line, not a path
        return await _body(doc, position, invoked, insert_replace)
    first, closing = frontmatter
    if position.line == first and starting:
        items = [_snippet(doc, snippets, formats)] if fresh else []
        return types.CompletionList(is_incomplete=False, items=items) if items else None
    if first < position.line < closing:
        items, values = _frontmatter(doc, position, closing, formats, invoked)
        if fresh:
            items.insert(0, _snippet(doc, snippets, formats))
        # Values are re-asked at every character (see the module's docstring).
        return types.CompletionList(is_incomplete=values, items=items) if items else None
    if position.line > closing:
        return await _body(doc, position, invoked, insert_replace)
    return None


# -- frontmatter -------------------------------------------------------------------------


def _blank_start(doc: SkillDocument) -> bool:
    """An empty file, or one whose only text is (the start of) ``---`` on line 0."""
    first = doc.line(0).lstrip("\ufeff").strip()
    return "---".startswith(first) and not any(line.strip() for line in doc.lines[1:])


def _snippet(
    doc: SkillDocument, snippets: bool, formats: list[types.MarkupKind] | None
) -> types.CompletionItem:
    """The whole-frontmatter item: the profile's required keys, then the body."""
    name = doc.expected_name if is_skill_name(doc.expected_name) else "my-skill"
    rows_snippet: list[str] = []
    rows_plain: list[str] = []
    stop = 1
    for info in doc.profile.keys:
        if not info.required:
            continue
        example = name if info.key == "name" else DESCRIPTION_PLACEHOLDER
        rows_snippet.append(f"{info.key}: ${{{stop}:{_snippet_escape(example)}}}")
        rows_plain.append(f"{info.key}: {example}")
        stop += 1
    snippet = "---\n" + "\n".join(rows_snippet) + "\n---\n\n# ${1}\n\n$0"
    plain = "---\n" + "\n".join(rows_plain) + f"\n---\n\n# {name}\n\n"
    last = len(doc.lines) - 1 if doc.lines else 0
    whole = Span(Position(0, 0), Position(last, len(doc.line(last))))
    return types.CompletionItem(
        label="skill frontmatter",
        kind=types.CompletionItemKind.Snippet,
        detail=f"New skill ({doc.profile.name} profile)",
        documentation=documentation("```markdown\n" + plain + "```", formats),
        filter_text="---",
        insert_text_format=(
            types.InsertTextFormat.Snippet if snippets else types.InsertTextFormat.PlainText
        ),
        text_edit=types.TextEdit(range=doc.range(whole), new_text=snippet if snippets else plain),
    )


def _snippet_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")


def _frontmatter(
    doc: SkillDocument,
    position: Position,
    closing: int,
    formats: list[types.MarkupKind] | None,
    invoked: bool,
) -> tuple[list[types.CompletionItem], bool]:
    """The items at ``position``, and whether they are values (re-asked as typed)."""
    slot = slot_at(doc.line(position.line), position.line, position.character)
    if slot is None:
        return [], False
    if slot.kind == "key":
        return _keys(doc, slot, closing, formats), False
    return _values(doc, slot, position.character, invoked), True


def _keys(
    doc: SkillDocument, slot: Slot, closing: int, formats: list[types.MarkupKind] | None
) -> list[types.CompletionItem]:
    lines = list(doc.lines)
    present = top_level_keys(lines[: slot.line], 1, slot.line) | top_level_keys(
        lines, slot.line + 1, closing
    )
    edit_range = doc.range(Span.at(slot.line, slot.start, slot.end))
    typed = doc.line(slot.line)[slot.start : slot.end]
    items: list[types.CompletionItem] = []
    # Documented with the profile's host facts (profile_keys); ordered as a new skill is
    # written (the profile's own keys: name and description first).
    documented = profile_keys(doc.profile)
    for order, (written, info) in enumerate(zip(doc.profile.keys, documented, strict=True)):
        if info.key in present:
            continue
        # A near miss being typed (`user_inv`, `Descripton`) still finds its key: the
        # client filters on what was typed, so that is the item's filter text.
        meant = not info.key.startswith(typed) and could_mean(typed, info.key)
        items.append(
            types.CompletionItem(
                label=info.key,
                kind=types.CompletionItemKind.Property,
                detail=key_detail(info),
                documentation=documentation(key_markdown(info, doc.profile), formats),
                sort_text=f"{0 if written.required else 1}{order:03d}",
                filter_text=typed if meant else info.key,
                preselect=True if meant else None,
                text_edit=types.TextEdit(
                    range=edit_range, new_text=info.key if slot.has_colon else f"{info.key}: "
                ),
                command=TRIGGER_SUGGEST if _has_values(doc, info.key) else None,
            )
        )
    return items


def _value_choices(doc: SkillDocument, key: str) -> list[tuple[str, str]]:
    """The values completion offers for ``key``: ``(value, detail)``."""
    if key in TOOL_LIST_KEYS:
        return [(tool, f"{TOOLS_SOURCE} tool") for tool in CLAUDE_CODE_TOOLS]
    info = profile_key(doc.profile, key)
    choices: list[tuple[str, str]] = []
    if key == "name" and is_skill_name(doc.expected_name):
        where = "folder" if doc.layout == "bundle" else "file"
        choices.append((doc.expected_name, f"the skill's {where} name"))
    if info is not None:
        for value in info.values:
            choices.append((value, "default" if value == info.default else info.key))
    return choices


def _has_values(doc: SkillDocument, key: str) -> bool:
    return bool(_value_choices(doc, key))


def _values(
    doc: SkillDocument, slot: Slot, cursor: int, invoked: bool
) -> list[types.CompletionItem]:
    """The value items. Asked for (Ctrl+Space), all of them; while typing, only those
    what is typed is the start of, and none once it is a whole value: Enter after
    ``name: PDF-Forms`` or ``allowed-tools: Read`` is a new line."""
    assert slot.key is not None
    line = doc.line(slot.line)
    start, end = slot.start, slot.end
    choices = _value_choices(doc, slot.key)
    if slot.key in TOOL_LIST_KEYS:
        token = _list_token(line, slot, cursor)
        if token is None:
            return []
        start, end = token
        written = set(_LIST_SEPARATORS.split(line[slot.start : slot.end]))
        written.discard(line[start:end])
        choices = [(v, d) for v, d in choices if v not in written]
    if not invoked:
        typed = line[start:end]
        if any(v == typed for v, _ in choices):
            return []
        choices = [(v, d) for v, d in choices if v.startswith(typed)]
    edit_range = doc.range(Span.at(slot.line, start, end))
    return [
        types.CompletionItem(
            label=value,
            kind=types.CompletionItemKind.Value,
            detail=detail,
            sort_text=f"{order:03d}",
            filter_text=value,
            text_edit=types.TextEdit(range=edit_range, new_text=value),
        )
        for order, (value, detail) in enumerate(choices)
    ]


#: What separates the entries of a tool list (``Read Grep``, ``Read, Grep``, ``[Read]``).
_LIST_SEPARATORS = re.compile(r"[\s,\[\]'\"]+")
_TOKEN_TAIL = re.compile(r"[^\s,\[\]'\"(]*")


def _list_token(line: str, slot: Slot, cursor: int) -> tuple[int, int] | None:
    """The columns of the tool-list entry the cursor is in; ``None`` inside a rule's
    parentheses (``Bash(git |``), where no tool name fits."""
    head = line[slot.start : cursor]
    if head.count("(") > head.count(")"):
        return None
    separators = list(_LIST_SEPARATORS.finditer(head))
    start = slot.start + (separators[-1].end() if separators else 0)
    tail = _TOKEN_TAIL.match(line, cursor)
    return start, tail.end() if tail is not None else cursor


# -- body -----------------------------------------------------------------------------------


def _token_edit(
    doc: SkillDocument, position: Position, start: int, end: int, insert_replace: bool
) -> Callable[[str], types.TextEdit | types.InsertReplaceEdit]:
    """The edit of an item replacing columns ``start``-``end`` of the cursor's line, the
    cursor in between (see the module doc), for each item's text."""
    line = position.line
    whole = doc.range(Span.at(line, start, end))
    if insert_replace and end > position.character:
        typed = doc.range(Span.at(line, start, position.character))
        return lambda text: types.InsertReplaceEdit(new_text=text, insert=typed, replace=whole)
    return lambda text: types.TextEdit(range=whole, new_text=text)


async def _body(
    doc: SkillDocument, position: Position, invoked: bool, insert_replace: bool
) -> types.CompletionList | None:
    line = doc.line(position.line)
    head = line[: position.character]
    mention = _MENTION_HEAD.search(head)
    if (
        mention is not None
        and doc.index is not None
        and not in_code(doc.lines, doc.body_start_line(), position.line, mention.start())
    ):
        tail = _MENTION_TAIL.match(line, position.character)
        end = tail.end() if tail is not None else position.character
        edit = _token_edit(doc, position, mention.start(), end, insert_replace)
        return _mentions(doc, doc.index, mention.group(1), edit)
    return await _paths(doc, position, line, invoked, insert_replace)


def _mentions(
    doc: SkillDocument,
    index: FolderIndex,
    typed: str,
    edit: Callable[[str], types.TextEdit | types.InsertReplaceEdit],
) -> types.CompletionList:
    names = index.sorted_names()
    # Names starting with what was typed form one run of the sorted list; the rest are
    # scanned only if the prefixed ones do not fill the list.
    first = bisect_left(names, typed)
    prefixed = itertools.takewhile(lambda name: name.startswith(typed), names[first:])
    inside = (name for name in names if typed in name and not name.startswith(typed))
    items: list[types.CompletionItem] = []
    incomplete = False
    for name in itertools.chain(prefixed, inside):
        if len(items) >= MENTION_LIMIT:
            incomplete = True
            break
        provided = index.provided_winner(name)
        if provided is not None:
            invocation = provided.candidate.invocation
            description = provided.candidate.description
            detail = f"{provided.source} (rank {provided.rank}) · provider {provided.provider}"
        else:
            group = index.group(name)
            if not group:
                continue
            winner = group[0]
            invocation = winner.analysis.invocation
            description = winner.analysis.description or ""
            detail = f"{winner.root.source} (rank {winner.root.rank})"
        if not invocation.user_invocable:
            continue
        if not invocation.model_invocable:
            detail += " · only by /name"
        items.append(
            types.CompletionItem(
                label=f"/{name}",
                kind=types.CompletionItemKind.Function,
                detail=detail,
                documentation=catalog_description(
                    description, doc.config.catalog_max_description_length
                ),
                sort_text=f"{len(items):04d}",
                filter_text=f"/{name}",
                text_edit=edit(f"/{name}"),
            )
        )
    return types.CompletionList(is_incomplete=incomplete, items=items)


async def _paths(
    doc: SkillDocument, position: Position, line: str, invoked: bool, insert_replace: bool
) -> types.CompletionList | None:
    if doc.layout != "bundle":
        return None
    head = line[: position.character]
    match = _PATH_HEAD.search(head)
    token = match.group() if match else ""
    before = head[: len(head) - len(token)]
    in_link = before.endswith("](") or before.endswith("`")
    if token.startswith(("/", "~")) or ":" in token:
        return None
    if not (invoked or in_link or "/" in token):
        return None
    directory = token[: token.rfind("/") + 1]
    partial = token[len(directory) :]
    relative = directory[2:] if directory.startswith("./") else directory
    children = await asyncio.to_thread(_children, doc, relative)
    if children is None:
        return None
    tail = _PATH_TAIL.match(line, position.character)
    rest = tail.group().rstrip(_SENTENCE_END) if tail is not None else ""
    edit = _token_edit(
        doc,
        position,
        position.character - len(partial),
        position.character + len(rest),
        insert_replace,
    )
    items: list[types.CompletionItem] = []
    for name, is_dir in children:
        if name.startswith(".") and not partial.startswith("."):
            continue
        if len(items) >= PATH_LIMIT:
            break
        text = name + "/" if is_dir else name
        items.append(
            types.CompletionItem(
                label=text,
                kind=types.CompletionItemKind.Folder if is_dir else types.CompletionItemKind.File,
                detail=relative + text,
                sort_text=f"{0 if is_dir else 1}{name}",
                filter_text=text,
                text_edit=edit(text),
                command=types.Command("Suggest", "editor.action.triggerSuggest")
                if is_dir
                else None,
            )
        )
    return types.CompletionList(is_incomplete=len(items) >= PATH_LIMIT, items=items)


def _children(doc: SkillDocument, relative: str) -> list[tuple[str, bool]] | None:
    """Blocking: the entries of ``relative`` inside the skill folder, never outside it."""
    summary = doc.resource_summary()
    if relative.rstrip("/"):
        resolved = resolve_resource(summary, relative.rstrip("/"))
        if resolved is None or resolved.kind != "path" or not os.path.isdir(resolved.location):
            return None
        folder = resolved.location
    else:
        folder = doc.resource_dir
    try:
        with os.scandir(folder) as listing:
            names = sorted(entry.name for entry in listing)
    except OSError:
        return None
    result: list[tuple[str, bool]] = []
    for name in names:
        if not relative and name == BUNDLE_FILE:
            continue
        target = resolve_resource(summary, relative + name)
        if target is None or target.kind != "path":
            continue
        result.append((name, os.path.isdir(target.location)))
    return result
