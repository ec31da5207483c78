"""Fix property suite: no fix the engine offers, and no fix-all, breaks a skill.

Generated skill files (block and flow mappings, indented mappings, block scalars,
anchors and aliases, merge keys (``<<``), comments, ``...``, CRLF and lone CR line
breaks, U+2028, U+2029 and U+0085, tabs, code fences in the body) are analysed under the
``dsh`` and ``agentskills`` profiles.
Every fix of every finding, and the fix-all combination, is applied the way VS Code
applies one ``TextEdit[]`` (sorted by range, never overlapping, all against the original
text; lines break at ``\\n``, ``\\r\\n`` and ``\\r``; columns are code points, the engine's
unit). After each:

* the frontmatter is valid YAML for an independent loader (ruamel's safe loader, which
  also refuses duplicate keys);
* a skill the engine loaded before still loads;
* the loaded frontmatter is the original with exactly the change the fix's title
  names (compared type-strictly), every comment survives, the delimiters and the body
  are byte-for-byte the same.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from skilldeck.engine.config._rule_settings import RuleSettings
from skilldeck.engine.files._skill_file import SkillFileAnalysis, analyze_skill_text
from skilldeck.engine.frontmatter._fix_edits import apply_edits, fix_all
from skilldeck.engine.frontmatter._frontmatter import FrontmatterBounds, find_frontmatter
from skilldeck.engine.rules._findings import Finding, Fix, TextEdit
from skilldeck.engine.text._positions import Span

PLACEHOLDER = "Describe what this skill does and when to use it."
LEGACY = {"disable-model-invocation": "disableModelInvocation", "user-invocable": "userInvocable"}

# --- the client side: applying a TextEdit[] as VS Code does -------------------------


def offset(text: str, line: int, character: int) -> int:
    """The offset of an LSP position; a position past its line's end is refused."""
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    assert line < len(starts), "edit past the end of the document"
    end = starts[line + 1] if line + 1 < len(starts) else len(text)
    content = text[starts[line] : end].rstrip("\r\n")
    assert character <= len(content), "edit past the end of its line"
    return starts[line] + character


def span_text(text: str, span: Span) -> str:
    start = offset(text, span.start.line, span.start.character)
    return text[start : offset(text, span.end.line, span.end.character)]


def vscode_apply(text: str, edits: tuple[TextEdit, ...] | list[TextEdit]) -> str:
    """Apply edits as VS Code applies one ``TextEdit[]``: against the original text,
    sorted by (start, end) with ties in list order; overlapping ranges are refused."""
    spans = sorted(
        (
            (
                offset(text, e.span.start.line, e.span.start.character),
                offset(text, e.span.end.line, e.span.end.character),
                e.new_text,
            )
            for e in edits
        ),
        key=lambda item: (item[0], item[1]),
    )
    out: list[str] = []
    done = 0
    for start, end, new in spans:
        assert start >= done, "overlapping edits"
        out += [text[done:start], new]
        done = end
    return "".join([*out, text[done:]])


# --- an independent reading of the result -------------------------------------------

_LOADER = YAML(typ="safe", pure=True)


def load(text: str) -> tuple[dict[str, object], str, str]:
    """The frontmatter as ruamel's safe loader reads it, the opening and the rest."""
    bounds = find_frontmatter(text)
    assert isinstance(bounds, FrontmatterBounds), text
    data = _LOADER.load(text[bounds.yaml_start : bounds.yaml_end])
    if data is None:
        data = {}
    assert isinstance(data, dict), data
    return data, text[: bounds.yaml_start], text[bounds.yaml_end :]


