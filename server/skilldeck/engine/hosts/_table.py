"""The agents that read skill files (*hosts*), as data: where each looks, what it accepts,
and what its catalog keeps.

Every value here is read from the host's own source code where it is public (Codex,
Gemini CLI, Kimi Code, OpenCode), from its first-party changelog (GitHub Copilot CLI) or
from its first-party documentation (Claude Code, the Agent Skills standard); each host
names the version it models (:attr:`Host.version`). ``docs/hosts.md`` cites the source
(``repo:path@commit``, changelog version or page and date) for each field; a test holds
the two together (every host has its section, every documented number appears there),
and ``tests/engine/hosts_observed.py`` holds the verdicts observed by running Gemini CLI's
and Kimi Code's own discovery code on fixture trees.

A host is judged by :mod:`skilldeck.engine.host_views._view`; this module holds no logic beyond
looking hosts up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

#: ``project``: below the project (walking per :attr:`HostRoot.walk`); ``user``: below home.
Scope = Literal["project", "user"]
#: ``project-root``: only ``<project root>/<path>`` (the nearest ancestor with ``.git``);
#: ``cwd-to-root``: ``<dir>/<path>`` for every directory from the lookup cwd up to the
#: project root (nearest first); ``cwd``: only ``<cwd>/<path>``.
Walk = Literal["project-root", "cwd-to-root", "cwd"]
#: What happens to catalog entries past the host's total budget.
Overflow = Literal["none", "name-only", "shorten-then-omit"]
#: Same-named skills: ``first`` (the first by precedence wins, the others are shadowed) or
#: ``keep-all`` (every one is listed: the model sees two entries with one name).
Duplicates = Literal["first", "keep-all"]
#: Folders whose name starts with ``.`` below a root: ``read`` like any other; ``skip``
#: (never read, at any level); ``not-below`` (a hidden skill folder loads, but the host
#: does not search inside a hidden folder for more).
Hidden = Literal["read", "skip", "not-below"]

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


@dataclass(frozen=True)
class CatalogRules:
    """What a host's skill listing shows and keeps.

    ``fields``: what one entry shows after the name (``description``, ``when_to_use``).
    ``entry_cap``: the characters of those fields kept per entry (``None``: no cap).
    ``budget_fraction``: the listing's share of the context window (``None``: no total
    budget). ``budget_chars_unknown_context``: the budget when the context window is not
    known. ``default_context_tokens``: the context window assumed when ``--context`` is
    not given (``None``: unknown). ``listed_line``: the line the host writes for an entry,
    when it counts whole lines against its budget (``{name}``, ``{path}``: the skill
    file's absolute path, ``{text}``: the shown text with one space before it, or nothing
    for an entry without text; Codex, ``render.rs``). ``None``: an entry costs its name
    plus its text.
    """

    fields: tuple[str, ...] = ("description",)
    entry_cap: int | None = None
    budget_fraction: float | None = None
    budget_chars_unknown_context: int | None = None
    default_context_tokens: int | None = None
    overflow: Overflow = "none"
    listed_line: str | None = None


@dataclass(frozen=True)
class Host:
    """One agent and the rules it reads skills by (see ``docs/hosts.md``).

    ``engine_roots``: the host is skilldeck's own (DSH): its roots, ranks and verdicts
    are the engine's, exactly as ``check`` and ``list`` report them, and ``roots`` is
    empty. ``dialect`` is the rule profile its frontmatter is judged by (``--profile``).
    ``version`` names the release or commit of the host these rules were read from.
    """

    name: str
    label: str
    dialect: str
    docs: str
    version: str
    roots: tuple[HostRoot, ...] = ()
    engine_roots: bool = False
    reads_flat_files: bool = False
    #: A flat file without ``name`` / ``description`` takes its file name and its first
    #: body line (Kimi Code); a flat file beside a same-named skill folder is not read.
    flat_fallbacks: bool = False
    follows_symlinks: bool = False
    honors_disable_model_invocation: bool = False
    requires_name: bool = True
    requires_description: bool = True
    name_is_kebab: bool = False
    name_equals_folder: bool = False
    #: Same-named skills are compared without case (``Deploy`` shadows ``deploy``).
    names_ignore_case: bool = False
    name_max: int | None = None
    description_max: int | None = None
    #: Names with a character outside ASCII are not loaded (GitHub Copilot, changelog
    #: 1.0.70).
    name_ascii_only: bool = False
    #: How many folders below a root a ``SKILL.md`` may sit: 1 is ``<root>/<name>/SKILL.md``
    #: only; ``None``: no limit.
    nesting: int | None = 1
    #: The host searches inside a folder that is itself a skill (its ``SKILL.md`` found).
    searches_inside_skills: bool = True
    hidden: Hidden = "read"
    #: Folder names the host passes over as it does hidden folders (by :attr:`hidden`).
    ignored_folders: tuple[str, ...] = ()
    #: Where ``name`` and ``description`` are not both strings in the YAML (or the YAML
    #: does not parse), the host reads ``name:`` and ``description:`` lines by hand
    #: (Gemini CLI's ``parseSimpleFrontmatter``).
    reads_keys_by_line: bool = False
    duplicates: Duplicates = "first"
    #: Which of two same-named skills in one folder wins is not stable (the host's loader
    #: has no order: a glob's or a concurrent parse's).
    unstable_within_root: bool = False
    #: Project folders are read only in a folder the user trusts (skilldeck assumes the
    #: project is trusted).
    project_needs_trust: bool = False
    catalog: CatalogRules = CatalogRules()

    def root_display(self, root: HostRoot) -> str:
        """The root as the host's documentation writes it."""
        return root.path if root.scope == "project" else f"~/{root.path}"


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
            follows_symlinks=True,
            honors_disable_model_invocation=True,
            name_is_kebab=True,
        ),
        "claude-code": Host(
            "claude-code",
            "Claude Code",
            "claude-code",
            "https://code.claude.com/docs/en/skills",
            "Claude Code docs, read 2026-12-01",
            roots=(
                HostRoot("user", ".claude/skills"),
                HostRoot("project", ".claude/skills", walk="cwd-to-root"),
            ),
            follows_symlinks=True,
            honors_disable_model_invocation=True,
            requires_name=False,
            requires_description=False,
            catalog=CatalogRules(
                fields=("description", "when_to_use"),
                entry_cap=1536,
                budget_fraction=0.01,
                default_context_tokens=200_000,
                overflow="name-only",
            ),
        ),
        "codex": Host(
            "codex",
            "Codex",
            "codex",
            "openai/codex:codex-rs/core-skills/src/loader.rs@033d1d07",
            "Codex at 033d1d07",
            roots=(
                HostRoot("project", ".agents/skills", walk="cwd-to-root"),
                HostRoot("project", ".codex/skills", walk="cwd-to-root"),
                HostRoot("user", ".codex/skills"),
                _USER_AGENTS,
            ),
            follows_symlinks=True,
            requires_name=False,
            requires_description=False,
            name_max=64,
            description_max=1024,
            nesting=6,
            hidden="skip",
            duplicates="keep-all",
            project_needs_trust=True,
            catalog=CatalogRules(
                budget_fraction=0.02,
                budget_chars_unknown_context=8000,
                overflow="shorten-then-omit",
                listed_line="- {name}:{text} (file: {path})\n",
            ),
        ),
        "copilot": Host(
            "copilot",
            "GitHub Copilot",
            "dsh",
            "github/copilot-cli:changelog.md (1.0.78)",
            "Copilot CLI 1.0.78",
            roots=(
                HostRoot("project", ".github/skills", walk="cwd-to-root"),
                HostRoot("project", ".claude/skills", walk="cwd-to-root"),
                HostRoot("project", ".agents/skills", walk="cwd-to-root"),
                HostRoot("user", ".copilot/skills"),
                _USER_AGENTS,
            ),
            follows_symlinks=True,
            honors_disable_model_invocation=True,
            requires_name=False,
            requires_description=False,
            name_max=64,
            description_max=1024,
            # Names may hold uppercase letters, underscores, dots and spaces (0.0.396,
            # 0.0.410) but not non-ASCII characters (changelog 1.0.70; docs/hosts.md).
            name_ascii_only=True,
            nesting=None,
        ),
        "opencode": Host(
            "opencode",
            "OpenCode",
            "agentskills",
            "anomalyco/opencode:packages/opencode/src/skill/index.ts@048f74f4",
            "OpenCode at 048f74f4",
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
            follows_symlinks=True,
            nesting=None,
            unstable_within_root=True,
        ),
        "gemini-cli": Host(
            "gemini-cli",
            "Gemini CLI",
            "agentskills",
            "google-gemini/gemini-cli:packages/core/src/skills/skillLoader.ts@5411f113",
            "Gemini CLI at 5411f113",
            roots=(
                HostRoot("project", ".agents/skills", walk="cwd"),
                HostRoot("project", ".gemini/skills", walk="cwd"),
                _USER_AGENTS,
                HostRoot("user", ".gemini/skills"),
            ),
            follows_symlinks=True,
            hidden="skip",
            ignored_folders=("node_modules",),
            reads_keys_by_line=True,
            unstable_within_root=True,
            project_needs_trust=True,
        ),
        "kimi-code": Host(
            "kimi-code",
            "Kimi Code",
            "dsh",
            "MoonshotAI/kimi-code:packages/agent-core-v2/src/app/skillCatalog/"
            "fileSkillDiscovery.ts@d723cc47",
            "Kimi Code 0.38.0 at d723cc47",
            roots=(
                HostRoot("project", ".kimi-code/skills"),
                HostRoot("project", ".agents/skills"),
                HostRoot("user", ".kimi-code/skills"),
                _USER_AGENTS,
            ),
            reads_flat_files=True,
            flat_fallbacks=True,
            follows_symlinks=True,
            honors_disable_model_invocation=True,
            names_ignore_case=True,
            nesting=9,
            searches_inside_skills=False,
            hidden="not-below",
            ignored_folders=("node_modules",),
        ),
        "agentskills": Host(
            "agentskills",
            "Agent Skills standard",
            "agentskills",
            "https://agentskills.io/specification",
            "agentskills.io specification, read 2026-12-01",
            roots=(_AGENTS, _USER_AGENTS),
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
