"""SD2xx checks: the name and the description (declared in
``engine/rules/_sd2_name_description.py``).

The name is there, is text, is kebab-case and matches its folder or file name; the
description is there, is text and is not the snippet's placeholder. They set
``ctx.name`` and ``ctx.description``, which later checks read.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import PurePath

from skilldeck.engine.checks._context import Check, CheckContext
from skilldeck.engine.checks._placeholders import (
    DESCRIPTION_PLACEHOLDER,
    is_placeholder_description,
)
from skilldeck.engine.checks._sd4_keys import near_miss_renames
from skilldeck.engine.checks._sd6_agentskills import only_the_standard_accepts
from skilldeck.engine.checks._skill_names import (
    kebab_case,
    name_problem,
    standard_form,
    standard_name_problem,
)
from skilldeck.engine.frontmatter import (
    Frontmatter,
    FrontmatterEntry,
    describe_value,
    display_text,
    first_line_span,
)
from skilldeck.engine.registry import is_skill_name
from skilldeck.engine.rules import Fix, Severity, rule


def check_name(ctx: CheckContext, fm: Frontmatter) -> None:
    """SD201 (no name), SD202 (not text), SD203 (not kebab-case), SD206 (not its
    folder's or file's name); sets ``ctx.name`` to any non-empty text."""
    entry = fm.get("name")
    if entry is None:
        _missing_name(ctx, fm)
        return
    value = entry.value
    if not isinstance(value, str) or not value:
        _name_not_text(ctx, entry)
        return
    ctx.name = value
    # A name only the standard accepts is SD606's (_sd6_agentskills.py), and must still
    # match its place.
    if not is_skill_name(value) and not only_the_standard_accepts(ctx, value):
        _name_not_kebab_case(ctx, entry, value)
        return
    _name_against_its_place(ctx, entry, value)


def _missing_name(ctx: CheckContext, fm: Frontmatter) -> None:
    """SD201, with the fix adding the expected name."""
    fixes: tuple[Fix, ...] = ()
    expected = ctx.expected_name
    if expected is not None and is_skill_name(expected):
        fixes = ctx.offer(
            f"Add 'name: {expected}'",
            ctx.add_entry(fm, "name", expected, after=None),
            {"name": expected},
        )
    ctx.findings.append(rule("SD201").finding(fm.span, fixes=fixes))


def _name_not_text(ctx: CheckContext, entry: FrontmatterEntry) -> None:
    """SD202, with the quote fix when YAML misread the text."""
    hint, fixes = ctx.misread(entry)
    ctx.findings.append(
        rule("SD202").finding(
            ctx.value_or_key_span(entry),
            fixes=fixes,
            found=describe_value(entry.value),
            hint=hint,
        )
    )


def _name_not_kebab_case(ctx: CheckContext, entry: FrontmatterEntry, value: str) -> None:
    """SD203, with the rename to the kebab-case spelling."""
    fixes: tuple[Fix, ...] = ()
    suggestion = kebab_case(value)
    if suggestion and suggestion != value and ctx.one_line_scalar(entry):
        fixes = ctx.offer(
            f"Rename to '{suggestion}'",
            ctx.replace_value(entry, suggestion),
            {"name": suggestion},
            unsafe=True,
        )
    agentskills = ctx.settings.profile == "agentskills"
    ctx.findings.append(
        rule("SD203").finding(
            entry.value_span,
            fixes=fixes,
            name=display_text(value),
            reason=(agentskills and standard_name_problem(value)) or name_problem(value),
        )
    )


def _name_against_its_place(ctx: CheckContext, entry: FrontmatterEntry, value: str) -> None:
    """SD206: a kebab-case name that is not its folder's (or flat file's) name."""
    expected = ctx.expected_name
    if expected is None or value == expected:
        return
    agentskills = ctx.settings.profile == "agentskills"
    if agentskills and standard_form(value) == standard_form(expected):
        return
    fixes: tuple[Fix, ...] = ()
    if is_skill_name(expected) and ctx.one_line_scalar(entry):
        fixes = ctx.offer(
            f"Rename to '{expected}'",
            ctx.replace_value(entry, expected),
            {"name": expected},
            unsafe=True,
        )
    container = "folder" if PurePath(ctx.path).name == "SKILL.md" else "file name"
    mismatch = rule("SD206").finding(
        entry.value_span,
        fixes=fixes,
        name=display_text(value),
        container=container,
        expected=display_text(expected),
    )
    # The standard says *must*: an error under its profile, a warning elsewhere.
    ctx.findings.append(replace(mismatch, severity=Severity.ERROR) if agentskills else mismatch)


def check_description(ctx: CheckContext, fm: Frontmatter) -> None:
    """SD204 (no description), SD205 (not text), SD207 (the placeholder); sets
    ``ctx.description`` to any text that is not blank."""
    entry = fm.get("description")
    if entry is None:
        # A misspelt key (`descripton:`, SD404) is most likely the description: its
        # rename comes first, then the placeholder.
        fixes = near_miss_renames(ctx, fm, "description") + ctx.offer(
            "Add a description",
            ctx.add_entry(fm, "description", DESCRIPTION_PLACEHOLDER, after=fm.get("name")),
            {"description": DESCRIPTION_PLACEHOLDER},
            unsafe=True,  # a placeholder would reach the catalog
        )
        # On the opening `---` line only: across the whole frontmatter it started
        # every hover and quick-fix list there (#31).
        opening = first_line_span(ctx.text)
        ctx.findings.append(rule("SD204").finding(opening, fixes=fixes))
        return
    value = entry.value
    if not isinstance(value, str) or not value.strip():
        hint, fixes = ctx.misread(entry)
        ctx.findings.append(
            rule("SD205").finding(
                ctx.value_or_key_span(entry),
                fixes=fixes,
                found=describe_value(value),
                hint=hint,
            )
        )
        return
    ctx.description = value
    if is_placeholder_description(value):
        ctx.findings.append(
            rule("SD207").finding(entry.value_span, shown=display_text(value.strip(), 40))
        )


#: First-person pronouns (SD208): ``I`` and its contractions as a capital, ``us`` in
#: lowercase (``US`` is a country), the others in any case; never part of a longer token
#: (``I/O``, ``I-beam``, ``my-skill``, ``e.g.``).
_FIRST_PERSON = re.compile(
    r"(?<![\w/.\-'\u2019])"
    r"(?:I(?:['\u2019](?:m|ll|ve|d))?|us|(?i:me|my|myself|we(?:['\u2019](?:re|ll|ve))?"
    r"|our|ours|ourselves|let['\u2019]s))"
    r"(?![\w/\-'\u2019]|\.\w)"
)
#: Quoted text and code spans: a user's own words, kept as written (SD208 skips them).
#: A single quote opens only after a non-word character, so an apostrophe never does.
_QUOTED = re.compile(
    r'"[^"]*"|\u201c[^\u201d]*\u201d|\u2018[^\u2019]*\u2019|`[^`]*`|(?<!\w)\'.*?\'(?!\w)',
    re.DOTALL,
)


def first_person_word(description: str) -> re.Match[str] | None:
    """The first first-person pronoun of ``description`` outside quotes and code spans."""
    quoted = [match.span() for match in _QUOTED.finditer(description)]
    for match in _FIRST_PERSON.finditer(description):
        if not any(start <= match.start() < end for start, end in quoted):
            return match
    return None


def check_description_voice(ctx: CheckContext, fm: Frontmatter) -> None:
    """SD208: a description written in the first person, at its first such word."""
    entry = fm.get("description")
    if ctx.description is None or entry is None:
        return
    found = first_person_word(ctx.description)
    if found is None:
        return
    span = ctx.value_chars_span(entry, found.start(), found.end()) or entry.value_span
    ctx.findings.append(rule("SD208").finding(span, word=found.group()))


#: This family's checks, in the order they run.
CHECKS: tuple[Check, ...] = (check_name, check_description, check_description_voice)
