"""SD3xx: the invocation policy.

Checked by ``checks/_sd3_invocation.py``.
"""

from __future__ import annotations

from skilldeck.engine.rules._findings import Severity
from skilldeck.engine.rules._rule import Rule

RULES: tuple[Rule, ...] = (
    Rule(
        code="SD301",
        name="legacy-invocation-key",
        severity=Severity.ERROR,
        drops_skill=True,
        fixable=True,
        message="unsupported key '{key}': use '{canonical}'{note}",
        summary="A camelCase invocation key is used instead of the kebab-case one.",
        why=(
            "Who may invoke a skill is set by `disable-model-invocation` and `user-invocable`. "
            "The spellings `disableModelInvocation`, `modelInvocable` and `userInvocable` look "
            "plausible but mean nothing to other agents; silently ignoring them would let the "
            "model invoke a skill its author meant to hide. The skill is therefore skipped until "
            "the key is fixed."
        ),
        example="`modelInvocable: false` → `disable-model-invocation: true`.",
        fix="the quick fix renames the key (and inverts the value for `modelInvocable`).",
        host_judged=True,
    ),
    Rule(
        code="SD302",
        name="invalid-invocation-value",
        severity=Severity.ERROR,
        drops_skill=True,
        fixable=True,
        message="'{key}' must be true or false, found {found}",
        summary="An invocation key has a value that is not a boolean.",
        why=(
            "`disable-model-invocation` and `user-invocable` accept YAML booleans and, in any "
            "letter case, `true`/`false`, `yes`/`no`, `on`/`off` and `1`/`0`. Any other value is "
            "ambiguous about who may invoke the skill, so the skill is skipped (fail closed)."
        ),
        fix="the quick fixes write `true` or `false`.",
        host_judged=True,
    ),
    Rule(
        code="SD303",
        name="non-canonical-boolean",
        severity=Severity.HINT,
        fixable=True,
        message=(
            "'{key}' is {raw}, which skilldeck reads as {canonical}; write {canonical} so every "
            "YAML tool reads the same boolean"
        ),
        summary="An invocation key is spelled other than plain `true`/`false`.",
        why=(
            "skilldeck reads `yes`/`no`, `on`/`off`, `1`/`0` and quoted or differently cased "
            'spellings such as `"True"` as booleans for `disable-model-invocation` and '
            "`user-invocable`. Other YAML tools do not agree: a YAML 1.2 loader reads `yes` and "
            '`"true"` as text and `1` as a number, so another agent or linter may see '
            "something else. The skill still loads; this hint only asks for the one spelling "
            "everyone reads alike."
        ),
        example='`user-invocable: "no"` → `user-invocable: false`.',
        fix="the quick fix writes `true` or `false`.",
    ),
)
