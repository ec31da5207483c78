"""What the agent of a host profile makes of one skill file: the findings as
``check --profile claude-code`` and ``--profile codex`` report them.

skilldeck's engine judges a file by SPEC §2 and refuses it, fail closed, on every
finding that drops the skill. Agents are more lenient, each in its own way: how each
observed release reads a file is data (:attr:`Host.reading
<skilldeck.engine.hosts.Host.reading>`, recorded by the host lab), applied by
:func:`~skilldeck.engine.files.read_skill` (the per-host view's reading too). Here the
engine's refusals are judged again:

- under a profile with a host (:attr:`Profile.host <skilldeck.engine.rules.Profile.host>`)
  whether the file loads is *that agent's* verdict, :func:`read_skill`'s: a finding the
  agent's reading tolerates no longer drops the skill; it becomes a warning (information
  where the agent fills the key in itself) worded as what it is, naming the release and
  the agents that load and reject the file. A finding it does not tolerate keeps its
  error and its drop. A file the agent refuses for a reason no engine finding names gets
  SD110 (a byte order mark it does not skip), SD111 (a name longer than it loads) or
  SD112 (its own reason);
- under the other profiles (``dsh``, ``agentskills``) the findings keep SPEC's verdict;
  where agents read as written what a strict parser rejects (a plain value holding
  ``: ``, a key given twice), the message names them.

The engine's own verdict is never changed here: the analysis keeps the codes of its
refusals (``SkillFileAnalysis.engine_drops``).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from skilldeck.engine.files._host_read import (
    HostRead,
    counts_as_true,
    read_skill,
    reads_frontmatter,
    value_kind,
)
from skilldeck.engine.frontmatter import Frontmatter, FrontmatterBounds, find_frontmatter
from skilldeck.engine.hosts import HOSTS, Host
from skilldeck.engine.rules import NOT_LOADED, PROFILES, Finding, Severity, get_profile, rule
from skilldeck.engine.text import Span

#: What an engine refusal is about, as a host's reading tells them apart.
Situation = Literal[
    "no-frontmatter",
    "yaml",
    "duplicate-key",
    "name",
    "name-rule",
    "description",
    "camel-case-key",
    "invocation-value",
]

#: Where a strict parser rejects what agents read as written (a plain value they quote,
#: a key given twice): under ``dsh`` and ``agentskills`` only these findings name the
#: agents that load the file anyway (elsewhere an agent that loads it reads something
#: else than the author wrote: the folder's name, the first body line).
_READ_AS_WRITTEN: frozenset[Situation] = frozenset({"yaml", "duplicate-key"})

#: The characters YAML reads as line breaks and an editor does not (U+0085, U+2028,
#: U+2029). The host lab's matrix (``tests/hosts/cases.toml``) holds none of them, so how
#: the agents read a frontmatter holding one was never observed: no message names agents
#: that load such a file anyway.
_UNOBSERVED_BREAKS = ("\x85", "\u2028", "\u2029")

_SITUATIONS: dict[str, Situation] = {
    "SD101": "no-frontmatter",
    "SD102": "no-frontmatter",
    "SD103": "yaml",
    "SD104": "yaml",
    "SD105": "duplicate-key",
    "SD201": "name",
    "SD202": "name",
    "SD203": "name-rule",
    "SD204": "description",
    "SD205": "description",
    "SD301": "camel-case-key",
    "SD302": "invocation-value",
}


@functools.cache
def _agents() -> tuple[Host, ...]:
    """The agents a profile follows (``claude-code``, ``codex``), in the hosts table's
    order: the ones messages name as loading or rejecting a file."""
    followed = {profile.host for profile in PROFILES.values()}
    return tuple(host for name, host in HOSTS.items() if name in followed)


#: Who rejects every file the engine refuses: skilldeck's engine (DeepSeek Harness runs
#: it) and the Agent Skills standard (the ``agentskills`` profile).
_STRICT = ("DeepSeek Harness", "the Agent Skills standard")


@dataclass(frozen=True)
class HostJudged:
    """The findings as the profile reports them, and the host that judged them."""

    findings: tuple[Finding, ...]
    host: str | None


@dataclass(frozen=True)
class _File:
    """The file being judged, as :func:`read_skill` takes it."""

    path: str
    expected_name: str
    text: str
    bom: bool
    frontmatter: Frontmatter | None
    #: Each host's reading, made once.
    reads: dict[str, HostRead] = field(default_factory=dict, compare=False)

    @functools.cached_property
    def observed(self) -> bool:
        """Whether the host lab observed how the agents read this file's frontmatter
        (it holds no YAML-only line break, :data:`_UNOBSERVED_BREAKS`)."""
        bounds = find_frontmatter(self.text)
        head = self.text[: bounds.body_start] if isinstance(bounds, FrontmatterBounds) else ""
        return not any(char in head for char in _UNOBSERVED_BREAKS)

    @property
    def flat(self) -> bool:
        """Whether the file is a flat skill file (``<name>.md``), not a bundle's."""
        return os.path.basename(self.path) != "SKILL.md"

    def placed_for(self, host: Host) -> bool:
        """Whether ``host`` reads a skill file of this kind at all (a flat file only if
        it reads flat files): where it does not, its reading of the content says nothing
        of whether it loads the file."""
        return not self.flat or host.reads_flat_files

    def read(self, host: Host) -> HostRead:
        read = self.reads.get(host.name)
        if read is None:
            layout = "flat" if self.flat else "bundle"
            text = (self.text, self.bom)
            read = read_skill(host, self.path, layout, self.expected_name, text, offer=False)
            self.reads[host.name] = read
        return read


