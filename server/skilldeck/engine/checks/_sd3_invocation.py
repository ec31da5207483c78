"""SD3xx checks: the invocation policy (declared in ``engine/rules/_sd3_invocation.py``):
legacy spellings of the invocation keys, values that are not booleans, and accepted
values that are not YAML's ``true``/``false``. Sets ``ctx.invocation``.
"""

from __future__ import annotations

from skilldeck.engine.checks._context import Check, CheckContext
from skilldeck.engine.frontmatter import (
    REMOVED,
    Frontmatter,
    FrontmatterEntry,
    describe_value,
    display_text,
    replace_scalar,
)
from skilldeck.engine.registry import InvocationPolicy
from skilldeck.engine.rules import Fix, TextEdit, rule

_INVOCATION_KEYS = ("disable-model-invocation", "user-invocable")
#: The spellings of the invocation keys other tools used, and the key each means.
LEGACY_KEYS = {
    "disableModelInvocation": "disable-model-invocation",
    "modelInvocable": "disable-model-invocation",
    "userInvocable": "user-invocable",
}
_TRUE_SPELLINGS = frozenset({"true", "yes", "on", "1"})
_FALSE_SPELLINGS = frozenset({"false", "no", "off", "0"})


def check_invocation(ctx: CheckContext, fm: Frontmatter) -> None:
    """SD301 (a legacy spelling of an invocation key), SD302 (not a boolean), SD303 (a
    boolean not spelt ``true``/``false``); sets ``ctx.invocation``."""
    _legacy_keys(ctx, fm)
    values: dict[str, bool] = {}
    for key in _INVOCATION_KEYS:
        option = fm.get(key)
        if option is None:
            continue
        flag = invocation_boolean(option.value)
        if flag is None:
            _not_a_boolean(ctx, key, option)
        else:
            values[key] = flag
            check_canonical_boolean(ctx, option, flag)
    ctx.invocation = InvocationPolicy(
        model_invocable=not values.get("disable-model-invocation", False),
        user_invocable=values.get("user-invocable", True),
    )


def _legacy_keys(ctx: CheckContext, fm: Frontmatter) -> None:
    """SD301, with the rename (or, for the inverted ``modelInvocable``, the rewrite)."""
    for entry in fm.entries:
        canonical = LEGACY_KEYS.get(entry.key)
        if canonical is None:
            continue
        inverted = entry.key == "modelInvocable"
        fixes: tuple[Fix, ...] = ()
        if fm.get(canonical) is None:
            if not inverted:
                key_source = ctx.source(entry.key_span) or entry.key
                fixes = ctx.offer(
                    f"Rename to '{canonical}'",
                    (TextEdit(entry.key_span, replace_scalar(key_source, canonical)),),
                    {entry.key: REMOVED, canonical: entry.value},
                    unsafe=True,
                )
            else:
                flag = invocation_boolean(entry.value)
                if flag is not None and ctx.one_line_scalar(entry):
                    new = f"{canonical}: {'false' if flag else 'true'}"
                    fixes = ctx.offer(
                        f"Replace with '{new}'",
                        (TextEdit(entry.span, new),),
                        {entry.key: REMOVED, canonical: not flag},
                        unsafe=True,
                    )
        note = " with the opposite value" if inverted else ""
        ctx.findings.append(
            rule("SD301").finding(
                entry.key_span, fixes=fixes, key=entry.key, canonical=canonical, note=note
            )
        )


def _not_a_boolean(ctx: CheckContext, key: str, option: FrontmatterEntry) -> None:
    """SD302, with a fix for each boolean (the author's intent is a guess)."""
    choices: tuple[Fix, ...] = ()
    if ctx.one_line_scalar(option):
        choices = tuple(
            fix
            for word in ("true", "false")
            for fix in ctx.offer(
                f"Replace with '{word}'",
                ctx.replace_value(option, word),
                {key: word == "true"},
                unsafe=True,  # the author's intent is a guess
            )
        )
    ctx.findings.append(
        rule("SD302").finding(
            ctx.value_or_key_span(option),
            fixes=choices,
            key=key,
            found=describe_value(option.value),
        )
    )


def check_canonical_boolean(ctx: CheckContext, entry: FrontmatterEntry, flag: bool) -> None:
    """SD303: an accepted invocation value that is not a YAML boolean."""
    if isinstance(entry.value, bool):
        return
    canonical = "true" if flag else "false"
    raw = ctx.source(entry.value_span)
    fixes: tuple[Fix, ...] = ()
    if raw and entry.style in ("plain", "single", "double"):
        fixes = ctx.offer(
            f"Replace with '{canonical}'",
            (TextEdit(entry.value_span, replace_scalar(raw, canonical)),),
            {entry.key: flag},
        )
    ctx.findings.append(
        rule("SD303").finding(
            ctx.value_or_key_span(entry),
            fixes=fixes,
            key=entry.key,
            raw=display_text(raw) if raw else describe_value(entry.value),
            canonical=canonical,
        )
    )


def invocation_boolean(value: object) -> bool | None:
    """The boolean an invocation value spells, or ``None`` when it is not one."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return {1: True, 0: False}.get(value)
    if isinstance(value, str):
        lowered = value.lower()
        if lowered in _TRUE_SPELLINGS:
            return True
        if lowered in _FALSE_SPELLINGS:
            return False
    return None


#: This family's checks, in the order they run.
CHECKS: tuple[Check, ...] = (check_invocation,)
