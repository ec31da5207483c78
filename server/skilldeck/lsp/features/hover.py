"""``textDocument/hover`` for skill files.

- On a frontmatter key: the profile's documentation of it (what it does, values,
  default, what it controls, whether skilldeck enforces it).
- On ``name`` (key or value): the catalog line exactly as the model sees it (rendered by
  the engine's catalog renderer), the skill's layer, source and rank, and the skills it
  shadows or is shadowed by; with `skilldeck.hosts` set, one line per agent (loads, cut,
  dropped, not found).
- On ``description``: its collapsed length against the catalog cap and the text the
  catalog publishes (collapsed, escaped, cut), the skills with nearly the same
  description (its near-duplicate family, SD802) and the three skills nearest it outside
  that family (routing overlap, with their scores).
- On a ``/name`` mention in the body: the mentioned skill's summary.
- On a run of invisible characters (SD1001-SD1003), anywhere: each code point with its
  name, and the text that tag characters spell.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from lsprotocol import types

from skilldeck.engine.filesystem import SkillFileEntry
from skilldeck.engine.frontmatter import LineIndex, profile_key
from skilldeck.engine.host_views import host_summary
from skilldeck.engine.hosts import get_host
from skilldeck.engine.model_view import CatalogEntry, catalog_entries, render_entries
from skilldeck.engine.registry import DirectoryResourceBase, SkillSummary
from skilldeck.engine.rules import NOT_LOADED
from skilldeck.engine.safety import code_point_name, hidden_tag_text, run_at
from skilldeck.engine.text import (
    Position,
    Span,
    catalog_description,
    collapse_whitespace,
    escape_text,
)
from skilldeck.lsp.diagnostics import uri_of
from skilldeck.lsp.frontmatter_cursor import entry_at
from skilldeck.lsp.key_docs import key_markdown, markup, unknown_key_markdown
from skilldeck.lsp.markdown_body import mention_at
from skilldeck.lsp.navigation import in_frontmatter
from skilldeck.lsp.settings import value_source
from skilldeck.lsp.skill_document import SkillDocument, load_document

#: How many members of its family a description's hover links (``skilldeck overlap``
#: lists them all).
FAMILY_HOVER_NAMES = 10

if TYPE_CHECKING:
    from skilldeck.engine.frontmatter import FrontmatterEntry
    from skilldeck.lsp.server import SkilldeckServer


def register(server: SkilldeckServer) -> None:
    """Register ``textDocument/hover``."""

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(params: types.HoverParams) -> types.Hover | None:
        doc = await load_document(server.session, params.text_document.uri)
        if doc is None:
            return None
        text = server.client_capabilities.text_document
        caps = text.hover if text is not None else None
        formats = list(caps.content_format or []) if caps is not None else []
        return hover_at(doc, params.position, formats)


def hover_at(
    doc: SkillDocument, at: types.Position, formats: list[types.MarkupKind] | None = None
) -> types.Hover | None:
    """The hover at ``at`` in ``doc`` (Markdown when the client lists it in ``formats``)."""
    position = doc.position(at)
    invisible = invisible_markdown(doc.text, position)
    if invisible is not None:
        return _hover(doc, invisible[0], invisible[1], formats)
    if in_frontmatter(doc, position):
        fm = doc.frontmatter
        hit = entry_at(fm, position) if fm is not None else None
        if hit is None:
            return None
        entry = hit.entry
        span = entry.key_span if hit.part == "key" else entry.value_span
        sections: list[str] = []
        if entry.key == "name":
            sections.append(name_markdown(doc))
            hosts = hosts_markdown(doc)
            if hosts is not None:
                sections.append(hosts)
        elif entry.key == "description" and hit.part == "value":
            sections.append(description_markdown(doc, entry))
        if hit.part == "key" or not sections:
            info = profile_key(doc.profile, entry.key)
            if entry.key == "description" and hit.part == "key":
                sections.append(description_markdown(doc, entry))
            sections.append(
                key_markdown(info, doc.profile, value_source(doc.config, "profile"))
                if info is not None
                else unknown_key_markdown(entry.key, doc.profile)
            )
        if entry.key == "description":
            sections.extend(family_markdown(doc))
            sections.extend(nearest_skills_markdown(doc))
        return _hover(doc, "\n\n---\n\n".join(sections), span, formats)
    if position.line < doc.body_start_line():
        return None
    mention = mention_at(doc.lines, doc.body_start_line(), position.line, position.character)
    if mention is None:
        return None
    return _hover(doc, mention_markdown(doc, mention.name), mention.span, formats)


#: How many code points of one run the hover lists.
_HOVER_POINTS = 24


def invisible_markdown(text: str, position: Position) -> tuple[str, Span] | None:
    """The code points of the run of invisible characters at ``position`` (and the text
    tag characters spell), with the run's span; ``None`` when there is none."""
    if text.isascii():
        return None
    index = LineIndex(text)
    run = run_at(text, index.offset(position))
    if run is None:
        return None
    lines = [f"**{len(run.text)} invisible character{'s' if len(run.text) > 1 else ''}**", ""]
    lines += [f"- `{code_point_name(char)}`" for char in run.text[:_HOVER_POINTS]]
    if len(run.text) > _HOVER_POINTS:
        lines.append(f"- ... and {len(run.text) - _HOVER_POINTS} more")
    hidden = hidden_tag_text(run.text)
    if hidden:
        lines += ["", "The tag characters spell:", "", fenced(hidden)]
    return "\n".join(lines), index.span(run.start, run.end)


