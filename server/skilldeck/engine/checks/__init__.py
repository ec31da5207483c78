"""The per-file rules' checks, one module per rule family (``_sd2_name_description.py``
checks what ``rules/_sd2_name_description.py`` declares, and so on), run in order over
one parsed frontmatter by :func:`run_checks`, and what they know: skill names
(kebab-case, the standard's forms), the description placeholder, the key or name an
author meant.

Invariant: a check reports only the codes its family declares; it reads the file's text
and parse through :class:`CheckContext` and never raises for bad content.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skilldeck._lazy import lazy_exports

if TYPE_CHECKING:
    from skilldeck.engine.checks._context import CheckContext as CheckContext
    from skilldeck.engine.checks._near_misses import NameSuggestions as NameSuggestions
    from skilldeck.engine.checks._near_misses import could_mean as could_mean
    from skilldeck.engine.checks._near_misses import nearest_names as nearest_names
    from skilldeck.engine.checks._placeholders import (
        DESCRIPTION_PLACEHOLDER as DESCRIPTION_PLACEHOLDER,
    )
    from skilldeck.engine.checks._run import FILE_CHECKS as FILE_CHECKS
    from skilldeck.engine.checks._run import run_checks as run_checks
    from skilldeck.engine.checks._skill_names import name_problem as name_problem
else:
    __getattr__, __dir__, __all__ = lazy_exports(
        __name__,
        {
            "_context": ("CheckContext",),
            "_near_misses": ("NameSuggestions", "could_mean", "nearest_names"),
            "_placeholders": ("DESCRIPTION_PLACEHOLDER",),
            "_run": ("FILE_CHECKS", "run_checks"),
            "_skill_names": ("name_problem",),
        },
    )
