"""One rule's declaration: :class:`Rule`, its identity, default severity, effect on the
skill, message template and documentation in fixed sections (what it does, why, example,
fix), the way ``docs/rules.md`` shows them.

Each family of rules declares its rules in one module of this package (``_sd2_name_description.py``
...); ``_rules.py`` gathers them into :data:`~skilldeck.engine.rules.RULES`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from skilldeck.engine.rules._findings import Finding, Fix, RelatedLocation, Severity
from skilldeck.engine.rules._profiles import PROFILES
from skilldeck.engine.text import Span

RULE_DOCS_URL = "https://github.com/skilldeck/skilldeck/blob/main/docs/rules.md#{anchor}"

#: The end of every message of a finding that drops the skill.
NOT_LOADED = " (skill not loaded)"

#: The `agentskills` profile alone.
AGENTSKILLS = frozenset({"agentskills"})
#: The profiles that accept keys they do not document (every one but `agentskills`).
OPEN_PROFILES = frozenset({"dsh", "claude-code", "codex"})

#: The profiles that follow an agent's observed reading (``Profile.host``): under them a
#: finding of a ``host_judged`` rule says what that agent does with the file.
HOST_PROFILES = frozenset(name for name, profile in PROFILES.items() if profile.host)
#: What ``docs/rules.md`` says of a ``host_judged`` rule.
HOST_JUDGED_NOTE = (
    "Under a host profile (`claude-code`, `codex`) the verdict is that agent's, as its "
    "release was observed (docs/hosts.md, *Profiles*): where it loads the skill anyway, "
    "a warning (information where the agent fills the key in itself: the folder's name, "
    "the first line of the body) that does not drop the skill and names the release and "
    "the agents that load and reject the file; where it does not load it either, an "
    "error that drops it, naming the agents that load it. skilldeck's engine still skips "
    "the skill (SPEC §2). Under `dsh` and `agentskills`, where agents read as written "
    "what a strict parser rejects (an unquoted `: `, a key given twice), the message "
    "names them."
)

CODE = re.compile(r"^SD[0-9]{3,4}$")
NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Rule:
    """One check: identity, default severity, effect on the skill and documentation.

    ``message`` is a :meth:`str.format` template filled by :meth:`finding`.
    ``profiles`` names the profiles the rule runs under; ``None`` means every profile.
    The documentation comes in fixed sections: ``summary`` (what it does, one sentence:
    the index of ``docs/rules.md``, ``skilldeck rules``, SARIF's short description),
    ``why`` (the rule's reasons and its exact reach, Markdown), ``example`` and ``fix``
    (Markdown; empty when there is none).
    ``host_judged``: under a host profile (:data:`HOST_PROFILES`) its findings say what
    that agent does with the file (:data:`HOST_JUDGED_NOTE`).
    """

    code: str
    name: str
    severity: Severity
    message: str
    summary: str
    why: str
    drops_skill: bool = False
    example: str = ""
    fix: str = ""
    fixable: bool = False
    profiles: frozenset[str] | None = None
    host_judged: bool = False

    @property
    def docs(self) -> str:
        """The documentation as one Markdown text: why, then ``**Example:**`` and
        ``**Fix:**`` (``skilldeck rules CODE``, SARIF's full description)."""
        text = self.why
        for label, section in (("Example", self.example), ("Fix", self.fix)):
            if section:
                text += f"\n\n**{label}:**" + ("\n\n" if section.startswith("```") else " ")
                text += section
        return text

    @property
    def message_shown(self) -> str:
        """The message template as findings show it (with :data:`NOT_LOADED` when the
        rule drops the skill)."""
        return self.message + (NOT_LOADED if self.drops_skill else "")

    @property
    def anchor(self) -> str:
        """The heading anchor of this rule in ``docs/rules.md``."""
        return f"{self.code.lower()}-{self.name}"

    @property
    def docs_url(self) -> str:
        """Link to this rule's documentation (the LSP ``codeDescription``)."""
        return RULE_DOCS_URL.format(anchor=self.anchor)

    def applies_to(self, profile: str) -> bool:
        """True when the rule runs under ``profile``."""
        return self.profiles is None or profile in self.profiles

    def finding(
        self,
        span: Span,
        *,
        drops_skill: bool | None = None,
        related: Iterable[RelatedLocation] = (),
        fixes: Iterable[Fix] = (),
        **fmt: object,
    ) -> Finding:
        """A finding of this rule at ``span`` with the message filled from ``fmt``.

        The severity is the rule's default; settings may change it later. A finding
        that drops the skill says so at the end of its message (:data:`NOT_LOADED`).
        """
        drops = self.drops_skill if drops_skill is None else drops_skill
        message = self.message.format(**fmt)
        return Finding(
            code=self.code,
            severity=self.severity,
            message=f"{message}{NOT_LOADED}" if drops else message,
            span=span,
            drops_skill=drops,
            related=tuple(related),
            fixes=tuple(fixes),
        )
