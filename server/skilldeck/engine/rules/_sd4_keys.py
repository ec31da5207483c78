"""SD4xx: optional, deferred and misspelt keys.

Checked by ``checks/_sd4_keys.py``.
"""

from __future__ import annotations

from skilldeck.engine.rules._findings import Severity
from skilldeck.engine.rules._rule import OPEN_PROFILES, Rule

RULES: tuple[Rule, ...] = (
    Rule(
        code="SD401",
        name="invalid-when-to-use",
        severity=Severity.WARNING,
        fixable=True,
        message="'whenToUse' must be a non-empty string, found {found}{hint}; the field is ignored",
        summary="`whenToUse` is not a string; it is dropped.",
        why=(
            "`whenToUse` is an optional routing hint for hosts; it is never shown in the "
            "catalog. A value that is not a non-empty string is dropped; the skill still loads."
        ),
        fix=(
            "write the hint as one string, or remove the key. When YAML misread an unquoted "
            "value (a number, a boolean, null), the quick fix quotes it as written."
        ),
    ),
    Rule(
        code="SD402",
        name="invalid-metadata",
        severity=Severity.WARNING,
        message="'metadata' must be a mapping, found {found}; the field is ignored",
        summary="`metadata` is not a mapping; it is dropped.",
        why=(
            "`metadata` is an open mapping for tools and hosts (version, owner, tags, ...). A "
            "value that is not a mapping is dropped; the skill still loads."
        ),
        example='```yaml\nmetadata:\n  version: "1.2"\n  owner: docs-team\n```',
    ),
    Rule(
        code="SD403",
        name="deferred-key",
        severity=Severity.INFORMATION,
        message="'{key}' is not enforced by skilldeck: {effect}",
        summary="A key other agents use is accepted but not enforced.",
        why=(
            "`context`, `arguments`, `argument-hint`, `allowed-tools` and `disallowed-tools` are "
            "meaningful to some agents, and the skill-system design reserves them, but skilldeck "
            "does not act on them yet. They are kept and harmless; this note only makes sure "
            "nobody relies on them for safety (e.g. `allowed-tools` does not restrict tools "
            "here)."
        ),
    ),
    Rule(
        code="SD404",
        name="near-miss-key",
        severity=Severity.WARNING,
        fixable=True,
        message=(
            "'{key}' is not a key of the {profile} profile: did you mean '{intended}'? {effect}"
        ),
        summary="A key that is a misspelling of one the profile knows.",
        why=(
            "A key the active profile does not know, spelt like one it does: another case "
            "(`Description`), `snake_case` or `camelCase` for a kebab-case key "
            "(`user_invocable`, `allowed_tools`) or a small typo (`descripton`). Unknown keys "
            "are otherwise allowed, so without this warning the key would be silently ignored: "
            "`user_invocable: false` leaves the skill user-invocable. Keys another agent's "
            "profile documents (`license`, `model`, ...) are not reported; the camelCase "
            "invocation keys are SD301."
        ),
        example="`descripton: ...` → `description: ...`.",
        fix="the quick fix renames the key (when the intended key is not already set).",
    ),
    Rule(
        code="SD405",
        name="unknown-key",
        severity=Severity.HINT,
        fixable=True,
        profiles=OPEN_PROFILES,
        message=(
            "'{key}' is not a key of the {profile} profile and no agent skilldeck knows reads "
            "it: it is kept as written and nothing acts on it"
        ),
        summary="A top-level key no profile documents.",
        why=(
            "Open profiles (`dsh`, `claude-code`, `codex`) accept any key and keep it, so a key "
            "such as `tags:` or `version:` is not an error; but nothing reads it, neither "
            "skilldeck nor any agent whose keys skilldeck knows, and the author may believe "
            "otherwise. This hint says so quietly (editors show hints faintly, outside the "
            "problem list). Keys another agent documents (`license`, `model`, ...) and "
            "misspellings of known keys (SD404) are not reported; under the closed `agentskills` "
            "profile the key is SD605."
        ),
        fix=(
            "the quick fix moves a one-line key under `metadata`, where tools and hosts look for "
            "such data."
        ),
    ),
)
