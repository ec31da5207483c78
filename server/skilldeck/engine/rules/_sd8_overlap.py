"""SD8xx: routing overlap between skills the model must tell apart.

Checked by ``overlap/_deck_overlap.py`` (``docs/overlap.md``), reported by the deck.
"""

from __future__ import annotations

from skilldeck.engine.rules._findings import Severity
from skilldeck.engine.rules._rule import Rule

RULES: tuple[Rule, ...] = (
    Rule(
        code="SD801",
        name="overlapping-skills",
        severity=Severity.INFORMATION,
        message=(
            "`{name}` and `{other}` describe overlapping tasks{scope} (score {score:.2f}; "
            "shared: {shared})"
        ),
        summary="Two skills the model can choose from describe nearly the same tasks.",
        why=(
            "The model picks a skill from its name and description. When two skills of the deck "
            'describe the same kind of request, the model picks the wrong one or neither ("my '
            'skill never triggers"). The score compares the names and descriptions (plus '
            "`whenToUse`) of the deck's model-invocable winners: words are stemmed, stop words "
            "and template phrases shared by many skills weigh little, names and acronyms count "
            "(`tdd-workflow` and `test-driven-development`), a few tasks count in other words "
            "too (review / audit, test / TDD, debug / diagnose, UI / visual design) and count "
            "more when the name says them (`python-testing` and `test-automator`). A generalist, "
            "whose name says one task and otherwise only a role (`code-reviewer`, `review`, "
            "`tdd-guide`, `debugger`), competes with every skill whose name says that task for a "
            "named thing (`swift-reviewer`, `django-tdd`), however their descriptions read: such "
            "a pair scores at least 0.30. Skills about different languages, vendors or clouds, "
            "whose names say different platforms (`backend-*` / `mobile-*`) or different kinds "
            "of work (one reviews, the other writes; end-to-end tests, named `e2e-*` or for a "
            "browser driver such as Playwright, and other tests), or divide one family's work "
            "(`c4-component` / `c4-container`: the names begin alike and each adds its own part; "
            "`typescript-pro` adds only a role and still competes), are told apart. Both skills "
            "get the finding, each pointing at the other (a skill is told about its three "
            "nearest competitors, its family of near-duplicates (SD802) counting as one); "
            "`skilldeck overlap` lists each skill's ten strongest competitors and the clusters "
            "they form. The editor shows this finding on the files open in it (at information "
            "level; raised to a warning, on every file): `check` lists every one "
            '(docs/overlap.md, "Quiet at scale"). A family of near-duplicates competes as one '
            "skill: its members are not reported to each other here, and a skill that overlaps a "
            "family is told about it once, naming one member. With other agents in the `hosts` "
            "setting, each one's skills compete as that agent loads them: a pair involving a "
            "skill only that agent offers (say, a `.claude/skills` folder the deck does not "
            "read) is reported with the agent's name (`... overlapping tasks for Claude Code`); "
            "`skilldeck overlap --host H` lists one agent's pairs. The threshold is `threshold` "
            "in the `[overlap]` table of `skilldeck.toml` (default 0.23). The score is a "
            "judgement from words: a pair you have checked and know the model tells apart (the "
            "levels of one family, the stages of one pipeline) is declared once in `distinct` in "
            "the same table, a list of groups of skill names or `fnmatch` patterns: `distinct = "
            '[["c4-*"], ["opensource-forker", "opensource-sanitizer"]]`. Two skills whose '
            "names both match one group are not reported to each other (hover still shows their "
            "score, marked declared distinct; `skilldeck overlap` says how many pairs it left "
            "out); in the editor, the quick fix *Declare `a` and `b` distinct* adds the pair to "
            "the project's config file (a new `skilldeck.toml` when there is none), keeping what "
            "the file says. A family of near-identical descriptions (SD802) is reported all the "
            "same. More, with the measured quality: `docs/overlap.md`."
        ),
        fix=(
            "say in each description what sets the skill apart (its scope, inputs, the moment it "
            "applies), merge the two skills, turn one off for the model "
            "(`disable-model-invocation: true`), or declare the pair distinct."
        ),
    ),
    Rule(
        code="SD802",
        name="near-duplicate-description",
        severity=Severity.WARNING,
        message="{count} skills have {how}{scope}: {names}; the model cannot tell them apart",
        summary="Skills the model can choose from have nearly identical descriptions.",
        why=(
            "The descriptions are nearly word for word the same (often a copied skill or "
            "template), so the model has nothing to choose by. Near-duplicates are reported as a "
            "family, not pair by pair: skills with the same description (the same words, "
            "whatever the case and punctuation) are one family (a copy whose name tells it apart "
            "from the first of them, as SD801 scores names, stays out), and two skills whose "
            "descriptions differ join (with everything each is joined to) when they compete "
            "(SD801's score reaches the threshold) and their descriptions' word similarity "
            "reaches `near-duplicate-threshold` in the `[overlap]` table of `skilldeck.toml` "
            "(default 0.8). Each file of the family gets one warning naming the family (seven "
            "copies: seven warnings, not 21), listing the first six names and pointing at up to "
            "20 of the others; its members are not also reported to each other as SD801. "
            "`[overlap] distinct` does not split a family: a description copied word for word "
            "leaves the model nothing to tell the skills apart by. `skilldeck overlap` lists the "
            "families."
        ),
        fix="remove the copies, or rewrite each description to say what only that skill does.",
    ),
)