def _tolerates(host: Host, situation: Situation, finding: Finding, file: _File) -> bool:
    """Whether ``host``'s reading loads a file despite ``finding`` (what else it holds
    aside): the facts of :attr:`Host.reading` and, for YAML, the host's own reading of
    this file's frontmatter."""
    reading = host.reading
    if situation in ("no-frontmatter", "yaml", "duplicate-key"):
        if reading.unreadable == "body":
            return True
        if situation == "no-frontmatter":
            return False
        if situation == "duplicate-key" and reading.duplicate_keys == "last":
            return True
        return reads_frontmatter(reading, file.text)[0]
    if situation in ("name", "description"):
        entry = file.frontmatter.get(situation) if file.frontmatter is not None else None
        kind = value_kind(entry)
        rules = reading.name if situation == "name" else reading.description
        return kind == "text" or getattr(rules, kind) != "drop"
    if situation == "name-rule":
        return reading.display_name or not host.name_is_kebab
    if situation == "camel-case-key":
        return _key_of(finding, file) not in reading.invocation_keys
    return True  # an invocation value: no host refuses a file for it


def _key_of(finding: Finding, file: _File) -> str | None:
    """The key of the entry ``finding`` points into."""
    if file.frontmatter is None:
        return None
    for entry in file.frontmatter.entries:
        if entry.span.start <= finding.span.start <= entry.span.end:
            return entry.key
    return None


def _action(host: Host, situation: Situation, finding: Finding, file: _File) -> str:
    """What ``host`` does instead of refusing the file (it tolerates ``finding``)."""
    reading = host.reading
    if situation in ("no-frontmatter", "yaml", "duplicate-key") and not (
        situation == "duplicate-key" and reading.duplicate_keys == "last"
    ):
        if situation == "yaml" and reads_frontmatter(reading, file.text)[0]:
            return "reads the value as written"
        return "reads the file without frontmatter (its folder's name, its first body line)"
    if situation == "duplicate-key":
        return "reads the last one"
    if situation in ("name", "description"):
        entry = file.frontmatter.get(situation) if file.frontmatter is not None else None
        rules = reading.name if situation == "name" else reading.description
        kind = value_kind(entry)
        action = "use" if kind == "text" else getattr(rules, kind)
        return {
            "use": "reads it as written",
            "folder": "takes the folder's name",
            "fallback": "takes the first line of the body",
            "unlisted": "loads it without a description (and leaves it out of its listing)",
        }.get(action, "reads it as written")
    if situation == "name-rule":
        return "keys the skill by its folder" if reading.display_name else "takes it as written"
    if situation == "camel-case-key":
        return "ignores the key"
    key = _key_of(finding, file)
    if key is None or key not in reading.invocation_keys:
        return "does not read the key"
    entry = file.frontmatter.get(key) if file.frontmatter is not None else None
    value = entry.value if entry is not None else None
    return f"counts it as {'true' if counts_as_true(value, reading.invocation_true) else 'false'}"


