"""SD2xx: the name and the description.

Checked by ``checks/_sd2_name_description.py``.
"""

from __future__ import annotations

from skilldeck.engine.rules._findings import Severity
from skilldeck.engine.rules._rule import Rule

RULES: tuple[Rule, ...] = (
    Rule(
        code="SD201",
        name="missing-name",
        severity=Severity.ERROR,
        drops_skill=True,
        fixable=True,
        message="missing required key 'name'",
        summary="The frontmatter has no `name`.",
        why=(
            "Every skill needs a `name`: it is the identifier the model passes to the `skill` "
            "tool and the `/name` a user types. The skill is skipped."
        ),
        fix="add `name: <folder-name>` to the frontmatter.",
        host_judged=True,
    ),
    Rule(
        code="SD202",
        name="empty-name",
        severity=Severity.ERROR,
        drops_skill=True,
        fixable=True,
        message="'name' must be a non-empty string, found {found}{hint}",
        summary="The `name` is empty or not a string.",
        why=(
            "`name` must be a non-empty string. Values YAML reads as numbers, booleans, null, "
            "lists or mappings are refused. The skill is skipped. An unquoted `2024`, `true` or "
            "`null` is such a value: YAML reads it as a number, a boolean or null, not as text."
        ),
        fix=(
            "write a kebab-case name, e.g. `name: release-notes`. When YAML misread an unquoted "
            'value, the quick fix quotes it as written (`name: 2024` → `name: "2024"`).'
        ),
        host_judged=True,
    ),
    Rule(
        code="SD203",
        name="invalid-name",
        severity=Severity.ERROR,
        drops_skill=True,
        fixable=True,
        message="name '{name}' is not kebab-case (lowercase a-z, digits, single hyphens): {reason}",
        summary="The `name` is not kebab-case.",
        why=(
            "A skill name must match `^[a-z0-9]+(?:-[a-z0-9]+)*$`: lowercase ASCII letters and "
            "digits in words joined by single hyphens. This keeps names unambiguous: Unicode "
            "look-alikes (a Cyrillic `\u0430` for a Latin `a`), invisible or control characters "
            "and case variants could otherwise impersonate another skill. The skill is skipped."
        ),
        example="`name: PDF_Forms` → `name: pdf-forms`.",
        fix="the quick fix rewrites the name in kebab-case.",
        host_judged=True,
    ),
    Rule(
        code="SD204",
        name="missing-description",
        severity=Severity.ERROR,
        drops_skill=True,
        fixable=True,
        message="missing required key 'description'",
        summary="The frontmatter has no `description`.",
        why=(
            "The description is the only thing the model sees of a skill until it loads it: the "
            "catalog lists each skill as its name and description. Without one the skill is "
            "skipped."
        ),
        fix=(
            "add one sentence saying what the skill does and when to use it. When a key spelt "
            "like it is present (`descripton:`, SD404), the first quick fix renames that key; "
            "the other adds a placeholder for you to replace (in an editor that takes snippets, "
            "selected)."
        ),
        host_judged=True,
    ),
    Rule(
        code="SD205",
        name="empty-description",
        severity=Severity.ERROR,
        drops_skill=True,
        fixable=True,
        message="'description' must be a non-empty string, found {found}{hint}",
        summary="The `description` is empty, blank or not a string.",
        why=(
            "`description` must be a string with visible text; a blank description would publish "
            "an empty catalog line. The skill is skipped. An unquoted value such as `3.10`, "
            "`true` or `null` is not text to YAML: it reads a number, a boolean or null."
        ),
        fix=(
            "write one sentence saying what the skill does and when to use it. When YAML misread "
            "an unquoted value, the quick fix quotes it as written (`description: 3.10` → "
            '`description: "3.10"`).'
        ),
        host_judged=True,
    ),
    Rule(
        code="SD206",
        name="name-mismatch",
        severity=Severity.WARNING,
        fixable=True,
        message="name '{name}' differs from its {container} '{expected}'",
        summary="The `name` differs from the skill's folder or file name.",
        why=(
            "A bundle `<root>/<folder>/SKILL.md` or a flat file `<root>/<stem>.md` is expected "
            "to carry the name of its folder or stem. The skill still loads under the "
            "frontmatter name, but people look for it by its file name, and the Agent Skills "
            "standard requires the two to be equal: under the `agentskills` profile the finding "
            "is an error (names compared after NFKC normalisation, as the standard's reference "
            "validator compares them)."
        ),
        fix="the quick fix sets `name` to the folder name; or rename the folder.",
    ),
    Rule(
        code="SD207",
        name="placeholder-description",
        severity=Severity.WARNING,
        message=(
            "description is a placeholder ('{shown}'); the model picks skills by their "
            "description: say what this skill does and when to use it"
        ),
        summary="The description is placeholder text.",
        why=(
            "The new-skill snippet inserts *Describe what this skill does and when to use it.* "
            "for the author to replace; `TODO`, `TBD`, `description` and similar stand-ins are "
            "placeholders too. The skill still loads, but the catalog would publish the "
            "placeholder and the model could never tell when to use the skill. In the editor, "
            "the new-skill placeholder the snippet or the SD204 quick fix just inserted is "
            "reported once the file is saved with it: until then it is text handed to you to "
            "type over (selected, in an editor that takes snippets)."
        ),
        fix="write one sentence saying what the skill does and when to use it.",
    ),
    Rule(
        code="SD208",
        name="first-person-description",
        severity=Severity.WARNING,
        message=(
            "description speaks in the first person ('{word}'); it is read as the model's "
            "own instructions: say in the third person what the skill does"
        ),
        summary="The description is written in the first person.",
        why=(
            "Anthropic's skill authoring guidance (*Skill authoring best practices*, "
            "platform.claude.com/docs/en/agents-and-tools/agent-skills/best-practices, read "
            '2026-12-06): "Always write in third person. The description is injected into '
            "the system prompt, and inconsistent point-of-view can cause discovery "
            'problems." Its examples: *Processes Excel files and generates reports*, not *I '
            "can help you process Excel files*. The Agent Skills specification "
            '(agentskills.io) asks only that a description "describe both what the skill '
            'does and when to use it", and `SPEC.md` says nothing about voice; every agent '
            "skilldeck models puts the description in its model's prompt, so the rule runs "
            "under every profile. Reported: a first-person pronoun (*I*, *I'm*, *I'll*, "
            "*I've*, *I'd*, *me*, *my*, *myself*, *we*, *we're*, *we'll*, *we've*, *us*, "
            "*our*, *ours*, "
            "*ourselves*, *let's*) outside quotation marks and code spans, so a user's words "
            'quoted as a trigger (`Use when the user says "review my PR"`) are not; *I* only '
            "as a capital, *us* only in lowercase (not *US*), never beside a `/`, `-` or `.` "
            "(*I/O*, *I-beam*). The range is the first such word where the source spells it "
            "(inside a quoted, escaped or folded value too); the skill still loads. In the "
            "corpus of 559 public skills, 9 descriptions hold such a word, 6 of them outside "
            "quotes (*If a specialized expert is a better fit, I will recommend switching*)."
        ),
        example=(
            "`description: I can help you fill in PDF forms.` → `description: Fills in PDF "
            "forms from structured data. Use when the user asks to complete a PDF form.`"
        ),
        fix=(
            "none offered: turning a sentence to the third person means rewording it, which "
            'no mechanical edit does safely. Quote a user\'s own words (`"fix my build"`) '
            "to keep them."
        ),
    ),
)
