"""SD4xx checks: optional, deferred and misspelt keys (declared in
``engine/rules/_sd4_keys.py``). Sets ``ctx.when_to_use`` and ``ctx.metadata``.
"""

from __future__ import annotations

from types import MappingProxyType

from skilldeck.engine.checks._context import Check, CheckContext
from skilldeck.engine.checks._near_misses import near_miss_key
from skilldeck.engine.checks._sd3_invocation import LEGACY_KEYS
from skilldeck.engine.frontmatter import (
    REMOVED,
    Frontmatter,
    describe_value,
    display_text,
    replace_scalar,
)
from skilldeck.engine.rules import (
    ALL_PROFILE_KEYS,
    DEFERRED_EFFECTS,
    Fix,
    TextEdit,
    get_profile,
    rule,
)


def check_optional(ctx: CheckContext, fm: Frontmatter) -> None:
    entry = fm.get("whenToUse")
    if entry is not None:
        if isinstance(entry.value, str) and entry.value:
            ctx.when_to_use = entry.value
        else:
            hint, fixes = ctx.misread(entry)
            ctx.findings.append(
                rule("SD401").finding(
                    ctx.value_or_key_span(entry),
                    fixes=fixes,
                    found=describe_value(entry.value),
                    hint=hint,
                )
            )
    entry = fm.get("metadata")
    if entry is not None:
        if isinstance(entry.value, dict):
            ctx.metadata = MappingProxyType(entry.value)
        else:
            ctx.findings.append(
                rule("SD402").finding(
                    ctx.value_or_key_span(entry), found=describe_value(entry.value)
                )
            )
    for entry in fm.entries:
        effect = DEFERRED_EFFECTS.get(entry.key)
        if effect is not None:
            ctx.findings.append(rule("SD403").finding(entry.key_span, key=entry.key, effect=effect))


def near_miss_renames(ctx: CheckContext, fm: Frontmatter, intended: str) -> tuple[Fix, ...]:
    """ "Rename to '<intended>'" for each key spelt like ``intended`` (SD404's fix), when
    ``intended`` is not set."""
    if fm.get(intended) is not None:
        return ()
    profile = get_profile(ctx.settings.profile)
    known = [info.key for info in profile.keys]
    fixes: tuple[Fix, ...] = ()
    for entry in fm.entries:
        if entry.key in profile.key_names or entry.key in LEGACY_KEYS:
            continue
        if near_miss_key(entry.key, known) != intended:
            continue
        key_source = ctx.source(entry.key_span) or entry.key
        fixes += ctx.offer(
            f"Rename to '{intended}'",
            (TextEdit(entry.key_span, replace_scalar(key_source, intended)),),
            {entry.key: REMOVED, intended: entry.value},
            unsafe=True,
        )
    return fixes


def check_near_miss_keys(ctx: CheckContext, fm: Frontmatter) -> None:
    """SD404: a key the profile does not know, spelt like one it does; SD405 (open
    profiles): a key no profile documents and nothing reads."""
    profile = get_profile(ctx.settings.profile)
    known = [info.key for info in profile.keys]
    for entry in fm.entries:
        if entry.key in profile.key_names or entry.key in LEGACY_KEYS:
            continue
        intended = near_miss_key(entry.key, known)
        if intended is None:
            # Another agent's key is not unknown (SD405); it is a near miss only where
            # this profile has a key it is spelt like (`when_to_use` under `dsh`).
            if not profile.closed and entry.key not in ALL_PROFILE_KEYS:
                ctx.findings.append(
                    rule("SD405").finding(
                        entry.key_span,
                        fixes=ctx.move_to_metadata(fm, entry),
                        key=display_text(entry.key),
                        profile=profile.name,
                    )
                )
            continue
        info = profile.key(intended)
        assert info is not None
        fixes: tuple[Fix, ...] = ()
        if fm.get(intended) is None:
            key_source = ctx.source(entry.key_span) or entry.key
            fixes = ctx.offer(
                f"Rename to '{intended}'",
                (TextEdit(entry.key_span, replace_scalar(key_source, intended)),),
                {entry.key: REMOVED, intended: entry.value},
                unsafe=True,
            )
        ctx.findings.append(
            rule("SD404").finding(
                entry.key_span,
                fixes=fixes,
                key=display_text(entry.key),
                profile=profile.name,
                intended=intended,
                effect=info.ignored,
            )
        )


#: This family's checks, in the order they run.
CHECKS: tuple[Check, ...] = (check_optional, check_near_miss_keys)
