"""How each host is pointed at the fake model endpoint and asked one prompt, offline.

Each wiring names the command a user has on PATH, the arguments of a one-prompt run, the
environment variables and the config files (written into the sandbox's home) that send
its model requests to ``http://127.0.0.1:{port}``, and the listing format it writes
(:mod:`skilldeck.observe.listing`). Values may hold ``{port}``, ``{home}`` and
``{project}``. The sources of each are in ``docs/hosts.md`` ("Host lab").
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from skilldeck.observe.listing import MARKERS, Format

#: The prompt every run sends (the listing is built before the model is asked anything).
PROMPT = "hi"


@dataclass(frozen=True)
class Wiring:
    """One host's offline run (see the module doc).

    ``project_skills`` / ``user_skills``: the folders (below the project, below home) the
    lab puts a case's ordinary skills in for this host.
    """

    host: str
    label: str
    command: str
    fmt: Format
    args: tuple[str, ...]
    env: Mapping[str, str] = field(default_factory=dict)
    files: Mapping[str, str] = field(default_factory=dict)
    project_skills: str = ".agents/skills"
    user_skills: str = ".agents/skills"
    #: Whether the host lists skills in the same order every run (Gemini CLI and OpenCode
    #: do not: a glob's or a concurrent parse's order, seen to change between two runs).
    stable_order: bool = True

    @property
    def marker(self) -> str:
        return MARKERS[self.fmt]

    def environment(
        self, *, home: str, tmp: str, path: str, project: str, port: int
    ) -> dict[str, str]:
        """The host's whole environment (nothing is inherited)."""
        values = {"port": str(port), "home": home, "project": project}
        env = {
            "PATH": path,
            "HOME": home,
            "TMPDIR": tmp,
            "XDG_CONFIG_HOME": os.path.join(home, ".config"),
            "XDG_DATA_HOME": os.path.join(home, ".local/share"),
            "XDG_CACHE_HOME": os.path.join(home, ".cache"),
            "XDG_STATE_HOME": os.path.join(home, ".local/state"),
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            "NO_COLOR": "1",
            "USER": "lab",
            "LOGNAME": "lab",
            "SHELL": "/bin/sh",
        }
        env.update({key: value.format(**values) for key, value in self.env.items()})
        return env

    def write_files(
        self, *, home: str, project: str, port: int, keep_existing: bool = False
    ) -> list[str]:
        """Write the host's config files into ``home``; returns their paths.
        ``keep_existing``: a file already there is left as it is (a host lab case that
        brings its own, which must then point the host at the endpoint itself)."""
        values = {"port": str(port), "home": home, "project": project}
        written = []
        for relative, text in self.files.items():
            target = Path(home) / relative
            if keep_existing and target.exists():
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text.format(**values), "utf-8")
            written.append(str(target))
        return written


_CODEX_CONFIG = """\
model = "gpt-5"
model_provider = "hostlab"
check_for_update_on_startup = false

[model_providers.hostlab]
name = "host lab"
base_url = "http://127.0.0.1:{port}/v1"
env_key = "HOST_LAB_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

[projects."{project}"]
trust_level = "trusted"
"""

_GEMINI_SETTINGS = """\
{{
  "security": {{
    "auth": {{"selectedType": "gemini-api-key"}},
    "folderTrust": {{"enabled": false}}
  }}
}}
"""

_OPENCODE_CONFIG = """\
{{
  "$schema": "https://opencode.ai/config.json",
  "provider": {{
    "hostlab": {{
      "npm": "@ai-sdk/openai-compatible",
      "name": "host lab",
      "options": {{"baseURL": "http://127.0.0.1:{port}/v1", "apiKey": "host-lab"}},
      "models": {{"m": {{"name": "m"}}}}
    }}
  }},
  "model": "hostlab/m",
  "autoupdate": false,
  "share": "disabled"
}}
"""

WIRINGS: Mapping[str, Wiring] = MappingProxyType(
    {
        "codex": Wiring(
            "codex",
            "Codex",
            "codex",
            "codex",
            ("exec", "--skip-git-repo-check", PROMPT),
            env={"CODEX_HOME": "{home}/.codex", "HOST_LAB_KEY": "host-lab"},
            files={".codex/config.toml": _CODEX_CONFIG},
        ),
        "claude-code": Wiring(
            "claude-code",
            "Claude Code",
            "claude",
            "claude",
            ("-p", PROMPT),
            env={
                "ANTHROPIC_BASE_URL": "http://127.0.0.1:{port}",
                "ANTHROPIC_API_KEY": "host-lab",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
                "DISABLE_AUTOUPDATER": "1",
            },
            project_skills=".claude/skills",
            user_skills=".claude/skills",
        ),
        "gemini-cli": Wiring(
            "gemini-cli",
            "Gemini CLI",
            "gemini",
            "xml",
            ("-p", PROMPT),
            env={
                "GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:{port}",
                "GEMINI_API_KEY": "host-lab",
            },
            files={".gemini/settings.json": _GEMINI_SETTINGS},
            stable_order=False,
        ),
        "opencode": Wiring(
            "opencode",
            "OpenCode",
            "opencode",
            "xml",
            ("run", PROMPT),
            env={"OPENCODE_DISABLE_AUTOUPDATE": "1"},
            files={".config/opencode/opencode.json": _OPENCODE_CONFIG},
            stable_order=False,
        ),
        "copilot": Wiring(
            "copilot",
            "GitHub Copilot CLI",
            "copilot",
            "xml",
            ("-p", PROMPT, "--no-auto-update"),
            env={
                "COPILOT_OFFLINE": "true",
                "COPILOT_PROVIDER_BASE_URL": "http://127.0.0.1:{port}/v1",
                "COPILOT_PROVIDER_API_KEY": "host-lab",
                "COPILOT_MODEL": "gpt-4.1",
                "COPILOT_AUTO_UPDATE": "false",
                # "true" exactly: trust the working directory (its skills load).
                "COPILOT_ALLOW_ALL": "true",
            },
        ),
        "kimi-code": Wiring(
            "kimi-code",
            "Kimi Code",
            "kimi",
            "kimi",
            ("-p", PROMPT),
            env={
                "KIMI_CODE_NO_AUTO_UPDATE": "1",
                "KIMI_MODEL_NAME": "host-lab",
                "KIMI_MODEL_API_KEY": "host-lab",
                "KIMI_MODEL_PROVIDER_TYPE": "openai",
                "KIMI_MODEL_BASE_URL": "http://127.0.0.1:{port}/v1",
            },
        ),
    }
)


def get_wiring(host: str) -> Wiring:
    """The wiring of ``host`` (``ValueError`` names the hosts that have one)."""
    try:
        return WIRINGS[host]
    except KeyError:
        raise ValueError(
            f"no offline wiring for host {host!r}; choose one of: {', '.join(WIRINGS)}"
        ) from None
