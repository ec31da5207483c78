"""The agents that read skill files (*hosts*), as data: where each looks, what it accepts,
and what its catalog keeps.

Every value here is a documented fact or, where a host does not document something, the
conservative reading (a file is reported as *not* loaded, a catalog as *not* budgeted)
named as such. ``docs/hosts.md`` cites the source and the date checked for each field;
a test holds the two together (every host has its section, every documented number
appears there).

A host is judged by :mod:`skilldeck.engine.host_view`; this module holds no logic beyond
looking hosts up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

#: ``project``: below the project (walking per :attr:`HostRoot.walk`); ``user``: below home.
Scope = Literal["project", "user"]
#: ``project-root``: only ``<project root>/<path>``; ``cwd-to-root``: ``<dir>/<path>`` for
#: every directory from the lookup cwd up to the project root (nearest first).
Walk = Literal["project-root", "cwd-to-root"]
#: What happens to catalog entries past the host's total budget.
Overflow = Literal["none", "name-only", "shorten-then-omit"]

DEFAULT_HOST = "dsh"
#: The documented conversion skilldeck uses between characters and tokens (one token per
#: four characters, :func:`skilldeck.engine.catalog.tokens_for_length`).
CHARS_PER_TOKEN = 4


@dataclass(frozen=True)
class HostRoot:
    """One folder a host reads skills from.

    ``path`` is relative to the project directory (``scope="project"``) or to the home
    folder (``scope="user"``). ``group`` names a set of alternatives of which the host
    reads only the first that exists (Kimi Code); ``None`` means always read.
    """

    scope: Scope
    path: str
    walk: Walk = "project-root"
    group: str | None = None


@dataclass(frozen=True)
class CatalogRules:
    """What a host's skill listing shows and keeps.

    ``fields``: what one entry shows after the name (``description``, ``when_to_use``).
    ``entry_cap``: the characters of those fields kept per entry (``None``: no cap
    documented). ``budget_fraction``: the listing's share of the context window
    (``None``: no total budget documented). ``budget_chars_unknown_context``: the budget
    when the context window is not known. ``default_context_tokens``: the context window
    assumed when ``--context`` is not given (``None``: unknown).
    """

    fields: tuple[str, ...] = ("description",)
    entry_cap: int | None = None
    budget_fraction: float | None = None
    budget_chars_unknown_context: int | None = None
    default_context_tokens: int | None = None
    overflow: Overflow = "none"


@dataclass(frozen=True)
class Host:
    """One agent and the rules it reads skills by (see ``docs/hosts.md``).

    ``engine_roots``: the host is skilldeck's own (DSH): its roots, ranks and verdicts
    are the engine's, exactly as ``check`` and ``list`` report them, and ``roots`` is
    empty. ``dialect`` is the rule profile its frontmatter is judged by (``--profile``).
    """

    name: str
    label: str
    dialect: str
    docs: str
    roots: tuple[HostRoot, ...] = ()
    engine_roots: bool = False
    reads_flat_files: bool = False
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
            "https://developers.openai.com/codex/skills",
            roots=(HostRoot("project", ".agents/skills", walk="cwd-to-root"), _USER_AGENTS),
            follows_symlinks=True,
            name_max=64,
            description_max=1024,
            catalog=CatalogRules(
                budget_fraction=0.02,
                budget_chars_unknown_context=8000,
                overflow="shorten-then-omit",
            ),
        ),
        "copilot": Host(
            "copilot",
            "GitHub Copilot",
            "dsh",
            "https://docs.github.com/en/copilot/concepts/agents/about-agent-skills",
            roots=(
                HostRoot("project", ".github/skills"),
                HostRoot("project", ".claude/skills"),
                _AGENTS,
                HostRoot("user", ".copilot/skills"),
                HostRoot("user", ".claude/skills"),
                _USER_AGENTS,
            ),
            honors_disable_model_invocation=True,
            name_max=64,
            description_max=1024,
        ),
        "opencode": Host(
            "opencode",
            "OpenCode",
            "agentskills",
            "https://opencode.ai/docs/skills/",
            roots=(
                HostRoot("project", ".opencode/skills", walk="cwd-to-root"),
                HostRoot("project", ".claude/skills", walk="cwd-to-root"),
                HostRoot("project", ".agents/skills", walk="cwd-to-root"),
                HostRoot("user", ".config/opencode/skills"),
                HostRoot("user", ".claude/skills"),
                _USER_AGENTS,
            ),
            name_is_kebab=True,
            name_equals_folder=True,
            name_max=64,
            description_max=1024,
        ),
        "gemini-cli": Host(
            "gemini-cli",
            "Gemini CLI",
            "agentskills",
            "https://geminicli.com/docs/cli/using-agent-skills/",
            roots=(
                _AGENTS,
                HostRoot("project", ".gemini/skills"),
                _USER_AGENTS,
                HostRoot("user", ".gemini/skills"),
            ),
        ),
        "kimi-code": Host(
            "kimi-code",
            "Kimi Code",
            "dsh",
            "https://moonshotai.github.io/kimi-cli/en/customization/skills.html",
            roots=(
                HostRoot("project", ".agents/skills", group="project"),
                HostRoot("project", ".kimi/skills", group="project"),
                HostRoot("project", ".claude/skills", group="project"),
                HostRoot("project", ".codex/skills", group="project"),
                HostRoot("user", ".config/agents/skills", group="user"),
                HostRoot("user", ".agents/skills", group="user"),
                HostRoot("user", ".kimi/skills", group="user"),
                HostRoot("user", ".claude/skills", group="user"),
                HostRoot("user", ".codex/skills", group="user"),
            ),
            reads_flat_files=True,
            honors_disable_model_invocation=True,
            names_ignore_case=True,
        ),
        "agentskills": Host(
            "agentskills",
            "Agent Skills standard",
            "agentskills",
            "https://agentskills.io/specification",
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
