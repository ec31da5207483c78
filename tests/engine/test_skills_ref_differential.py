"""``--profile agentskills`` agrees with skills-ref, the Agent Skills reference validator.

Generated frontmatters and folder names are written to real skill folders and judged by
both: skilldeck's verdict is "valid" when the engine reports no error under the
``agentskills`` profile, skills-ref's when ``validate(folder)`` returns no message. Every
case where the two differ on purpose is listed in docs/compatibility.md ("Agent Skills
reference validator (skills-ref)") and excluded below by :func:`deliberate_difference`,
with the reason.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from skilldeck.engine.config._rule_settings import RuleSettings
from skilldeck.engine.files._skill_file import analyze_skill_file
from skilldeck.engine.rules._findings import Severity

skills_ref = pytest.importorskip("skills_ref")  # needs Python >= 3.11

AGENTSKILLS = RuleSettings(profile="agentskills")

# Names: ASCII kebab-case, other scripts, uppercase, compatibility forms, bad hyphens.
NAMES = (
    "pdf-forms",
    "a",
    "123",
    "навык",
    "мой-навык",
    "技能",
    "café",
    "cafe\u0301",  # café with a combining accent (NFKC composes it)
    "x\u0301",  # a combining accent NFKC cannot compose: not a letter
    "НАВЫК",
    "Навык",
    "PDF-forms",
    "ﬁle",  # the fi ligature: NFKC reads it as "file"
    "\uff41\uff42\uff43",  # fullwidth letters: NFKC reads them as "abc"
    "-lead",
    "trail-",
    "two--hyphens",
    "snake_case",
    "dotted.name",
    "with space",
    "a" * 64,
    "a" * 65,
    "é" * 65,
    "",
)
NAME_CHARS = st.sampled_from(list("ab1-_ .Aнйé\u0301技ﬁ\uff21\u03a3\u03c3²Ⅸ"))


@dataclass(frozen=True)
class Case:
    folder: str
    name: str | None
    description: str | None
    extra: tuple[tuple[str, str], ...]
    metadata: tuple[tuple[str, str | None], ...] | None  # None value: a nested mapping
    newline: str

    def text(self) -> str:
        lines = ["---"]
        if self.name is not None:
            lines.append(f"name: {quoted(self.name)}")
        if self.description is not None:
            lines.append(f"description: {quoted(self.description)}")
        lines.extend(f"{key}: {quoted(value)}" for key, value in self.extra)
        if self.metadata is not None:
            lines.append("metadata:")
            for key, value in self.metadata:
                if value is None:
                    lines.extend((f"  {key}:", '    nested: "value"'))
                else:
                    lines.append(f"  {key}: {quoted(value)}")
        lines += ["---", "", "Body.", ""]
        return self.newline.join(lines)


def quoted(value: str) -> str:
    """A YAML double-quoted scalar: both parsers read it as exactly ``value``."""
    return json.dumps(value, ensure_ascii=False)


def usable_folder(folder: str) -> bool:
    return bool(folder.strip()) and folder not in (".", "..") and "/" not in folder


VALID_NAMES = ("pdf-forms", "навык", "мой-навык", "技能", "cafe\u0301", "ﬁle", "a1-b2")
names = st.one_of(
    st.sampled_from(VALID_NAMES),
    st.sampled_from(NAMES),
    st.text(NAME_CHARS, min_size=1, max_size=8),
)
descriptions = st.one_of(
    st.just("Fills PDF forms."),
    st.sampled_from(("Fills PDF forms.", "", "   ", "d" * 1024, "d" * 1025, "é" * 1025)),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=20),
)
extras = st.lists(
    st.one_of(
        st.tuples(st.just("license"), st.sampled_from(("MIT", "Apache-2.0"))),
        st.tuples(
            st.just("compatibility"), st.sampled_from(("", "needs git", "c" * 500, "c" * 501))
        ),
        st.tuples(st.just("allowed-tools"), st.just("Bash Read")),
    )
    | st.tuples(st.sampled_from(("user-invocable", "vendor-x", "Name", "whenToUse")), st.just("x")),
    max_size=2,
    unique_by=lambda item: item[0],
)
metadatas = st.one_of(
    st.none(),
    st.lists(
        st.tuples(
            st.sampled_from(("author", "version", "tags")),
            st.sampled_from(("me", "1.0", "", None)),
        ),
        max_size=2,
        unique_by=lambda item: item[0],
    ),
)


@st.composite
def cases(draw: st.DrawFn) -> Case:
    name = draw(names | st.none())
    folder_choice = draw(st.sampled_from(("same", "same", "nfd", "nfc", "other")))
    base = name if name else "skill"
    folder = {
        "same": base,
        "nfd": unicodedata.normalize("NFD", base),
        "nfc": unicodedata.normalize("NFC", base),
        "other": draw(names),
    }[folder_choice]
    if not usable_folder(folder):
        folder = "skill"
    return Case(
        folder=folder,
        name=name,
        description=draw(st.one_of(descriptions, st.none())),
        extra=tuple(draw(extras)),
        metadata=None if (m := draw(metadatas)) is None else tuple(m),
        newline=draw(st.sampled_from(("\n", "\r\n"))),
    )


def deliberate_difference(case: Case) -> str | None:
    """The documented reason skilldeck and skills-ref may disagree on ``case``, if any."""
    if case.name is not None and case.name != case.name.strip() and case.name.strip():
        return "skills-ref strips whitespace around the name; skilldeck rejects it"
    values = [case.name or "", case.description or "", *(v for _, v in case.extra)]
    values += [v or "" for _, v in case.metadata or ()]
    if any("---" in value for value in values):
        return "skills-ref ends the frontmatter at any '---', even inside a value"
    if case.metadata and any(value is None for _, value in case.metadata):
        return "skills-ref turns nested metadata into strings; the standard wants a string map"
    return None


def skilldeck_valid(skill_file: Path, folder: str) -> tuple[bool, list[str]]:
    analysis = analyze_skill_file(skill_file, expected_name=folder, settings=AGENTSKILLS)
    # The supply-chain safety family (SD10xx) judges what a skill hides, not the standard's
    # format: skills-ref has no such rules, so they take no part in the comparison.
    errors = [
        f"{f.code} {f.message}"
        for f in analysis.findings
        if f.severity is Severity.ERROR and not (len(f.code) == 6 and f.code.startswith("SD10"))
    ]
    return not errors, errors


def judge(tmp_path: Path, case: Case) -> tuple[tuple[bool, list[str]], list[str]]:
    folder = tmp_path / "skills" / case.folder
    folder.mkdir(parents=True)
    skill_file = folder / "SKILL.md"
    skill_file.write_bytes(case.text().encode("utf-8"))
    try:
        try:
            theirs = skills_ref.validate(folder)
        except AttributeError as crash:  # strictyaml's reader error on non-printables
            theirs = [f"skills-ref crashed: {crash}"]
        return skilldeck_valid(skill_file, case.folder), theirs
    finally:
        skill_file.unlink()
        folder.rmdir()


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(case=cases())
@example(Case("навык", "навык", "Does X.", (), None, "\n"))
@example(Case("мой-навык", "мой-навык", "Does X.", (), None, "\n"))
@example(Case("技能", "技能", "Does X.", (), None, "\n"))
@example(Case("café", "cafe\u0301", "Does X.", (), None, "\n"))
@example(Case("НАВЫК", "НАВЫК", "Does X.", (), None, "\n"))
@example(Case("other", "pdf-forms", "Does X.", (), None, "\n"))
def test_agentskills_verdicts_equal_skills_ref(tmp_path: Path, case: Case) -> None:
    reason = deliberate_difference(case)
    if reason is not None:
        return  # documented in docs/compatibility.md
    (ours, our_errors), theirs = judge(tmp_path, case)
    assert ours == (not theirs), (case.text(), case.folder, our_errors, theirs)