def strict(value: object) -> object:
    """Comparable form telling ``1``, ``1.0``, ``true`` and ``"1"`` apart."""
    if isinstance(value, dict):
        return ("map", sorted((str(k), strict(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("seq", [strict(v) for v in value])
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    return (type(value).__name__, value)


def comments(text: str) -> list[str]:
    return sorted(re.findall(r"# c-[a-z]+", text))


def written(value: object) -> str:
    """How a generated non-text vendor value is written."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def entry_key_at(analysis: SkillFileAnalysis, finding: Finding) -> str:
    """The top-level key whose value the finding points at."""
    assert analysis.frontmatter is not None
    for entry in analysis.frontmatter.entries:
        if entry.value_span.start <= finding.span.start <= entry.value_span.end:
            return entry.key
    raise AssertionError(f"no entry under {finding}")


def intended(
    data: dict[str, object], text: str, analysis: SkillFileAnalysis, finding: Finding, fix: Fix
) -> dict[str, object]:
    """The frontmatter after ``fix``, from its title alone (the test's oracle)."""
    result = dict(data)
    title = fix.title
    if match := re.fullmatch(r"Add 'name: (.+)'", title):
        result["name"] = match[1]
    elif title == "Add a description":
        result["description"] = PLACEHOLDER
    elif (match := re.fullmatch(r"Rename to '(.+)'", title)) and finding.code == "SD301":
        result[match[1]] = result.pop(LEGACY[match[1]])
    elif match := re.fullmatch(r"Rename to '(.+)'", title):
        result["name"] = match[1]
    elif match := re.fullmatch(r"Replace with '(disable-model-invocation): (true|false)'", title):
        del result["modelInvocable"]
        result[match[1]] = match[2] == "true"
    elif match := re.fullmatch(r"Replace with '(true|false)'", title):
        result[entry_key_at(analysis, finding)] = match[1] == "true"
    elif title == "Quote the value":
        [edit] = fix.edits
        result[entry_key_at(analysis, finding)] = span_text(text, edit.span)
    elif match := re.fullmatch(r"Move '(.+)' under metadata", title):
        value = result.pop(match[1])
        metadata = dict(result.get("metadata") or {})  # type: ignore[call-overload]
        metadata[match[1]] = value if isinstance(value, str) else written(value)
        result["metadata"] = metadata
    else:
        raise AssertionError(f"no oracle for the fix {title!r} of {finding.code}")
    return result


# --- generated skills ---------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    text: str
    expected_name: str
    profile: str


NAMES = ["name: alpha", "name: other-skill", "name: Review_Notes", 'name: "alpha"',
         "name: &nm alpha", "name: alpha  # c-name", "name: 123",
         "name: 'Other Skill'", "name: !!str Review_Notes",
         "name:\talpha"]  # fmt: skip
DESCRIPTIONS = [
    ["description: Does a thing."],
    ['description: "Quoted\u2028text with\ttab"'],
    ["description: |", "  line one", "", "  line two"],
    ["description: >-", "  folded", "  text  # not a comment"],
    ["description: 3.10"],
    ["description: &d Shared text.  # c-desc"],
    ["description: |+", "  kept", ""],
    ["description:\tTabbed\tvalue"],
    ["description: \u00dcn\u00efcode \U0001f600 text"],
    ["description: Ends on a break\u2029"],
]
OPTIONAL = [
    ["disableModelInvocation: true"],
    ["modelInvocable: false"],
    ["modelInvocable: &m false"],
    ["userInvocable: false  # c-legacy"],
    ['user-invocable: "yes"'],
    ["user-invocable: &u yes"],
    ["disable-model-invocation: on"],
    ["x-vendor: 1"],
    ['x-vendor: "v"  # c-vendor'],
    ["x-flag: true"],
    ["x-tool: &t tool"],
    ["license: MIT"],
    ["whenToUse: &w Use it often."],
    ["whenToUse: true"],
    ["metadata:", '  x-vendor: "2"', '  other: "o"'],
    ['metadata: {a: "b"}'],
    ["metadata:", '  {x-flag: "f"}'],
    ["metadata: &md", '  a: "b"'],
    ["<<: {userInvocable: false}"],
    ['<<: {user-invocable: "yes", x-merged: 1}'],
    ["x-base: &xb", "  disableModelInvocation: true", "  whenToUse: Merged."],
    ["x-tab:\t2  # c-tab"],
    ["'x-quoted': \"\U0001f600 q\""],
    ["'disableModelInvocation': true"],
    ["metadata:", "  # c-meta", '  z: "\u00e9"'],
    ["# c-line"],
    [""],
    ['x-note: "next\x85line"'],
    ["x-sep: a\u2028", "x-sep-quoted: 'a\u2028  b'"],
]
ALIASES = {"&nm ": "x-name: *nm", "&d ": "x-desc: *d", "&u ": "x-invoke: *u",
           "&t ": "x-copy: *t", "&w ": "x-when: *w", "&m ": "x-model: *m",
           "&md": "x-meta: *md", "&xb": "<<: *xb"}  # fmt: skip
BODIES = [
    "",
    "\nBody.\n",
    "\n```yaml\n---\nname: x\n---\n```\n",
    "\n\tTabbed\r\nCR\ronly\u2028sep\n",
]
FLOW_ITEMS = ["name: alpha", "name: Review_Notes", "description: Does.", "x-vendor: 1",
              "disableModelInvocation: true", "whenToUse: Often"]  # fmt: skip


@st.composite
def block_skills(draw: st.DrawFn) -> list[str]:
    lines: list[str] = []
    name = draw(st.none() | st.sampled_from(NAMES))
    pieces: list[list[str]] = [] if name is None else [[name]]
    description = draw(st.none() | st.sampled_from(DESCRIPTIONS))
    if description is not None:
        pieces.append(description)
    extra = draw(st.lists(st.sampled_from(OPTIONAL), max_size=4, unique_by=lambda p: p[0][:8]))
    pieces += [p for p in extra if not (description and p[0].startswith("description"))]
    pieces = draw(st.permutations(pieces))
    for piece in pieces:
        lines += piece
    anchors = [a for a in ALIASES if any(a in line for line in lines)]
    for anchor in draw(st.lists(st.sampled_from(anchors), unique=True)) if anchors else []:
        lines.append(ALIASES[anchor])
    indent = draw(st.sampled_from(["", "", "  "]))
    return [indent + line if line else line for line in lines]


@st.composite
def flow_skills(draw: st.DrawFn) -> list[str]:
    items = draw(
        st.lists(st.sampled_from(FLOW_ITEMS), min_size=1, max_size=4, unique_by=lambda i: i[:5])
    )
    if draw(st.booleans()):
        return ["{" + ", ".join(items) + "}"]
    return ["{", *[f"  {item}," for item in items[:-1]], f"  {items[-1]}", "}"]


@st.composite
def cases(draw: st.DrawFn) -> Case:
    lines = draw(st.one_of(block_skills(), block_skills(), flow_skills()))
    if draw(st.booleans()):
        lines = [*lines, "..."]
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    breaks = [draw(st.sampled_from([newline, newline, "\r"])) for _ in lines]
    if breaks:
        breaks[-1] = newline  # the closing line starts after a real line feed
    yaml = "".join(line + brk for line, brk in zip(lines, breaks, strict=True))
    body = draw(st.sampled_from(BODIES)).replace("\n", newline)
    opening = draw(st.sampled_from(["---", "---", "\ufeff---"]))
    closing = f"---{body}" if body else f"---{newline}"
    text = f"{opening}{newline}{yaml}{closing}"
    return Case(
        text,
        draw(st.sampled_from(["alpha", "other-skill"])),
        draw(st.sampled_from(["dsh", "agentskills"])),
    )


def analyze(case: Case, text: str) -> SkillFileAnalysis:
    return analyze_skill_text(
        text,
        path=f"/deck/{case.expected_name}/SKILL.md",
        expected_name=case.expected_name,
        settings=RuleSettings(profile=case.profile),
    )


def check_result(
    case: Case, before: SkillFileAnalysis, new_text: str, want: dict[str, object]
) -> None:
    data, opening, rest = load(new_text)  # valid YAML, no duplicate key
    _, old_opening, old_rest = load(case.text)
    assert (opening, rest) == (old_opening, old_rest), "the delimiters or the body changed"
    assert strict(data) == strict(want)
    assert comments(new_text) == comments(case.text), "a comment was lost"
    after = analyze(case, new_text)
    assert after.frontmatter is not None
    if before.accepted:
        assert after.accepted, [f.message for f in after.findings if f.drops_skill]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_every_fix_and_fix_all_keep_a_valid_skill(case: Case) -> None:
    before = analyze(case, case.text)
    assume(before.frontmatter is not None)
    try:
        data, _, _ = load(case.text)
    except YAMLError:  # e.g. a key generated twice: not a skill check accepts
        assume(False)
        raise
    for finding in before.findings:
        for fix in finding.fixes:
            new_text = vscode_apply(case.text, fix.edits)
            assert apply_edits(case.text, fix.edits) == new_text
            check_result(case, before, new_text, intended(data, case.text, before, finding, fix))

    combined = fix_all(case.text, before.findings)
    assert bool(combined.edits) == any(f.fixes for f in before.findings)
    want = data
    for finding in combined.findings:
        want = intended(want, case.text, before, finding, finding.fixes[0])
    check_result(case, before, vscode_apply(case.text, combined.edits), want)


# --- line breaks only YAML reads ----------------------------------------------------

_BREAKS = "\u2028\u2029\x85"


@st.composite
def plain_values_with_breaks(draw: st.DrawFn) -> tuple[str, str]:
    """A key and a one-line plain value holding U+2028, U+2029 or U+0085 (which YAML
    reads as line breaks, an editor does not), maybe a `: ` after one of them."""
    pieces = st.sampled_from(["a", "b", " ", ":", ": ", "-", *_BREAKS])
    middle = "".join(draw(st.lists(pieces, max_size=10)))
    assume(any(char in middle for char in _BREAKS))
    key = draw(st.sampled_from(["description", "x-note"]))
    return key, f"w{middle}z"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plain_values_with_breaks())
def test_a_break_only_yaml_reads_is_an_error_whose_fix_keeps_the_text(
    key_and_value: tuple[str, str],
) -> None:
    # The value as written (what an editor shows, and what the agents' YAML 1.2 reader
    # makes of one line of plain text) is what the quoted value must hold.
    key, value = key_and_value
    extra = "" if key == "description" else "description: Does.\n"
    text = f"---\nname: alpha\n{key}: {value}\n{extra}---\nBody.\n"
    case = Case(text, "alpha", "dsh")
    before = analyze(case, text)
    keys = {"name", "description", key}
    if before.frontmatter is not None:
        # YAML read it: then it read no other key out of the value (no hidden key).
        assert {entry.key for entry in before.frontmatter.entries} == keys
        return
    [finding] = [f for f in before.findings if f.code == "SD103"]
    line = text.split("\n")[finding.span.start.line]
    if any(char in line[: finding.span.start.character + 1] for char in _BREAKS):
        assert finding.fixes, finding.message  # a break in a plain value: quoted
    for fix in finding.fixes:
        assert fix.title == "Quote the value"
        fixed = vscode_apply(text, fix.edits)
        data, _, rest = load(fixed)
        assert set(data) == keys
        assert data[key] == value, (text, fixed)
        assert rest == "---\nBody.\n"
        after = analyze(case, fixed)
        assert after.frontmatter is not None
        assert not [f for f in after.findings if f.code == "SD103"]
