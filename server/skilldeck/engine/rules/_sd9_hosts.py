"""SD9xx: what the other agents of the ``hosts`` setting make of a skill.

Checked by the deck (``deck/_deck.py``) over ``host_views`` (``docs/hosts.md``).
"""

from __future__ import annotations

from skilldeck.engine.rules._findings import Severity
from skilldeck.engine.rules._rule import Rule

RULES: tuple[Rule, ...] = (
    Rule(
        code="SD901",
        name="host-does-not-load",
        severity=Severity.INFORMATION,
        message="{host} does not load this skill: {reason} (source: {source})",
        summary="An agent in the `hosts` setting would not load this skill.",
        why=(
            "The skill sits in a folder that an agent listed in the `hosts` setting "
            "(`skilldeck.hosts` in the editor, `hosts` in `skilldeck.toml`) reads, but that "
            "agent would not load it: the file is a flat file where the agent reads bundles "
            "only, it is nested too deep, its folder is a symlink the agent does not follow, its "
            "name breaks the agent's name rule, or a same-named skill in a folder the agent "
            "prefers shadows it. Each agent's rules, read from its own code "
            "(`repo:path@commit`), its changelog or its page, are in `docs/hosts.md` with the "
            "version they model; the message names the source."
        ),
        fix=(
            "move or rename the skill as the message says, or drop the agent from `hosts` if you "
            "do not write for it. `skilldeck list --host all` shows the whole matrix."
        ),
    ),
    Rule(
        code="SD902",
        name="host-catalog-trimmed",
        severity=Severity.INFORMATION,
        message="{host}'s skill listing {effect} (source: {source})",
        summary="An agent in the `hosts` setting would cut or drop this skill's catalog entry.",
        why=(
            "The agent loads the skill, but its skill listing keeps less than the whole "
            "description: it cuts each entry at a fixed length (Claude Code: description plus "
            "`when_to_use` at 1,536 characters), or its total listing budget is exceeded and the "
            "entry is shortened, shown by name only or left out. A model that does not see the "
            "description rarely picks the skill. `docs/hosts.md` cites each budget; `skilldeck "
            "budget --host H` shows the whole listing."
        ),
        fix="put the trigger words first and shorten the description, or trim the deck.",
    ),
    Rule(
        code="SD903",
        name="host-lists-same-name-twice",
        severity=Severity.WARNING,
        message=(
            "{host} lists {count} skills named `{name}`; its model sees each as an entry of its "
            "own: {others} (source: {source})"
        ),
        summary=(
            "An agent in the `hosts` setting keeps every same-named skill, so its model sees two "
            "entries with one name."
        ),
        why=(
            "Some agents do not let one same-named skill shadow another: Codex drops a second "
            "copy only when it is the same file, and lists every other skill it finds under its "
            "name, the repository's and the user's alike (`codex-rs/core-skills/src/loader.rs`, "
            "tests `keeps_duplicate_names_from_repo_and_user`). The model then sees two entries "
            "with one name and two descriptions, and which one it follows is its guess. The "
            "finding sits on each of the files and names the others; `skilldeck list --host "
            "codex` shows both as loaded."
        ),
        fix="rename one skill, or remove the copy the agent should not see.",
    ),
)
