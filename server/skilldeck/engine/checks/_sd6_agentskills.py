"""SD6xx checks: the Agent Skills profile (declared in ``engine/rules/_sd6_agentskills.py``):
the standard's length limits, ``compatibility``, ``metadata`` values, keys it does not
know, and names only the standard accepts.
"""

from __future__ import annotations

from skilldeck.engine.checks._context import Check, CheckContext
from skilldeck.engine.checks._skill_names import standard_form, standard_name_problem
from skilldeck.engine.frontmatter import Frontmatter, describe_value, display_text
from skilldeck.engine.registry import is_skill_name
from skilldeck.engine.rules import get_profile, rule


def only_the_standard_accepts(ctx: CheckContext, name: str) -> bool:
    """True under the ``agentskills`` profile for a name the standard accepts and
    skilldeck's runtime does not (SD606, not SD203)."""
    return (
        ctx.settings.profile == "agentskills"
        and not is_skill_name(name)
        and standard_name_problem(name) is None
    )


def check_agentskills(ctx: CheckContext, fm: Frontmatter) -> None:
    """SD601-SD606, under the ``agentskills`` profile only."""
    if ctx.settings.profile != "agentskills":
        return
    _standard_name(ctx, fm)
    _description_length(ctx, fm)
    _compatibility(ctx, fm)
    _metadata_values(ctx, fm)
    _keys_the_standard_lacks(ctx, fm)


def _standard_name(ctx: CheckContext, fm: Frontmatter) -> None:
    """SD606 (a name only the standard accepts), SD601 (longer than its limit)."""
    name = fm.get("name")
    if ctx.name is None or name is None:
        return
    if only_the_standard_accepts(ctx, ctx.name):
        # Valid under the standard; skilldeck's runtime keeps SPEC's ASCII names.
        ctx.findings.append(rule("SD606").finding(name.value_span, name=display_text(ctx.name)))
    name_limit = ctx.max_length("name")
    length = len(standard_form(ctx.name))
    if name_limit is not None and length > name_limit:
        ctx.findings.append(rule("SD601").finding(name.value_span, length=length))


def _description_length(ctx: CheckContext, fm: Frontmatter) -> None:
    """SD602: a description longer than the standard's limit."""
    entry = fm.get("description")
    limit = ctx.max_length("description")
    value = ctx.description
    if entry is not None and value is not None and limit is not None and len(value) > limit:
        ctx.findings.append(rule("SD602").finding(entry.value_span, length=len(value)))


def _compatibility(ctx: CheckContext, fm: Frontmatter) -> None:
    """SD603: ``compatibility`` is not text, or longer than its limit."""
    entry = fm.get("compatibility")
    if entry is None:
        return
    value = entry.value
    limit = ctx.max_length("compatibility")
    if not isinstance(value, str) or (limit is not None and len(value) > limit):
        found = f"{len(value)} characters" if isinstance(value, str) else describe_value(value)
        ctx.findings.append(rule("SD603").finding(ctx.value_or_key_span(entry), found=found))


def _metadata_values(ctx: CheckContext, fm: Frontmatter) -> None:
    """SD604: a ``metadata`` value that is not text."""
    entry = fm.get("metadata")
    if entry is None or not isinstance(entry.value, dict):
        return
    for key, value in entry.value.items():
        if not isinstance(value, str):
            ctx.findings.append(
                rule("SD604").finding(
                    ctx.nested_key_span(entry, key),
                    key=display_text(key),
                    found=describe_value(value),
                )
            )


def _keys_the_standard_lacks(ctx: CheckContext, fm: Frontmatter) -> None:
    """SD605: a top-level key the standard does not define (the fix moves it under
    ``metadata``)."""
    standard = get_profile(ctx.settings.profile).key_names  # the profile's keys, once
    for entry in fm.entries:
        if entry.key not in standard:
            ctx.findings.append(
                rule("SD605").finding(
                    entry.key_span,
                    fixes=ctx.move_to_metadata(fm, entry),
                    key=display_text(entry.key),
                )
            )


#: This family's checks, in the order they run.
CHECKS: tuple[Check, ...] = (check_agentskills,)