def _hover(
    doc: SkillDocument, value: str, span: Span, formats: list[types.MarkupKind] | None
) -> types.Hover:
    return types.Hover(contents=markup(value, formats), range=doc.range(span))


def fenced(text: str, language: str = "text") -> str:
    """``text`` in a Markdown code fence longer than any backtick run inside it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text}\n{fence}"


def catalog_line(summary: SkillSummary, max_length: int) -> str | None:
    """The catalog line of ``summary`` as the engine renders it; ``None`` when not listed."""
    entries = catalog_entries([summary], max_length)
    return _rendered_line(entries[0]) if entries else None


def _rendered_line(entry: CatalogEntry) -> str:
    text = render_entries([entry], kind="initial")
    lines = text.split("\n")
    start = lines.index("<available_skills>") + 1
    end = lines.index("</available_skills>")
    return "\n".join(lines[start:end])


def _summary(doc: SkillDocument) -> SkillSummary:
    analysis = doc.analysis
    return SkillSummary(
        name=analysis.name or "",
        description=analysis.description or "",
        source=doc.entry.root.source if doc.entry is not None else "",
        provider="filesystem",
        invocation=analysis.invocation,
        resource_base=DirectoryResourceBase(doc.resource_dir),
    )


def _entry_summary(entry: SkillFileEntry) -> SkillSummary:
    analysis = entry.analysis
    return SkillSummary(
        name=analysis.name or "",
        description=analysis.description or "",
        source=entry.root.source,
        provider="filesystem",
        invocation=analysis.invocation,
    )


def _where(entry: SkillFileEntry) -> str:
    return f"{entry.root.source} (rank {entry.root.rank})"


def _link(entry: SkillFileEntry) -> str:
    return f"[{_where(entry)}]({uri_of(entry.path)})"


#: Why an open buffer whose file was deleted is no skill of the deck (until saved).
GONE = "its file is no longer on disk"


def name_markdown(doc: SkillDocument) -> str:
    """Catalog line, layer/source/rank and shadowing of this document's skill."""
    analysis = doc.analysis
    name = analysis.name or doc.expected_name
    cap = doc.config.catalog_max_description_length
    parts: list[str] = []
    if doc.not_a_skill is not None:
        parts.append(f"**`{name}`** · not a skill: {doc.not_a_skill.reason}")
        parts.append("skilldeck never loads this file: the model does not see it.")
        return "\n\n".join(parts)
    if doc.file_gone:
        parts.append(f"**`{name}`** · not loaded: {GONE}")
        parts.append("The model does not see this skill until the buffer is saved.")
        return "\n\n".join(parts)
    if doc.entry is not None:
        root = doc.entry.root
        parts.append(f"**`{name}`** · source `{root.source}` · rank {root.rank} · {doc.layout}")
    else:
        parts.append(f"**`{name}`** · not in any skill root of this workspace")
    if not analysis.accepted:
        reasons = [f.message.removesuffix(NOT_LOADED) for f in analysis.refusals]
        why = f": {reasons[0]}" if reasons else ""
        if analysis.judged_for is not None:
            # Under a host profile the reason says what that agent does (it may load it).
            parts.append(f"Not loaded by skilldeck's engine (SPEC §2){why}.")
        else:
            parts.append(f"Not loaded{why}. The model does not see this skill.")
        return "\n\n".join(parts)
    group = doc.group()
    winner = group[0] if group else None
    provided = doc.index.provided_winner(name) if doc.index is not None else None
    if provided is not None:
        where = f"{provided.source} skill from provider `{provided.provider}`"
        if provided.path is not None:
            where = f"[{where}]({uri_of(provided.path)})"
        parts.append(
            f"Shadowed by the {where} (rank {provided.rank}): the model never sees this skill."
        )
        line = catalog_line(provided.candidate, cap)
        if line is not None:
            parts.append("The catalog lists the winner instead:\n\n" + fenced(line))
        return "\n\n".join(parts)
    if winner is not None and winner.path != doc.path:
        parts.append(f"Shadowed by {_link(winner)}: the model never sees this skill.")
        line = catalog_line(_entry_summary(winner), cap)
        if line is not None:
            parts.append("The catalog lists the winner instead:\n\n" + fenced(line))
        others = [e for e in group[1:] if e.path != doc.path]
        if others:
            parts.append("Also shadowed: " + ", ".join(_link(e) for e in others))
        return "\n\n".join(parts)
    line = catalog_line(_summary(doc), cap)
    if line is None:
        if analysis.invocation.user_invocable:
            parts.append(
                "Not in the model's catalog (`disable-model-invocation`); users run it "
                f"with `/{name}`."
            )
        else:
            parts.append("Not in the model's catalog and not user-invocable: nobody can run it.")
    else:
        parts.append("Catalog line, as the model sees it:\n\n" + fenced(line))
    shadowed = group[1:]
    if shadowed:
        parts.append(f"Shadows {len(shadowed)}: " + ", ".join(_link(entry) for entry in shadowed))
    return "\n\n".join(parts)


