"""How every numeric setting is read: a finite number, never ``inf`` or ``nan``; a score
threshold in (0, 1]."""

from __future__ import annotations

import math

from skilldeck.engine.config._toml_values import toml_text


def finite_number(value: object) -> float | None:
    """``value`` as a float when it is a finite number (an integer or a float, never a
    bool); ``None`` otherwise. Every setting that takes a number reads it through here:
    TOML spells ``inf`` and ``nan``, and an editor's JSON may carry them too, and no
    timeout, interval or threshold means anything when it is not finite."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:  # an integer beyond any float
        return None
    return number if math.isfinite(number) else None


def validate_threshold(value: object, what: str) -> float:
    """``value`` as a score threshold; ``ValueError`` unless a number in (0, 1]."""
    number = finite_number(value)
    if number is None or not 0 < number <= 1:
        raise ValueError(
            f"{what} must be a number greater than 0 and at most 1, found {toml_text(value)}"
        )
    return number
