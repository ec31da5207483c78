"""SD5xx checks: the catalog view (declared in ``engine/rules/_sd5_catalog.py``)."""

from __future__ import annotations

from skilldeck.engine.checks._context import Check, CheckContext
from skilldeck.engine.frontmatter import Frontmatter, display_text
from skilldeck.engine.rules import rule
from skilldeck.engine.text import catalog_kept, collapse_whitespace


def check_catalog_length(ctx: CheckContext, fm: Frontmatter) -> None:
    """SD501: the description is cut in the catalog (``catalog.max_description_length``);
    the finding starts at the first character the catalog leaves out."""
    value = ctx.description
    entry = fm.get("description")
    if value is None or entry is None:
        return
    cap = ctx.settings.catalog_max_description_length
    kept = catalog_kept(value, cap)
    if kept is not None:
        visible = len(kept) - kept.count(" ")  # collapsed: one space between words
        ctx.findings.append(
            rule("SD501").finding(
                ctx.past_visible(entry, visible),
                length=len(collapse_whitespace(value)),
                cap=cap,
                tail=_last_words(kept),
            )
        )


def _last_words(kept: str, limit: int = 30) -> str:
    """``…`` and the last words of ``kept`` (at most ``limit`` characters): where the
    catalog's cut falls, without quoting the whole description."""
    words: list[str] = []
    kept = kept.rstrip()
    for word in reversed(kept.split(" ")):
        if words and sum(len(w) + 1 for w in words) + len(word) > limit:
            break
        words.insert(0, word)
    tail = " ".join(words)
    tail = tail if len(tail) <= limit else tail[-limit:]
    return "\u2026" + display_text(tail) if len(tail) < len(kept) else display_text(tail)


#: This family's checks, in the order they run.
CHECKS: tuple[Check, ...] = (check_catalog_length,)
