"""The agents that read skill files (*hosts*), as data: where each looks, how it reads a
file, and what its listing shows and keeps.

Every host of the host lab models the release the lab observed (``tools/host_lab/lock.toml``;
:attr:`Host.version` names it and :attr:`Host.observed` the lab command that recorded it):
what the release did on the case matrix is the source, kept as data in
``tests/hosts/observed/``. What the matrix does not reach is read from the host's own code
where it is public (Codex, Gemini CLI, OpenCode, Kimi Code), its changelog (GitHub Copilot
CLI) or its documentation (Claude Code, the Agent Skills standard). ``docs/hosts.md``
gives the source of each field; a test holds the two together, and
``tests/hosts/test_hosts_observed.py`` holds the verdicts to the records.

A host is judged by :mod:`skilldeck.engine.host_views`; this module holds no logic beyond
looking hosts up.

The facts another part of skilldeck needs about how a host *reads* one file (the rule
profiles: "Claude Code repairs an unquoted ``: `` and loads the skill") are
:attr:`Host.reading` (:class:`Reading`, :class:`ValueRules`); they are declared here once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

#: ``project``: below the project (walking per :attr:`HostRoot.walk`); ``user``: below home;
#: ``extra``: a folder the host's settings name (:class:`HostSettings`), its path absolute.
Scope = Literal["project", "user", "extra"]
#: ``project-root``: only ``<project root>/<path>`` (the nearest ancestor with ``.git``);
#: ``cwd-to-root``: ``<dir>/<path>`` for every directory from the lookup cwd up to the
#: project root (nearest first); ``cwd``: only ``<cwd>/<path>``.
Walk = Literal["project-root", "cwd-to-root", "cwd"]
#: What happens to listing entries past the host's total budget: ``name-only`` (Claude
#: Code: entries lose their text, the host's own keep theirs), ``shorten-then-omit``
#: (Codex: descriptions share the room a character at a time, then whole entries go),
#: ``omit`` (GitHub Copilot CLI: entries past the budget are left out).
Overflow = Literal["none", "name-only", "shorten-then-omit", "omit"]
#: Same-named skills: ``first`` (the first by precedence wins, the others are shadowed) or
#: ``keep-all`` (every one is listed: the model sees two entries with one name).
Duplicates = Literal["first", "keep-all"]
#: Folders whose name starts with ``.`` below a root: ``read`` like any other; ``skip``
#: (never read, at any level); ``not-below`` (a hidden skill folder loads, but the host
#: does not search inside a hidden folder for more).
Hidden = Literal["read", "skip", "not-below"]
#: What a host does with a ``name`` or ``description`` value of one kind: ``use`` it (a
#: number or boolean as its text as written), take the ``folder`` name instead (names),
#: make one from the body (``fallback``, descriptions), load the skill but keep it out of
#: the listing (``unlisted``), or ``drop`` the skill.
Action = Literal["use", "folder", "fallback", "unlisted", "drop"]
#: How a listing shows a description's whitespace: ``collapse`` every run to one space
#: and trim (Codex, in names too); ``breaks``: runs of tabs and line breaks become one
#: space, runs of spaces stay, then trim (Claude Code); ``raw`` as the YAML gave it
#: (Gemini CLI, OpenCode, GitHub Copilot CLI); ``trim`` the ends only (Kimi Code).
Whitespace = Literal["collapse", "breaks", "raw", "trim"]
#: What a listing escapes: nothing, ``<`` and ``>`` (Claude Code), or every XML special
#: character (GitHub Copilot CLI).
Escape = Literal["none", "angle", "xml"]
#: How a listing is written: ``plain`` (``- name: text``, skilldeck's own rendering for a
#: host whose listing is not observed), ``codex`` (a skill roots table and
#: ``- name: text (file: r1/<folder>/SKILL.md)``), ``claude`` (``- folder (name): text``),
#: ``xml`` (``<skill>`` elements with a ``<location>``), ``kimi`` (``### Project`` /
#: ``### User`` sections of ``- name: text`` and ``  Path: /abs/SKILL.md``).
Format = Literal["plain", "codex", "claude", "xml", "kimi"]
#: The order of a listing: ``name``; ``codex``: the host's own skills, then by scope
#: (project, user), name and path; ``roots``: root by root in precedence order, each
#: root's skills by folder name (Claude Code: personal before project); ``scopes``: the
#: project's skills by name, then the personal roots in order, each by name (GitHub
#: Copilot CLI); ``sections``: the project's skills, then the personal ones, each by name
#: (Kimi Code); ``none``: no stable order (Gemini CLI, OpenCode).
Order = Literal["name", "codex", "roots", "scopes", "sections", "none"]
#: The order a host walks one root in: ``breadth`` (a folder's own skills before those of
#: its subfolders) or ``path`` (depth first, by path: ``group/x`` before ``x``).
WalkOrder = Literal["breadth", "path"]

#: The documented conversion skilldeck uses between characters and tokens (one token per
#: four characters, :func:`skilldeck.engine.model_view.tokens_for_length`).
CHARS_PER_TOKEN = 4


@dataclass(frozen=True)
class HostRoot:
    """One folder a host reads skills from.

    ``path`` is relative to the project directory (``scope="project"``) or to the home
    folder (``scope="user"``).
    """

    scope: Scope
    path: str
    walk: Walk = "project-root"
    #: How this root treats hidden folders, where it differs from the host's
    #: (:attr:`Host.hidden`): OpenCode's ``skills.paths`` are searched without ``dot``.
    hidden: Hidden | None = None


#: A setting's effect on one skill (Claude Code's ``skillOverrides``): ``on`` (as
#: without it), ``name-only`` (listed without its text), ``user-invocable-only`` (kept
#: from the model: ``left-out``), ``off`` (not loaded at all).
Override = Literal["on", "name-only", "user-invocable-only", "off"]


@dataclass(frozen=True)
class ConfigFile:
    """One file a host reads its settings from: ``path`` below the project root
    (``scope="project"``) or the home folder (``user``), JSON or TOML."""

    scope: Literal["project", "user"]
    path: str
    format: Literal["json", "toml"] = "json"


@dataclass(frozen=True)
class HostSettings:
    """The host's settings that change its listing, and where it reads them (observed
    on the case matrix's ``s-*`` cases; ``docs/hosts.md``). ``files`` are read in order,
    a later file's value winning (for a mapping, key by key). Each key is a dotted path
    into a file's document (``None``: the host has no such setting):

    ``overrides``: a mapping of skill (its folder name) to :data:`Override`.
    ``entry_cap``: the characters of an entry's text kept (the host's ellipsis
    included), in place of :attr:`CatalogRules.entry_cap`. ``extra_dirs``: a list of
    more folders to read skills from (``~/`` is home; a relative path is below
    ``extra_base``: the start folder or the project root), searched as the host's own
    roots are, but hidden folders by ``extra_hidden``. ``urls``: a list of addresses the
    host downloads skills from (skilldeck downloads nothing: it says so).
    ``env_off``: environment variables that, set to a true value (``1`` or ``true``),
    turn off the host's roots of that path (``(variable, ".claude/skills")``).
    ``trust``: a boolean that turns folder trust on; ``trusted_folders``: the file of
    folders the user trusted (a mapping of path to ``TRUST_FOLDER``, ``TRUST_PARENT`` or
    ``DO_NOT_TRUST``: Gemini CLI's ``trustedFolders.json``); ``trust_env``: a variable
    that trusts the folder (``GEMINI_CLI_TRUST_WORKSPACE=true``). With trust on and the
    start folder not trusted, the host reads no project roots.
    """

    files: tuple[ConfigFile, ...] = ()
    overrides: str | None = None
    entry_cap: str | None = None
    extra_dirs: str | None = None
    extra_base: Literal["cwd", "project-root"] = "cwd"
    extra_hidden: Hidden | None = None
    urls: str | None = None
    env_off: tuple[tuple[str, str], ...] = ()
    trust: str | None = None
    trusted_folders: ConfigFile | None = None
    trust_env: str | None = None


@dataclass(frozen=True)
class ValueRules:
    """What a host does with a ``name`` or ``description`` of each kind: absent
    (``missing``), ``null`` (``key:`` with no value), ``empty`` (``""``), ``blank``
    (spaces only), a number or boolean (``scalar``), a list or mapping
    (``collection``)."""

    missing: Action = "drop"
    null: Action = "drop"
    empty: Action = "drop"
    blank: Action = "use"
    scalar: Action = "use"
    collection: Action = "drop"


_STRICT = ValueRules()


@dataclass(frozen=True)
class Reading:
    """How a host reads one skill file: the frontmatter it finds, the YAML it accepts or
    repairs, and the name and description it takes (observed on the case matrix,
    ``docs/hosts.md``).

    ``bom``: a UTF-8 byte order mark before ``---`` is skipped, or the host finds no
    frontmatter (``drop``). ``tab_before_key``: a tab before a top-level key reads as
    separation, as js-yaml reads it. ``duplicate_keys``: a key given twice drops the
    skill, or the ``last`` one counts. ``repair``: YAML that does not parse is read again
    with each top-level plain value quoted (``quote``: Codex, Claude Code; an unquoted
    ``: `` or an unclosed ``[`` loads) or with each value holding a ``:`` turned into a
    block (``block``: OpenCode); ``repair_keys``: the keys it quotes (empty: every key),
    ``repair_strips_comments``: a `` #...`` comment is dropped before (Codex).
    ``final_break``: the YAML is read with a line break after its last line (js-yaml adds
    one, so a block scalar at the end keeps its final line break; GitHub Copilot CLI's
    reader does not). ``unreadable``: no frontmatter, or YAML no repair saves,
    drops the skill or leaves a skill with no keys, described from its ``body`` (Claude
    Code). ``by_line``: where ``name`` and ``description`` are not both text, the host
    reads ``name:`` and ``description:`` lines by hand (Gemini CLI's
    ``parseSimpleFrontmatter``).

    ``name`` / ``description``: :class:`ValueRules`. ``fallback``: how a description is
    made from the body: its ``first-line`` (a heading's text without its ``#``; cut at
    ``fallback_cap`` with ``...``; ``fallback_empty`` for an empty body: Claude Code) or its
    first ``fallback_lines`` lines that are not headings, joined by spaces and cut at
    ``fallback_cap`` (``lines``: GitHub Copilot CLI). ``display_name``: the skill is
    keyed and listed by its folder, with its ``name`` shown beside it (Claude Code).
    ``name_spaces``: what a space in a name becomes. ``name_pattern``: the
    characters a name may hold (after that). ``name_unsafe``: characters turned into
    ``-`` (Gemini CLI).

    ``invocation_keys`` and ``invocation_true``: the keys that keep a skill from the
    model, and the values that count: ``bool`` (YAML ``true``), ``text`` (``true``, ``1``,
    and the texts ``true``, ``yes``, ``1`` in any case), ``truthy`` (any value JavaScript
    counts as true: a quoted ``"false"`` too). ``conditional_paths``: a skill whose
    ``paths:`` names files is offered only once such a file is touched (not in the first
    listing). ``flow_type``:
    ``type: flow`` keeps the skill out of the listing (Kimi Code). ``policy_file``: the
    skill folder's ``agents/openai.yaml`` ``policy.allow_implicit_invocation: false``
    keeps it out (Codex). ``when_to_use``: the keys read for the text after the
    description, first found first (``join`` goes between them).
    """

    bom: Literal["skip", "drop"] = "skip"
    tab_before_key: bool = False
    duplicate_keys: Literal["drop", "last"] = "drop"
    repair: Literal["none", "quote", "block"] = "none"
    repair_keys: tuple[str, ...] = ()
    repair_strips_comments: bool = False
    final_break: bool = True
    unreadable: Literal["drop", "body"] = "drop"
    by_line: bool = False
    name: ValueRules = _STRICT
    description: ValueRules = _STRICT
    fallback: Literal["none", "first-line", "lines"] = "none"
    fallback_cap: int | None = None
    fallback_lines: int = 0
    fallback_empty: str = ""
    display_name: bool = False
    name_spaces: str | None = None
    name_pattern: str | None = None
    name_unsafe: str | None = None
    invocation_keys: tuple[str, ...] = ()
    invocation_true: Literal["bool", "text", "truthy"] = "bool"
    conditional_paths: bool = False
    flow_type: bool = False
    policy_file: bool = False
    when_to_use: tuple[str, ...] = ()
    join: str = " "
    #: The per-entry cut applies to the description alone, before the ``when_to_use``
    #: text is added (Kimi Code); else to the whole entry text (Claude Code).
    cut_before_join: bool = False


@dataclass(frozen=True)
class Builtin:
    """One of the host's own skills, listed beside the user's: its name, its file below
    the host's own root, and the length of its description (observed; the text itself is
    the host's and is not kept)."""

    name: str
    chars: int
    path: str = ""


@dataclass(frozen=True)
class CatalogRules:
    """What a host's skill listing shows and keeps.

    ``entry_cap``: the characters of an entry's text kept (``ellipsis`` included; ``None``:
    no cap). ``budget_fraction``: the listing's share of the context window (``None``: no
    total budget), counted in ``budget_unit`` (``tokens``: a line's UTF-8 bytes / 4,
    rounded up, as Codex counts them; ``chars``). ``budget_chars``: a fixed budget in
    characters (GitHub Copilot CLI), or the budget observed when ``--context`` is not
    given (Claude Code). ``default_context_tokens``: the context window assumed when
    ``--context`` is not given (``None``: unknown). ``budget_overhead``: tokens Codex's
    skill roots table costs beyond its lines (observed). ``builtins``: the host's own
    skills, listed with the user's and counted in its budget. ``builtin_root``: where
    they are (Codex: ``.codex/skills/.system`` below home, a root of the listing's table).
    """

    fields: tuple[str, ...] = ("description",)
    entry_cap: int | None = None
    ellipsis: str = "..."
    budget_fraction: float | None = None
    budget_unit: Literal["chars", "tokens"] = "chars"
    budget_chars: int | None = None
    budget_chars_unknown_context: int | None = None
    default_context_tokens: int | None = None
    budget_overhead: int = 0
    overflow: Overflow = "none"
    format: Format = "plain"
    whitespace: Whitespace = "collapse"
    escape: Escape = "none"
    order: Order = "name"
    builtins: tuple[Builtin, ...] = ()
    builtin_root: str | None = None


@dataclass(frozen=True)
class Host:
    """One agent and the rules it reads skills by (see ``docs/hosts.md``).

    ``engine_roots``: the host is skilldeck's own (DSH): its roots, ranks and verdicts
    are the engine's, exactly as ``check`` and ``list`` report them, and ``roots`` is
    empty. ``dialect`` is the rule profile its frontmatter is judged by (``--profile``).
    ``version`` names the release or commit of the host these rules were read from;
    ``observed``, the host lab's command that recorded that release (``None``: not
    observed, the rules are read from ``docs``).
    """

    name: str
    label: str
    dialect: str
    docs: str
    version: str
    roots: tuple[HostRoot, ...] = ()
    engine_roots: bool = False
    observed: str | None = None
    reads_flat_files: bool = False
    #: A flat file without ``name`` / ``description`` takes its file name and its first
    #: body line (Kimi Code); a flat file beside a same-named skill folder is not read.
    flat_fallbacks: bool = False
    follows_symlinks: bool = True
    #: A ``SKILL.md`` directly in a root is a skill too (OpenCode's ``**/SKILL.md``
    #: matches it): named by its frontmatter, its folder the root.
    reads_root_file: bool = False
    #: A ``SKILL.md`` that is itself a symlink is not read (Codex), where folders are.
    skips_linked_files: bool = False
    honors_disable_model_invocation: bool = False
    name_is_kebab: bool = False
    name_equals_folder: bool = False
    #: Same-named skills are compared without case (``Deploy`` shadows ``deploy``).
    names_ignore_case: bool = False
    name_max: int | None = None
    description_max: int | None = None
    #: Names with a character outside ASCII are not loaded (GitHub Copilot CLI).
    name_ascii_only: bool = False
    #: How many folders below a root a ``SKILL.md`` may sit: 1 is ``<root>/<name>/SKILL.md``
    #: only; ``None``: no limit.
    nesting: int | None = 1
    #: The host searches inside a folder that is itself a skill (its ``SKILL.md`` found).
    searches_inside_skills: bool = True
    hidden: Hidden = "read"
    #: Folder names the host passes over as it does hidden folders (by :attr:`hidden`).
    ignored_folders: tuple[str, ...] = ()
    duplicates: Duplicates = "first"
    #: Two ways to one file (a symlinked folder beside its target) are one skill: the
    #: first found is kept, whatever its name (Claude Code, Codex).
    dedupes_real_paths: bool = False
    walk_order: WalkOrder = "breadth"
    #: Which of two same-named skills in one folder wins is not stable (the host's loader
    #: has no order: a glob's or a concurrent parse's).
    unstable_within_root: bool = False
    #: Project folders are read only in a folder the user trusts (skilldeck assumes the
    #: project is trusted).
    project_needs_trust: bool = False
    reading: Reading = Reading()
    catalog: CatalogRules = CatalogRules()
    #: Where the host reads its own settings, and those that change its listing.
    settings: HostSettings = HostSettings()
    #: Skill folder names the host keeps for itself: a skill folder so named is not
    #: loaded (Claude Code: ``synced``).
    reserved_folders: tuple[str, ...] = ()

    @property
    def cited(self) -> str:
        """The source a finding about this host names: the release the host lab
        observed, else the code or page the rules were read from."""
        if self.observed is not None:
            return f"{self.version}, observed by scripts/host-lab"
        return self.docs

    @property
    def requires_name(self) -> bool:
        """Whether a skill without a ``name`` is not loaded."""
        return self.reading.name.missing == "drop"

    @property
    def requires_description(self) -> bool:
        """Whether a skill without a ``description`` is not loaded."""
        return self.reading.description.missing == "drop"

    def root_display(self, root: HostRoot) -> str:
        """The root as the host's documentation writes it."""
        if root.scope == "user":
            return f"~/{root.path}"
        return root.path


_AGENTS = HostRoot("project", ".agents/skills")
_USER_AGENTS = HostRoot("user", ".agents/skills")

HOSTS: Mapping[str, Host] = MappingProxyType(
    {
        "dsh": Host(
            "dsh",
            "DeepSeek Harness",
            "dsh",
            "SPEC.md",
            "skilldeck's engine (SPEC.md)",
            engine_roots=True,
            reads_flat_files=True,
            honors_disable_model_invocation=True,
            name_is_kebab=True,
        ),
        "claude-code": Host(
            "claude-code",
            "Claude Code",
            "claude-code",
            "https://code.claude.com/docs/en/skills",
            "Claude Code 2.1.332",
            observed="scripts/host-lab record --host claude-code",
            roots=(
                HostRoot("user", ".claude/skills"),
                HostRoot("project", ".claude/skills", walk="cwd-to-root"),
            ),
            honors_disable_model_invocation=True,
            dedupes_real_paths=True,
            reserved_folders=("synced",),
            settings=HostSettings(
                files=(
                    ConfigFile("user", ".claude/settings.json"),
                    ConfigFile("project", ".claude/settings.json"),
                    ConfigFile("project", ".claude/settings.local.json"),
                ),
                overrides="skillOverrides",
                entry_cap="skillListingMaxDescChars",
            ),
            reading=Reading(
                duplicate_keys="last",
                repair="quote",
                unreadable="body",
                name=ValueRules("folder", "folder", "folder", "use", "use", "folder"),
                description=ValueRules(
                    "fallback", "fallback", "fallback", "fallback", "use", "fallback"
                ),
                fallback="first-line",
                fallback_cap=100,
                fallback_empty="Skill",
                display_name=True,
                invocation_keys=("disable-model-invocation",),
                invocation_true="text",
                conditional_paths=True,
                when_to_use=("when_to_use",),
                join=" - ",
            ),
            catalog=CatalogRules(
                fields=("description", "when_to_use"),
                entry_cap=1536,
                ellipsis="\u2026",
                budget_fraction=0.01,
                budget_chars=30_000,
                overflow="name-only",
                format="claude",
                whitespace="breaks",
                escape="angle",
                order="roots",
                builtins=(
                    Builtin("dataviz", 1436),
                    Builtin("update-config", 690),
                    Builtin("keybindings-help", 228),
                    Builtin("code-review", 835),
                    Builtin("simplify", 176),
                    Builtin("fewer-permission-prompts", 163),
                    Builtin("loop", 336),
                    Builtin("claude-api", 1157),
                    Builtin("workflow-authoring", 230),
                    Builtin("run", 361),
                    Builtin("plugin-authoring", 255),
                    Builtin("init", 59),
                    Builtin("security-review", 71),
                ),
            ),
        ),
        "codex": Host(
            "codex",
            "Codex",
            "codex",
            "openai/codex:codex-rs/core-skills/src/loader.rs@033d1d07",
            "Codex 0.171.0",
            observed="scripts/host-lab record --host codex",
            roots=(
                HostRoot("project", ".codex/skills", walk="cwd-to-root"),
                HostRoot("user", ".codex/skills"),
                _USER_AGENTS,
                HostRoot("project", ".agents/skills", walk="cwd-to-root"),
            ),
            skips_linked_files=True,
            name_max=64,
            nesting=6,
            hidden="skip",
            duplicates="keep-all",
            dedupes_real_paths=True,
            project_needs_trust=True,
            reading=Reading(
                bom="drop",
                repair="quote",
                repair_keys=("name", "description"),
                repair_strips_comments=True,
                name=ValueRules("folder", "folder", "folder", "folder", "use", "drop"),
                description=ValueRules("drop", "drop", "drop", "drop", "use", "drop"),
                policy_file=True,
            ),
            catalog=CatalogRules(
                entry_cap=1024,
                budget_fraction=0.02,
                budget_unit="tokens",
                budget_chars_unknown_context=8000,
                default_context_tokens=272_000,
                budget_overhead=-39,
                overflow="shorten-then-omit",
                format="codex",
                whitespace="collapse",
                order="codex",
                builtins=(
                    Builtin("imagegen", 570, "imagegen/SKILL.md"),
                    Builtin("openai-docs", 624, "openai-docs/SKILL.md"),
                    Builtin("skill-creator", 106, "skill-creator/SKILL.md"),
                    Builtin("skill-installer", 225, "skill-installer/SKILL.md"),
                ),
                builtin_root=".codex/skills/.system",
            ),
        ),
        "copilot": Host(
            "copilot",
            "GitHub Copilot",
            "dsh",
            "github/copilot-cli:changelog.md (1.0.78)",
            "Copilot CLI 1.0.102",
            observed="scripts/host-lab record --host copilot",
            roots=(
                HostRoot("project", ".github/skills", walk="cwd-to-root"),
                HostRoot("project", ".agents/skills", walk="cwd-to-root"),
                HostRoot("project", ".claude/skills", walk="cwd-to-root"),
                HostRoot("user", ".copilot/skills"),
                _USER_AGENTS,
            ),
            honors_disable_model_invocation=True,
            name_max=64,
            description_max=1024,
            name_ascii_only=True,
            nesting=None,
            searches_inside_skills=False,
            hidden="skip",
            walk_order="path",
            reading=Reading(
                name=ValueRules("folder", "drop", "drop", "drop", "drop", "drop"),
                description=ValueRules("fallback", "drop", "use", "use", "drop", "drop"),
                fallback="lines",
                fallback_cap=1024,
                fallback_lines=3,
                final_break=False,
                name_spaces="-",
                name_pattern=r"[A-Za-z0-9._:-]+",
                invocation_keys=("disable-model-invocation",),
                invocation_true="truthy",
            ),
            catalog=CatalogRules(
                budget_chars=15_000,
                overflow="omit",
                format="xml",
                whitespace="raw",
                escape="xml",
                order="scopes",
                builtins=(Builtin("customize-cloud-agent", 0), Builtin("github-pr-media", 0)),
            ),
        ),
        "opencode": Host(
            "opencode",
            "OpenCode",
            "agentskills",
            "anomalyco/opencode:packages/opencode/src/skill/index.ts@048f74f4",
            "OpenCode 1.18.33",
            observed="scripts/host-lab record --host opencode",
            roots=(
                HostRoot("project", ".opencode/skills", walk="cwd-to-root"),
                HostRoot("project", ".opencode/skill", walk="cwd-to-root"),
                HostRoot("user", ".config/opencode/skills"),
                HostRoot("user", ".config/opencode/skill"),
                HostRoot("project", ".agents/skills", walk="cwd-to-root"),
                HostRoot("project", ".claude/skills", walk="cwd-to-root"),
                _USER_AGENTS,
                HostRoot("user", ".claude/skills"),
            ),
            nesting=None,
            reads_root_file=True,
            unstable_within_root=True,
            settings=HostSettings(
                files=(
                    ConfigFile("user", ".config/opencode/opencode.json"),
                    ConfigFile("project", "opencode.json"),
                ),
                extra_dirs="skills.paths",
                extra_hidden="skip",
                urls="skills.urls",
                env_off=(
                    ("OPENCODE_DISABLE_CLAUDE_CODE_SKILLS", ".claude/skills"),
                    ("OPENCODE_DISABLE_CLAUDE_CODE", ".claude/skills"),
                ),
            ),
            reading=Reading(
                tab_before_key=True,
                repair="block",
                name=ValueRules("drop", "drop", "use", "use", "drop", "drop"),
                description=ValueRules("unlisted", "drop", "use", "use", "drop", "drop"),
            ),
            catalog=CatalogRules(
                format="xml",
                whitespace="raw",
                order="none",
                builtins=(Builtin("customize-opencode", 0),),
            ),
        ),
        "gemini-cli": Host(
            "gemini-cli",
            "Gemini CLI",
            "agentskills",
            "google-gemini/gemini-cli:packages/core/src/skills/skillLoader.ts@5411f113",
            "Gemini CLI 0.61.0",
            observed="scripts/host-lab record --host gemini-cli",
            roots=(
                HostRoot("project", ".agents/skills", walk="cwd"),
                HostRoot("project", ".gemini/skills", walk="cwd"),
                _USER_AGENTS,
                HostRoot("user", ".gemini/skills"),
            ),
            hidden="skip",
            ignored_folders=("node_modules",),
            unstable_within_root=True,
            project_needs_trust=True,
            settings=HostSettings(
                files=(ConfigFile("user", ".gemini/settings.json"),),
                trust="security.folderTrust.enabled",
                trusted_folders=ConfigFile("user", ".gemini/trustedFolders.json"),
                trust_env="GEMINI_CLI_TRUST_WORKSPACE",
            ),
            reading=Reading(
                bom="drop",
                tab_before_key=True,
                by_line=True,
                name_unsafe=':\\/<>*?"|',
            ),
            catalog=CatalogRules(
                format="xml",
                whitespace="raw",
                order="none",
                builtins=(Builtin("antigravity-support", 0), Builtin("skill-creator", 0)),
            ),
        ),
        "kimi-code": Host(
            "kimi-code",
            "Kimi Code",
            "dsh",
            "MoonshotAI/kimi-code:packages/agent-core-v2/src/app/skillCatalog/"
            "fileSkillDiscovery.ts@d723cc47",
            "Kimi Code 2.1.0",
            observed="scripts/host-lab record --host kimi-code",
            roots=(
                HostRoot("project", ".kimi-code/skills"),
                HostRoot("project", ".agents/skills"),
                HostRoot("user", ".kimi-code/skills"),
                _USER_AGENTS,
            ),
            reads_flat_files=True,
            flat_fallbacks=True,
            honors_disable_model_invocation=True,
            names_ignore_case=True,
            nesting=9,
            searches_inside_skills=False,
            hidden="not-below",
            settings=HostSettings(
                files=(ConfigFile("user", ".kimi-code/config.toml", "toml"),),
                extra_dirs="extra_skill_dirs",
                extra_base="project-root",
            ),
            ignored_folders=("node_modules",),
            reading=Reading(
                name=ValueRules("drop", "drop", "drop", "drop", "drop", "drop"),
                description=ValueRules("drop", "drop", "drop", "drop", "drop", "drop"),
                invocation_keys=("disable-model-invocation", "disableModelInvocation"),
                flow_type=True,
                when_to_use=("whenToUse", "when_to_use"),
                join="\n  When to use: ",
                cut_before_join=True,
            ),
            catalog=CatalogRules(
                entry_cap=250,
                format="kimi",
                whitespace="trim",
                order="sections",
                builtins=(
                    Builtin("check-kimi-code-docs", 0),
                    Builtin("update-config", 0),
                    Builtin("write-goal", 0),
                ),
            ),
        ),
        "agentskills": Host(
            "agentskills",
            "Agent Skills standard",
            "agentskills",
            "https://agentskills.io/specification",
            "agentskills.io specification, read 2026-12-01",
            roots=(_AGENTS, _USER_AGENTS),
            follows_symlinks=False,
            name_is_kebab=True,
            name_equals_folder=True,
            name_max=64,
            description_max=1024,
        ),
    }
)


def get_host(name: str) -> Host:
    """The host called ``name``; ``ValueError`` lists the valid names otherwise."""
    try:
        return HOSTS[name]
    except KeyError:
        valid = ", ".join(HOSTS)
        raise ValueError(f"unknown host {name!r}; choose one of: {valid}") from None


def parse_hosts(value: str) -> tuple[Host, ...]:
    """``all`` or a comma-separated list of host names, in :data:`HOSTS` order for
    ``all`` and as written otherwise (duplicates dropped)."""
    if value.strip() == "all":
        return tuple(HOSTS.values())
    names: list[str] = []
    for part in value.split(","):
        name = part.strip()
        if name and name not in names:
            names.append(name)
    if not names:
        raise ValueError("no host given; choose all or one of: " + ", ".join(HOSTS))
    return tuple(get_host(name) for name in names)
