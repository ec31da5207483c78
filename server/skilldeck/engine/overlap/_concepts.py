"""Words that ask for the same kind of work, for overlap detection.

Two skills can compete for one request while sharing few words: ``code-reviewer`` and
``requesting-code-review`` (review / verify), ``debugging-strategies`` and
``error-diagnostics-debugger`` (debug / diagnose), ``frontend-design`` and ``ui-designer``
(visual design / UI). A small table of the tasks skills are most often written for maps
the words that ask for each task to one concept; :mod:`skilldeck.engine.overlap._features`
adds the concept as a feature wherever one of its words appears, so such a pair shares a
feature the deck's weighting treats like any other (a concept many skills carry weighs
little).

The table is deliberately short: only tasks where plain synonyms are common in skill
descriptions, and only words that mean that task in a request (not ``design``, which
names API, schema and visual design alike).
"""

from __future__ import annotations

#: How a concept is written among a skill's features (a stem never starts so).
CONCEPT_PREFIX = "~"

# fmt: off
#: Concept -> the words (any inflection: they are stemmed) that ask for it.
CONCEPTS: dict[str, tuple[str, ...]] = {
    "review": ("review", "reviewer", "audit", "critique", "inspect"),
    "test": ("test", "testing", "tester", "tdd", "pytest", "unittest"),
    "debug": ("debug", "debugger", "diagnose", "diagnostics", "diagnosis",
              "troubleshoot", "bug"),
    "visual-design": ("ui", "ux", "visual", "layout", "typography", "aesthetic",
                      "mockup"),
}
# fmt: on