def hosts_markdown(doc: SkillDocument) -> str | None:
    """One line per agent of the ``hosts`` setting (loads / cut / dropped / not found),
    as of the folder's last scan; ``None`` when only DSH is configured."""
    view = doc.index.hosts_view if doc.index is not None else None
    if view is None or doc.file_gone:
        return None
    lines = [
        f"- **{host.label}** ({host.version}): {text}"
        for host, text in host_summary(view, doc.path)
    ]
    return "Agents (`skilldeck.hosts`, docs/hosts.md):\n\n" + "\n".join(lines)


def description_markdown(doc: SkillDocument, entry: FrontmatterEntry) -> str:
    """Length against the catalog cap, and the text the catalog publishes."""
    value = entry.value
    if doc.not_a_skill is not None:
        return f"Not a skill: {doc.not_a_skill.reason}. The model never sees this description."
    if doc.file_gone:
        return f"Not loaded: {GONE}. The model does not see this description."
    if not isinstance(value, str) or not value.strip():
        info = profile_key(doc.profile, "description")
        if doc.profile.host is not None and info is not None and not info.required:
            return (
                "The description is empty or not text: skilldeck's engine does not load "
                f"the skill; {get_host(doc.profile.host).label} replaces it with the first "
                "line of the body."
            )
        return "The description is empty or not text: the skill is not loaded."
    cap = doc.config.catalog_max_description_length
    length = len(collapse_whitespace(value))
    shown = escape_text(catalog_description(value, cap))
    parts = [
        f"**Catalog length:** {length} of {cap} characters (whitespace collapsed; "
        f"{limit_source(doc)})"
    ]
    if length > cap:
        parts.append(f"Cut to {cap} characters: the catalog shows the first {cap - 3} and `...`.")
    info = doc.profile.key("description")
    if doc.profile.name == "agentskills" and info is not None and info.max_length is not None:
        parts.append(f"Agent Skills limit: {len(value)} of {info.max_length} characters.")
    parts.append("The model sees:\n\n" + fenced(shown))
    return "\n\n".join(parts)


def limit_source(doc: SkillDocument) -> str:
    """``limit 200 from `skilldeck.toml``` or ``limit 500 by default``: the cap and its origin."""
    cap = doc.config.catalog_max_description_length
    source = value_source(doc.config, "catalog_max_description_length")
    return f"limit {cap} by default" if source == "default" else f"limit {cap} {source}"


