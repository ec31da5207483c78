"""Rule profiles: which frontmatter keys a target agent knows, documented for humans.

A profile names a target (``dsh`` — skilldeck's own rules, the default —,
``agentskills`` — the Agent Skills standard —, ``claude-code``, ``codex``). It lists the
keys that target understands, with the prose the language server shows in completion and
hover, and decides which profile-specific rules (``Rule.profiles``) run.

A profile with a :attr:`Profile.host` judges a file as that agent's observed release
reads it (:attr:`Host.reading`, applied by ``files.read_skill``): a finding says whether
*that agent* loads the skill (``drops_skill``). Profiles never change whether the
engine itself (SPEC §2) loads a skill: ``SkillFileAnalysis.accepted`` stays SPEC's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

DEFAULT_PROFILE = "dsh"


@dataclass(frozen=True)
class KeyInfo:
    """One frontmatter key as a profile documents it.

    ``value_type`` is ``string``, ``boolean``, ``mapping`` or ``list``; ``values`` are
    completion suggestions for the value; ``surface`` says what the key controls;
    ``enforced`` is False when skilldeck accepts the key but does not act on it;
    ``max_length`` is the profile's length limit (the rules, the JSON Schema and hover all
    read it from here).
    """

    key: str
    documentation: str
    value_type: str
    default: str | None = None
    values: tuple[str, ...] = ()
    surface: str = "metadata"
    enforced: bool = True
    required: bool = False
    #: The longest value the profile accepts, in characters (``None``: no limit).
    max_length: int | None = None
    #: What a misspelt key costs (SD404 quotes it: "ignored: the skill stays ...").
    ignored: str = "ignored"


@dataclass(frozen=True)
class Profile:
    """A target agent's view of frontmatter.

    ``closed`` is True when keys outside ``keys`` are reported (Agent Skills); under
    an open profile unknown keys are always fine. ``host`` names the agent of
    :mod:`skilldeck.engine.hosts` whose observed reading the profile's verdicts follow
    (``None``: the engine's own verdicts, SPEC §2); its ``name`` and ``description``
    keys are then documented from that agent's facts
    (:func:`skilldeck.engine.frontmatter.profile_key`).
    """

    name: str
    description: str
    keys: tuple[KeyInfo, ...]
    closed: bool = False
    host: str | None = None

    def key(self, name: str) -> KeyInfo | None:
        """The documentation of ``name`` under this profile, if it knows the key."""
        for info in self.keys:
            if info.key == name:
                return info
        return None

    @property
    def key_names(self) -> frozenset[str]:
        """Every key this profile documents."""
        return frozenset(info.key for info in self.keys)


_BOOLEANS = ("true", "false")

#: What ``name`` is, whatever the profile (a host profile adds its agent's facts).
NAME_ABOUT = (
    "The skill's identifier: what the model passes to the `skill` tool and what a user "
    "types after `/`."
)
#: What ``description`` is, whatever the profile.
DESCRIPTION_ABOUT = (
    "One or two sentences saying what the skill does and *when to use it*. This is all "
    "the model sees before it decides to load the skill. Put the trigger words first."
)
NAME = KeyInfo(
    "name",
    "**Required.** " + NAME_ABOUT + " Lowercase letters, digits and single hyphens "
    "(`pdf-forms`), and normally the same as the skill's folder (or flat file stem). "
    "A missing or malformed name means the skill is not loaded.",
    "string",
    surface="catalog, `skill` tool and user /name gesture",
    required=True,
    ignored="ignored: the skill's name is read from `name` only",
)
DESCRIPTION = KeyInfo(
    "description",
    "**Required.** One or two sentences saying what the skill does and *when to use "
    "it*. This is all the model sees before it decides to load the skill: the catalog "
    "lists each skill as `name: description`, whitespace collapsed and cut to the "
    "catalog length (500 characters by default). Put the trigger words first.",
    "string",
    surface="catalog",
    required=True,
    ignored="ignored: the catalog shows `description` only",
)
WHEN_TO_USE = KeyInfo(
    "whenToUse",
    "Optional routing hint for the host (when this skill applies). It is kept with "
    "the skill's summary but never shown in the model's catalog. Must be a string; "
    "any other value is dropped with a warning.",
    "string",
    surface="host routing (not in the catalog)",
    ignored="ignored: no routing hint is kept",
)
METADATA = KeyInfo(
    "metadata",
    "Optional open mapping for tools and hosts: version, owner, tags, vendor keys. "
    "skilldeck keeps it as written and never shows it to the model. A value that is "
    "not a mapping is dropped with a warning.",
    "mapping",
    surface="tools and hosts",
    ignored="ignored: nothing is kept as metadata",
)
DISABLE_MODEL_INVOCATION = KeyInfo(
    "disable-model-invocation",
    "When `true`, the skill is left out of the model's catalog and the `skill` tool "
    "refuses it; the user can still run it with `/name`. Default `false`. Accepts YAML "
    "booleans and `yes`/`no`, `on`/`off`, `1`/`0`; any other value means the skill is "
    "not loaded (fail closed).",
    "boolean",
    default="false",
    values=_BOOLEANS,
    surface="model invocation (catalog and `skill` tool)",
    ignored="ignored: the model can still invoke the skill",
)
USER_INVOCABLE = KeyInfo(
    "user-invocable",
    "When `false`, a user's `/name` gesture does not load this skill; the model may "
    "still load it through the catalog. Default `true`. Accepts YAML booleans and "
    "`yes`/`no`, `on`/`off`, `1`/`0`; any other value means the skill is not loaded "
    "(fail closed).",
    "boolean",
    default="true",
    values=_BOOLEANS,
    surface="user /name gesture",
    ignored="ignored: the skill stays user-invocable",
)


def _deferred(key: str, value_type: str, what: str, values: tuple[str, ...] = ()) -> KeyInfo:
    return KeyInfo(
        key,
        f"{what} Reserved by the skill-system design and used by some agents; "
        "**skilldeck accepts it but does not enforce it**.",
        value_type,
        values=values,
        surface="not enforced",
        enforced=False,
        ignored=f"ignored: agents that act on '{key}' will not see it",
    )


#: What each deferred key would do; the SD403 message quotes it.
DEFERRED_EFFECTS: Mapping[str, str] = MappingProxyType(
    {
        "context": "the skill always runs in the current conversation, never in a fork",
        "arguments": "arguments are not parsed or validated",
        "argument-hint": "no argument hint is shown",
        "allowed-tools": "the skill does not restrict which tools the agent may use",
        "disallowed-tools": "no tool is blocked while the skill is active",
    }
)

CONTEXT = _deferred(
    "context",
    "string",
    "Where the skill runs, e.g. `fork` for a separate sub-agent context.",
    values=("fork",),
)
ARGUMENTS = _deferred("arguments", "list", "Declared arguments the skill accepts.")
ARGUMENT_HINT = _deferred(
    "argument-hint", "string", "A hint shown after `/name` about what arguments to type."
)
ALLOWED_TOOLS = _deferred(
    "allowed-tools", "string", "Tools the skill may use without asking (space-separated)."
)
DISALLOWED_TOOLS = _deferred("disallowed-tools", "string", "Tools blocked while the skill runs.")

LICENSE = KeyInfo(
    "license",
    "The license of the skill, e.g. `Apache-2.0` or the name of a bundled license "
    "file. Informational; skilldeck does not check it.",
    "string",
    surface="informational",
)
COMPATIBILITY = KeyInfo(
    "compatibility",
    "Environment requirements in at most 500 characters: intended product, system "
    "packages, network access. Informational; under the `agentskills` profile it must "
    "be a string of at most 500 characters.",
    "string",
    surface="informational",
)
AGENTSKILLS_METADATA = KeyInfo(
    "metadata",
    "A mapping from string keys to **string** values for properties the standard does "
    'not define (`author`, `version`, vendor keys). Quote numbers: `version: "1.0"`.',
    "mapping",
    surface="tools and hosts",
    ignored=METADATA.ignored,
)
AGENTSKILLS_NAME = KeyInfo(
    "name",
    NAME.documentation + " The Agent Skills standard also limits it to 64 characters "
    "and requires it to equal the skill's directory name. It accepts lowercase letters "
    "and digits of any script (`навык`, compared after NFKC normalisation), but "
    "skilldeck loads only ASCII kebab-case names (SD606).",
    "string",
    surface=NAME.surface,
    required=True,
    max_length=64,
    ignored=NAME.ignored,
)
AGENTSKILLS_DESCRIPTION = KeyInfo(
    "description",
    DESCRIPTION.documentation + " The Agent Skills standard limits it to 1024 characters.",
    "string",
    surface="catalog",
    required=True,
    max_length=1024,
    ignored=DESCRIPTION.ignored,
)
AGENTSKILLS_COMPATIBILITY = replace(COMPATIBILITY, max_length=500)
CLAUDE_WHEN_TO_USE = KeyInfo(
    "when_to_use",
    "Claude Code's routing hint: when this skill applies. Claude Code adds it to the "
    "skill's entry in its skill listing, after the description, and cuts the two "
    "together at its entry length (docs/hosts.md). skilldeck's own spelling, "
    "`whenToUse`, is not read by Claude Code.",
    "string",
    surface="Claude Code's skill listing",
    enforced=False,
    ignored="ignored: Claude Code's listing shows the description only",
)
MODEL = KeyInfo(
    "model",
    "The model Claude Code should use while the skill is active. skilldeck does not act on it.",
    "string",
    surface="not enforced",
    enforced=False,
)

_DSH_KEYS = (
    NAME,
    DESCRIPTION,
    WHEN_TO_USE,
    METADATA,
    DISABLE_MODEL_INVOCATION,
    USER_INVOCABLE,
    CONTEXT,
    ARGUMENTS,
    ARGUMENT_HINT,
    ALLOWED_TOOLS,
    DISALLOWED_TOOLS,
)

PROFILES: Mapping[str, Profile] = MappingProxyType(
    {
        "dsh": Profile(
            "dsh",
            "skilldeck's own rules (the default): the keys the engine interprets, the "
            "deferred keys noted as not enforced, and any other key allowed.",
            _DSH_KEYS,
        ),
        "agentskills": Profile(
            "agentskills",
            "The Agent Skills standard (agentskills.io): only name, description, license, "
            "compatibility, metadata and allowed-tools; name at most 64 characters and "
            "equal to its directory; description at most 1024; metadata a string map.",
            (
                AGENTSKILLS_NAME,
                AGENTSKILLS_DESCRIPTION,
                LICENSE,
                AGENTSKILLS_COMPATIBILITY,
                AGENTSKILLS_METADATA,
                ALLOWED_TOOLS,
            ),
            closed=True,
        ),
        "claude-code": Profile(
            "claude-code",
            "Claude Code's skills: skilldeck's keys plus the ones Claude Code documents "
            "(`license`, `model`); each file judged as the observed Claude Code release "
            "reads it (docs/hosts.md).",
            (*_DSH_KEYS, CLAUDE_WHEN_TO_USE, LICENSE, MODEL),
            host="claude-code",
        ),
        "codex": Profile(
            "codex",
            "Codex skills: the Agent Skills keys documented, skilldeck's keys accepted; "
            "each file judged as the observed Codex release reads it (docs/hosts.md).",
            (*_DSH_KEYS, LICENSE, COMPATIBILITY),
            host="codex",
        ),
    }
)


#: Every key some profile documents (an agent's key is a near miss, SD404, only under a
#: profile that does not know it and has a key it is spelt like: `when_to_use` under
#: `dsh`, where the routing hint is `whenToUse`).
ALL_PROFILE_KEYS: frozenset[str] = frozenset(
    key for profile in PROFILES.values() for key in profile.key_names
)


def get_profile(name: str) -> Profile:
    """The profile called ``name``; ``ValueError`` lists the valid names otherwise."""
    try:
        return PROFILES[name]
    except KeyError:
        valid = ", ".join(PROFILES)
        raise ValueError(f"unknown profile {name!r}; choose one of: {valid}") from None
