"""Skill names: why a name is not kebab-case, and the kebab-case form to suggest."""

from __future__ import annotations

import re
import unicodedata

# Common Latin look-alikes from Cyrillic and Greek, for the kebab-case suggestion.
_CONFUSABLES = str.maketrans(
    {
        **dict(
            zip(
                "\u0430\u0441\u0435\u0456\u0458\u043e\u0440\u0455\u0445\u0443\u0501\u04bb\u04cf",
                "aceijopsxydhl",
                strict=True,
            )
        ),
        **dict(
            zip(
                "\u0410\u0412\u0421\u0415\u041d\u0406\u0408\u041a\u041c\u041e\u0420\u0405\u0422\u0425\u0423",
                "abcehijkmopstxy",
                strict=True,
            )
        ),
        **dict(
            zip("\u03bf\u03b1\u03b9\u03bd\u03ba\u03c4\u03c5\u03c1\u03b5", "oaivktupe", strict=True)
        ),
    }
)
_DASHES = re.compile("[\u2010-\u2015\u2212\ufe58\ufe63\uff0d_\\s.]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_NON_KEBAB = re.compile(r"[^a-z0-9]+")


def kebab_case(value: str) -> str:
    """The closest kebab-case name to ``value`` (``""`` when nothing is left)."""
    text = unicodedata.normalize("NFKC", value).translate(_CONFUSABLES)
    text = _CAMEL.sub("-", text)
    text = _DASHES.sub("-", text).lower()
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return _NON_KEBAB.sub("-", text).strip("-")


def name_problem(value: str) -> str:
    """Why ``value`` is not kebab-case, naming the first offending character."""
    if value != value.strip():
        return "it has leading or trailing whitespace"
    for index, ch in enumerate(value):
        if "a" <= ch <= "z" or "0" <= ch <= "9" or ch == "-":
            continue
        code = f"U+{ord(ch):04X}"
        category = unicodedata.category(ch)
        label = unicodedata.name(ch, "")
        described = f"{code} {label}".strip()
        where = f"at position {index + 1}"
        if category in ("Cc", "Cf", "Zl", "Zp") or ch in "\u00ad":
            return f"invisible or control character {described} {where}"
        if ord(ch) > 0x7F:
            look = ch.translate(_CONFUSABLES)
            if look != ch and look.isascii():
                return f"{described} {where} looks like the Latin letter '{look}'"
            return f"non-ASCII character {described} {where}"
        if "A" <= ch <= "Z":
            return f"uppercase letter '{ch}' {where}"
        if ch == " ":
            return f"space {where}"
        return f"character '{ch}' {where}"
    if value.startswith("-") or value.endswith("-"):
        return "it starts or ends with a hyphen"
    return "hyphens must separate words one at a time"


# --- the Agent Skills standard's names ------------------------------------------------
# The standard (and its reference validator, skills-ref) judges a name after NFKC
# normalisation: letters and digits of any script, lowercase, single hyphens between
# them. skilldeck's runtime still loads only ASCII kebab-case names (model.is_skill_name):
# the agentskills profile judges files, it never widens what the engine loads.


def standard_form(value: str) -> str:
    """``value`` as the Agent Skills standard compares names (NFKC-normalised)."""
    return unicodedata.normalize("NFKC", value)


def standard_name_problem(value: str) -> str | None:
    """Why ``value`` is not a name under the Agent Skills standard; ``None`` when it is.

    Unlike skills-ref, surrounding whitespace is a problem here (docs/compatibility.md).
    """
    if not value:
        return "it is empty"
    if value != value.strip():
        return "it has leading or trailing whitespace"
    name = standard_form(value)
    for index, ch in enumerate(name):
        if ch != ch.lower():
            return f"uppercase letter '{ch}' (U+{ord(ch):04X}) at position {index + 1}"
    for index, ch in enumerate(name):
        if not (ch.isalnum() or ch == "-"):
            label = unicodedata.name(ch, "")
            return f"U+{ord(ch):04X} {label}".strip() + (
                f" at position {index + 1} is neither a letter, a digit nor a hyphen"
            )
    if name.startswith("-") or name.endswith("-"):
        return "it starts or ends with a hyphen"
    if "--" in name:
        return "hyphens must separate words one at a time"
    return None
