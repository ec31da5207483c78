"""SD7xx: relations between the skills of a deck (shadowing, ``/name`` mentions).

Checked by the deck: ``deck/_deck.py``.
"""

from __future__ import annotations

from skilldeck.engine.rules._findings import Severity
from skilldeck.engine.rules._rule import Rule

RULES: tuple[Rule, ...] = (
    Rule(
        code="SD701",
        name="shadowed-skill",
        severity=Severity.INFORMATION,
        message="shadowed by {source} skill at {path} (rank {rank})",
        summary="Another skill with the same name wins over this one.",
        why=(
            "When two roots hold a skill of the same name, the lower rank wins (project "
            "`.dsh/skills` before project `.agents/skills` before custom, user and bundled "
            "roots). The losing skill is *shadowed*: it is never listed or loaded. This is often "
            "intended (a project overriding a user skill); the note makes it visible."
        ),
        fix="rename one of the skills if both should be available.",
    ),
    Rule(
        code="SD702",
        name="shadows-skill",
        severity=Severity.INFORMATION,
        message="shadows the {source} skill at {path} (rank {rank})",
        summary="This skill hides another skill of the same name.",
        why=(
            "This skill wins a name collision with a skill in a lower-priority root, which is "
            "therefore never listed or loaded. Go to definition on the name jumps to the "
            "shadowed skill."
        ),
    ),
    Rule(
        code="SD703",
        name="duplicate-name-in-root",
        severity=Severity.WARNING,
        message="another skill in this root is also named '{name}': {path}",
        summary="Two skills in the same root share a name.",
        why=(
            "Inside one root only one skill of a name can win, decided by the provider's scan "
            "order, which the author does not control (e.g. a bundle `x/SKILL.md` whose name "
            "collides with a flat `y.md`)."
        ),
        fix="give each skill a unique name.",
    ),
    Rule(
        code="SD704",
        name="unknown-skill-mention",
        severity=Severity.WARNING,
        fixable=True,
        message="'/{name}' names no skill in this deck{hint}",
        summary="A `/name` mention in a body names no skill.",
        why=(
            "A body that tells the user to type `/name` points at a skill by name. When no skill "
            "of the deck (every root and provider, rejected skills not counted) has that name, "
            "the gesture does nothing. The message lists the nearest names. Mentions follow the "
            "gesture's own grammar (SPEC section 5): `/name` after whitespace or at a line "
            "start, followed by whitespace or the end, so `/name.` or `a/b` is no mention."
        ),
        example="`Run /reviw first.` → `Run /review first.`",
        fix="one quick fix per near name replaces the mention.",
    ),
    Rule(
        code="SD705",
        name="mention-not-user-invocable",
        severity=Severity.WARNING,
        message=(
            "'/{name}' names a skill with `user-invocable: false`: the /name gesture will not "
            "inject it"
        ),
        summary="A `/name` mention names a skill the user cannot invoke.",
        why=(
            "The winning skill of that name sets `user-invocable: false`, so a user who types "
            "the mention gets nothing injected (the model may still load it through the catalog)."
        ),
        fix="mention another skill, or make the skill user-invocable.",
    ),
)
