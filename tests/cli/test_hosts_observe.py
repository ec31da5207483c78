"""``skilldeck hosts observe``: the user's installed host run offline, its listing shown
beside skilldeck's prediction.

The host here is a stand-in the test writes (the real releases are run by the host lab,
``scripts/host-lab``): a script that, as Codex does, reads its provider from
``$CODEX_HOME/config.toml``, lists the skills of ``~/.agents/skills`` and the project's
``.agents/skills``, and sends them to the model endpoint. It also reports what the
sandbox let it do (write into the project, see a variable of the caller's, see a network
interface other than loopback), so the test sees the sandbox's promises kept.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import Run

_FAKE_CODEX = """\
#!{python}
import glob, json, os, socket, tomllib, urllib.request

config = tomllib.load(open(os.path.join(os.environ["CODEX_HOME"], "config.toml"), "rb"))
base = config["model_providers"]["hostlab"]["base_url"]
lines = []
for root in (os.path.expanduser("~/.agents/skills"), os.path.join(os.getcwd(), ".agents/skills")):
    for path in sorted(glob.glob(os.path.join(root, "*", "SKILL.md"))):
        name = os.path.basename(os.path.dirname(path))
        lines.append(f"- {{name}}: from the stand-in host (file: {{path}})")
try:
    open(os.path.join(os.getcwd(), "written-by-the-host"), "w").close()
    lines.append("- project-writable: yes (file: x)")
except OSError:
    pass
try:
    open(os.path.expanduser("~/.agents/skills/written-by-the-host"), "w").close()
    lines.append("- skills-writable: yes (file: x)")
except OSError:
    pass
if "SKILLDECK_TEST_SECRET" in os.environ:
    lines.append("- saw-a-secret: yes (file: x)")
interfaces = sorted(name for _index, name in socket.if_nameindex())
if interfaces != ["lo"]:
    lines.append(f"- network: {{interfaces}} (file: x)")
text = "<skills_instructions>\\n### Available skills\\n" + "\\n".join(lines)
text += "\\n</skills_instructions>"
body = json.dumps({{"input": [{{"content": [{{"text": text}}]}}]}}).encode()
request = urllib.request.Request(base + "/responses", body, {{"content-type": "application/json"}})
urllib.request.urlopen(request)
"""


def _sandbox_works() -> bool:
    unshare = shutil.which("unshare")
    if unshare is None:
        return False
    probe = subprocess.run(
        [unshare, "--user", "--map-root-user", "--net", "--mount", "--pid", "--fork", "true"],
        capture_output=True,
        check=False,
    )
    return probe.returncode == 0


needs_sandbox = pytest.mark.skipif(
    not _sandbox_works(), reason="user namespaces (unshare) are not available here"
)


def _skill(folder: Path, name: str, description: str) -> None:
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: {description}\n---\n\nBody.\n", encoding="utf-8"
    )


@needs_sandbox
def test_observe_shows_the_hosts_listing_beside_the_prediction(
    tmp_path: Path, home: Path, run: Run
) -> None:
    fake = tmp_path / "bin" / "codex"
    fake.parent.mkdir()
    fake.write_text(_FAKE_CODEX.format(python=sys.executable), encoding="utf-8")
    fake.chmod(0o755)
    _skill(home / ".agents/skills/mine", "mine", "My own skill.")
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    _skill(project / ".agents/skills/lint", "lint", "Lints code.")
    _skill(project / ".agents/skills/deploy", "deploy", "Use when: deploying")

    result = run(
        "hosts",
        "observe",
        "--host",
        "codex",
        "--binary",
        str(fake),
        "--cwd",
        str(project),
        env={"SKILLDECK_TEST_SECRET": "do-not-pass"},
    )

    assert result.code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert f"Codex ({fake}), run offline in {project}:" == lines[0]
    assert "the host listed 3 skill(s), 0 of them its own:" in lines
    # the user's skill folder, mounted read-only into the sandbox's home, shown as ~
    assert "  - mine: from the stand-in host (file: ~/.agents/skills/mine/SKILL.md)" in lines
    assert (
        f"  - deploy: from the stand-in host (file: {project}/.agents/skills/deploy/SKILL.md)"
        in lines
    )
    # Codex 0.171.0 repairs the unquoted ': ' (observed): skilldeck predicts it too
    assert "skilldeck predicts 3 (catalog --host codex):" in lines
    assert "  - lint: Lints code." in lines
    assert "  - deploy: Use when: deploying" in lines
    assert (
        "  deploy: Codex sends 'from the stand-in host', skilldeck says 'Use when: deploying'"
        in lines
    )
    assert "  lint: Codex sends 'from the stand-in host', skilldeck says 'Lints code.'" in lines
    # the sandbox: nothing written to the project or the skill folders, none of the
    # caller's variables, no network but loopback
    for leak in ("project-writable", "skills-writable", "saw-a-secret", "network"):
        assert leak not in result.stdout
    assert not (project / "written-by-the-host").exists()
    assert sorted(os.listdir(home / ".agents/skills")) == ["mine"]


def test_observe_names_the_hosts_it_can_run(tmp_path: Path, run: Run) -> None:
    result = run("hosts", "observe", "--host", "dsh", "--cwd", str(tmp_path))
    assert result.code == 2
    assert "no offline wiring for host 'dsh'" in result.stderr


def test_observe_runs_only_a_named_or_installed_binary(tmp_path: Path, run: Run) -> None:
    result = run(
        "hosts", "observe", "--host", "codex", "--cwd", str(tmp_path), env={"PATH": "/nonexistent"}
    )
    assert result.code == 2
    assert "codex is not on PATH; name the Codex executable with --binary" in result.stderr