def family_markdown(doc: SkillDocument) -> list[str]:
    """The skills with nearly the same description as this one (its SD802 family, as
    ``check`` reports it), linked: the engine's :class:`DeckOverlap` of the folder."""
    if doc.index is None or doc.entry is None or not doc.analysis.accepted:
        return []
    overlap = doc.index.overlap
    family = overlap.family_of(doc.path)
    if family is None:
        return []
    others = [skill for key in family.members if key != doc.path and (skill := overlap.skill(key))]
    others.sort(key=lambda skill: (skill.name, skill.key))
    how = "the same description" if family.identical else "nearly the same description"
    noun = "skill" if len(others) == 1 else "skills"
    lines = [f"**{len(others)} other {noun} with {how}** (one family, SD802):"]
    for skill in others[:FAMILY_HOVER_NAMES]:
        path = overlap.path_of(skill.key)
        name = f"`{skill.name}`"
        lines.append(f"- [{name}]({uri_of(path)})" if path is not None else f"- {name}")
    if len(others) > FAMILY_HOVER_NAMES:
        lines.append(f"- and {len(others) - FAMILY_HOVER_NAMES} more (`skilldeck overlap`)")
    return ["\n".join(lines)]


def nearest_skills_markdown(doc: SkillDocument, limit: int = 3) -> list[str]:
    """The ``limit`` skills whose names and descriptions are nearest this document's (as
    typed) outside its family, with their overlap scores: the engine's
    :class:`DeckOverlap` of the folder."""
    if doc.index is None or doc.entry is None or not doc.analysis.accepted:
        return []
    overlap = doc.index.overlap
    nearest = overlap.nearest(replace(doc.entry, analysis=doc.analysis), limit)
    if not nearest:
        return []
    threshold = overlap.settings.overlap_threshold
    lines = [f"**Nearest skills** (reported as overlapping from {threshold:.2f}):"]
    for neighbour in nearest:
        path = overlap.path_of(neighbour.skill.key)
        name = f"`{neighbour.skill.name}`"
        shown = f"[{name}]({uri_of(path)})" if path is not None else name
        shared = ", ".join(neighbour.shared) or "-"
        declared = (
            " · declared distinct"
            if doc.analysis.name is not None
            and overlap.is_declared_distinct(doc.analysis.name, neighbour.skill.name)
            else ""
        )
        general = neighbour.generalist
        generalist = (
            f" · generalist: `{general.name}` (named for the task alone)" if general else ""
        )
        lines.append(
            f"- {shown} · score {neighbour.score:.2f} · shared: {shared}{generalist}{declared}"
        )
    return ["\n".join(lines)]


def mention_markdown(doc: SkillDocument, name: str) -> str:
    """The summary of the skill a ``/name`` mention names."""
    group = doc.index.group(name) if doc.index is not None else []
    provided = doc.index.provided_winner(name) if doc.index is not None else None
    if not group and provided is None:
        return f"**`/{name}`**: no skill named `{name}` in this workspace."
    cap = doc.config.catalog_max_description_length
    if provided is not None:
        where = f"{provided.source} skill from provider `{provided.provider}`"
        if provided.path is not None:
            where = f"[{where}]({uri_of(provided.path)})"
        head = f"**`/{name}`** → {where} (rank {provided.rank})"
        description = provided.candidate.description
        invocation = provided.candidate.invocation
    else:
        winner = group[0]
        head = f"**`/{name}`** → {_link(winner)}"
        description = winner.analysis.description or ""
        invocation = winner.analysis.invocation
    if invocation.user_invocable and invocation.model_invocable:
        who = "the model and users (`/name`)"
    elif invocation.user_invocable:
        who = "users only (`/name`); it is not in the model's catalog"
    elif invocation.model_invocable:
        who = "the model only: `user-invocable: false`, so `/name` does not load it"
    else:
        who = "nobody (neither the model nor `/name`)"
    parts = [head, fenced(catalog_description(description, cap)), f"Invocable by {who}."]
    shadowed = group if provided is not None else group[1:]
    if shadowed:
        parts.append("Shadows: " + ", ".join(_link(entry) for entry in shadowed))
    return "\n\n".join(parts)