def _names(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _base(finding: Finding) -> str:
    return finding.message.removesuffix(NOT_LOADED).rstrip(".")


def _loaders(file: _File, but: Host | None) -> tuple[list[str], list[str]]:
    """The agents (profiles' hosts other than ``but``) that load the file and those that
    do not, by their reading of it (an agent that reads no file of its kind, a flat
    file, is neither)."""
    loading: list[str] = []
    refusing: list[str] = []
    for host in _agents():
        if host is not but and file.placed_for(host):
            (loading if file.read(host).refusal is None else refusing).append(host.label)
    return loading, refusing


def _kept(finding: Finding, file: _File, reader: Host | None) -> Finding:
    """``finding`` (a drop) with the agents that load the file anyway named; under a
    host profile (``reader``), said of that agent too. Only where the host lab observed
    such a file (:attr:`_File.observed`): nothing is claimed of a reading never seen."""
    if not file.observed:
        return finding
    loading, _refusing = _loaders(file, reader)
    if reader is None:
        # Under dsh and agentskills: only the agents that read the frontmatter as written
        # (their repair, the last of a key given twice), not from the body.
        loading = [
            host.label
            for host in _agents()
            if host.label in loading and reads_frontmatter(host.reading, file.text)[0]
        ]
    if not loading:
        return finding
    verb = "loads" if len(loading) == 1 else "load"
    text = f"{_base(finding)}. {_names(loading)} {verb} it anyway"
    if reader is not None:
        text += f"; {reader.version} does not"
    return replace(finding, message=text + NOT_LOADED)


def _unplaced(reader: Host) -> str:
    """What ``reader`` does with a flat skill file: it reads none."""
    return "loads skills only from <name>/SKILL.md, not from a flat file like this one"


def _tolerated(finding: Finding, situation: Situation, file: _File, reader: Host) -> Finding:
    """``finding`` as ``reader``'s profile reports it where ``reader`` tolerates it."""
    loading, refusing = _loaders(file, reader)
    action = _action(reader, situation, finding, file)
    text = f"{_base(finding)}. {reader.version} {action} and loads the skill"
    if file.read(reader).refusal is not None:
        text = f"{_base(finding)}. {reader.version} {action}"
    elif not file.placed_for(reader):
        text = f"{_base(finding)}. {reader.version} {action}, but {_unplaced(reader)}"
    elif loading:
        text += f", as {'does' if len(loading) == 1 else 'do'} {_names(loading)}"
    rejecting = [*_STRICT[:1], *refusing, *_STRICT[1:]]
    text += f"; {_names(rejecting)} reject{'s' if len(rejecting) == 1 else ''} it"
    filled = situation in ("name", "description") and action in (
        "takes the folder's name",
        "takes the first line of the body",
    )
    severity = Severity.INFORMATION if filled else Severity.WARNING
    return replace(finding, severity=severity, drops_skill=False, message=text)


def judge_findings(
    findings: Sequence[Finding],
    *,
    profile: str,
    path: str,
    expected_name: str | None,
    text: str,
    bom: bool,
    frontmatter: Frontmatter | None,
    name_span: Span | None,
) -> HostJudged:
    """``findings`` (the engine's, before settings) as ``profile`` reports them.

    ``text`` is the decoded file (without a byte order mark; ``bom``: the file starts
    with one), ``expected_name`` the name its folder or file gives it, ``name_span``
    where its ``name`` value is."""
    host_name = get_profile(profile).host
    reader = HOSTS[host_name] if host_name is not None else None
    expected = expected_name or os.path.basename(os.path.dirname(path)) or "skill"
    file = _File(path, expected, text, bom, frontmatter)
    judged: list[Finding] = []
    for finding in findings:
        situation = _SITUATIONS.get(finding.code) if finding.drops_skill else None
        if situation is None:
            judged.append(finding)
        elif reader is None:
            keep = situation not in _READ_AS_WRITTEN
            judged.append(finding if keep else _kept(finding, file, None))
        elif _tolerates(reader, situation, finding, file):
            judged.append(_tolerated(finding, situation, file, reader))
        else:
            judged.append(_kept(finding, file, reader))
    if reader is None:
        return HostJudged(tuple(judged), None)
    return HostJudged(_agree(judged, file, reader, name_span), reader.name)


def _agree(
    judged: list[Finding], file: _File, reader: Host, name_span: Span | None
) -> tuple[Finding, ...]:
    """The findings made to say exactly what :func:`read_skill` says of the file: a
    file the agent loads has no finding that drops it; one it refuses has one."""
    read = file.read(reader)
    dropping = [f for f in judged if f.drops_skill]
    if read.refusal is None:
        if not dropping:
            return tuple(judged)
        return tuple(
            replace(
                f,
                severity=Severity.WARNING,
                drops_skill=False,
                message=f"{_base(f)}. {reader.version} loads the skill"
                if file.placed_for(reader)
                else f"{_base(f)}. {reader.version} reads it, but {_unplaced(reader)}",
            )
            if f.drops_skill
            else f
            for f in judged
        )
    if dropping:
        return tuple(judged)
    start = Span.at(0, 0, 0)
    if file.bom and reader.reading.bom == "drop":
        skipping = [h.label for h in _agents() if h is not reader and h.reading.bom == "skip"]
        others = f"; {_names(['DeepSeek Harness', *skipping])} skip the mark"
        found = rule("SD110").finding(start, host=reader.version, others=others)
    elif reader.name_max is not None and len(name := _name_read(file)) > reader.name_max:
        span = name_span if name_span is not None else start
        found = rule("SD111").finding(
            span, length=len(name), host=reader.version, limit=reader.name_max
        )
    else:
        found = rule("SD112").finding(start, host=reader.version, reason=read.refusal)
    return (*judged, found)


def _name_read(file: _File) -> str:
    """The name the file gives (its ``name`` when text, else its folder's)."""
    entry = file.frontmatter.get("name") if file.frontmatter is not None else None
    if entry is not None and isinstance(entry.value, str) and entry.value.strip():
        return entry.value
    return file.expected_name
