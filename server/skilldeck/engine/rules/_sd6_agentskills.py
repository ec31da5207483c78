"""SD6xx: the Agent Skills profile (and names only the standard accepts).

Checked by ``checks/_sd6_agentskills.py``.
"""

from __future__ import annotations

from skilldeck.engine.rules._findings import Severity
from skilldeck.engine.rules._rule import AGENTSKILLS, Rule

RULES: tuple[Rule, ...] = (
    Rule(
        code="SD601",
        name="name-too-long",
        severity=Severity.ERROR,
        profiles=AGENTSKILLS,
        message="name is {length} characters; the Agent Skills standard allows at most 64",
        summary="The name is longer than the standard's 64 characters.",
        why=(
            "Under the `agentskills` profile the name must be at most 64 characters. skilldeck "
            "itself still loads the skill."
        ),
        fix="shorten the name (and the folder).",
    ),
    Rule(
        code="SD602",
        name="description-too-long",
        severity=Severity.ERROR,
        profiles=AGENTSKILLS,
        message="description is {length} characters; the Agent Skills standard allows at most 1024",
        summary="The description is longer than the standard's 1024 characters.",
        why=(
            "Under the `agentskills` profile the description must be at most 1024 characters. "
            "skilldeck itself still loads the skill."
        ),
        fix="shorten the description and move detail into the body.",
    ),
    Rule(
        code="SD603",
        name="invalid-compatibility",
        severity=Severity.ERROR,
        profiles=AGENTSKILLS,
        message="'compatibility' must be a string of at most 500 characters, found {found}",
        summary="`compatibility` is not a string or longer than 500 characters.",
        why=(
            "Under the `agentskills` profile `compatibility` is an optional string of at most "
            "500 characters describing environment requirements (products, system packages, "
            "network access)."
        ),
        fix="write one short string.",
    ),
    Rule(
        code="SD604",
        name="metadata-not-string-map",
        severity=Severity.ERROR,
        profiles=AGENTSKILLS,
        message=(
            "metadata value for '{key}' must be a string under the Agent Skills standard, found "
            "{found}"
        ),
        summary="A `metadata` value is not a string.",
        why=(
            "Under the `agentskills` profile `metadata` maps string keys to string values. Quote "
            'numbers and booleans (`version: "1.0"`) and flatten nested values.'
        ),
    ),
    Rule(
        code="SD605",
        name="non-standard-key",
        severity=Severity.ERROR,
        fixable=True,
        profiles=AGENTSKILLS,
        message=(
            "'{key}' is not a key of the Agent Skills standard (name, description, license, "
            "compatibility, metadata, allowed-tools)"
        ),
        summary="A top-level key is outside the standard's six.",
        why=(
            "Under the `agentskills` profile the frontmatter may only contain `name`, "
            "`description`, `license`, `compatibility`, `metadata` and `allowed-tools`. "
            "Vendor-specific keys belong under `metadata`. Keys skilldeck interprets "
            "(`disable-model-invocation`, `user-invocable`, `whenToUse`) are reported too; "
            "moving them would change behaviour, so they get no quick fix."
        ),
        fix="the quick fix moves a one-line vendor key under `metadata`.",
    ),
    Rule(
        code="SD606",
        name="name-outside-runtime",
        severity=Severity.WARNING,
        drops_skill=True,
        profiles=AGENTSKILLS,
        message=(
            "name '{name}' is valid under the Agent Skills standard, but skilldeck's catalog, "
            "`skill` tool and /name gesture take only ASCII kebab-case names (a-z, 0-9, single "
            "hyphens)"
        ),
        summary="A standard name in another script that skilldeck's runtime does not load.",
        why=(
            "The Agent Skills standard accepts lowercase letters and digits of any script after "
            "NFKC normalisation (`навык`, `技能`, `café`), so under the `agentskills` profile such "
            "a name is not an error. skilldeck's runtime (SPEC) still accepts only ASCII "
            "kebab-case names in the catalog, the `skill` tool and the `/name` gesture, where "
            "look-alike letters of other scripts could impersonate another skill; the skill is "
            "therefore not loaded, and this warning says so."
        ),
        fix="give the skill (and its folder) an ASCII kebab-case name if skilldeck should load it.",
    ),
)
