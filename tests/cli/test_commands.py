"""``list``, ``catalog``, ``load``, ``roots``, ``rules``, ``schema``, ``serve``; config."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from cli_helpers import Run, skill, write
from ruamel.yaml import YAML

from skilldeck.engine.model_view._catalog import render_catalog
from skilldeck.engine.registry._model import SkillSummary
from skilldeck.engine.rules._rules import RULES, render_rules_markdown

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def deck(tmp_path: Path, home: Path) -> Path:
    """A project whose `review` skill shadows a project-agents and a user skill."""
    root = tmp_path / "deck"
    (root / ".git").mkdir(parents=True)
    write(root / ".dsh/skills/review/SKILL.md", skill("review", "Review   a change.\n  Carefully."))
    write(root / ".agents/skills/review.md", skill("review", "Older review."))
    write(home / ".agents/skills/review/SKILL.md", skill("review", "User review."))
    write(
        root / ".dsh/skills/deploy.md",
        skill("deploy", "Deploy <prod> & check.", "disable-model-invocation: true\n"),
    )
    write(root / ".agents/skills/notes.md", skill("notes", "x" * 40, "user-invocable: no\n"))
    return root


def test_list_json_and_text(run: Run, deck: Path, home: Path) -> None:
    result = run("list", "--json", cwd=deck)
    assert result.code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["complete"] is True
    assert [s["name"] for s in data["skills"]] == ["deploy", "notes", "review"]
    review = data["skills"][2]
    assert review == {
        "name": "review",
        "description": "Review   a change. Carefully.",
        "source": "project-dsh",
        "rank": 100,
        "provider": "filesystem",
        "path": str(deck / ".dsh/skills/review/SKILL.md"),
        "modelInvocable": True,
        "userInvocable": True,
        "shadowed": [
            {
                "source": "project-agents",
                "rank": 200,
                "path": str(deck / ".agents/skills/review.md"),
            },
            {
                "source": "user-agents",
                "rank": 500,
                "path": str(home / ".agents/skills/review/SKILL.md"),
            },
        ],
    }
    assert data["skills"][0]["modelInvocable"] is False
    assert data["skills"][1]["userInvocable"] is False
    assert data["skills"][1]["shadowed"] == []

    text = run("list", cwd=deck).stdout.splitlines()
    assert text[0] == "deploy  project-dsh (100)  .dsh/skills/deploy.md  [not model-invocable]"
    assert text[4] == "review  project-dsh (100)  .dsh/skills/review/SKILL.md"
    assert text[6] == "        shadows project-agents (200)  .agents/skills/review.md"
    assert text[7] == f"        shadows user-agents (500)  {home}/.agents/skills/review/SKILL.md"


def test_list_shows_control_characters_as_escapes(run: Run, tmp_path: Path) -> None:
    # ESC[8m in a description would hide what follows from whoever reads the list in a
    # terminal; the list shows it, as check's messages do.
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    write(
        root / ".dsh/skills/term/SKILL.md",
        '---\nname: term\ndescription: "Lists.\\e[8m Hidden\\e[0m"\n---\nBody.\n',
    )
    text = run("list", cwd=root).stdout.splitlines()
    assert text[1] == "      Lists.\\u001b[8m Hidden\\u001b[0m"


def test_catalog_of_a_deck_offering_the_model_nothing_prints_no_message(
    run: Run, tmp_path: Path
) -> None:
    """SPEC section 5: empty and never published, a session sends nothing; so does
    `catalog` (a note on stderr), while `--json` still says it is empty."""
    project = tmp_path / "quiet"
    (project / ".git").mkdir(parents=True)
    write(
        project / ".dsh/skills/deploy.md",
        skill("deploy", "Deploy.", "disable-model-invocation: true\n"),
    )
    text = run("catalog", cwd=project)
    assert (text.code, text.stdout) == (0, "")
    assert text.stderr == (
        "skilldeck: no skill is offered to the model here; a session sends no catalog\n"
    )
    data = run("catalog", "--json", cwd=project)
    assert json.loads(data.stdout) == {"complete": True, "entries": []}


def test_catalog_text_is_the_engine_message_and_json_has_entries(run: Run, deck: Path) -> None:
    summaries = [
        SkillSummary(
            name="review", description="Review   a change.\n  Carefully.", source="x", provider="x"
        ),
        SkillSummary(name="notes", description="x" * 40, source="x", provider="x"),
    ]
    text = run("catalog", cwd=deck)
    assert text.code == 0
    assert text.stdout == render_catalog(summaries) + "\n"
    assert "deploy" not in text.stdout
    capped = run("catalog", "--json", "--max-description-length", "10", cwd=deck)
    assert json.loads(capped.stdout) == {
        "complete": True,
        "entries": [
            {"name": "notes", "description": "xxxxxxx..."},
            {"name": "review", "description": "Review ..."},
        ],
    }
    too_small = run("catalog", "--max-description-length", "2", cwd=deck)
    assert too_small.code == 2
    assert "must be at least 3" in too_small.stderr


def test_load_prints_the_tool_result(run: Run, deck: Path) -> None:
    ok = run("load", "review", cwd=deck)
    assert ok.code == 0
    assert ok.stdout.startswith('<skill_content name="review">\n<skill_resources>\n')
    assert "Body of review." in ok.stdout
    refused = run("load", "deploy", cwd=deck)
    assert refused.code == 1
    assert refused.stdout == (
        'Error: skill "deploy" is not available for model invocation; only the user can '
        "invoke it.\n"
    )
    unknown = run("load", "nothing-here", cwd=deck)
    assert unknown.code == 1
    assert unknown.stdout.startswith('Error: skill "nothing-here" is unknown')
    invalid = run("load", "Bad_Name", cwd=deck)
    assert invalid.code == 1


def test_roots_honour_environment_and_flags(
    run: Run, deck: Path, home: Path, tmp_path: Path
) -> None:
    bundled = tmp_path / "bundled"
    bundled.mkdir()
    result = run(
        "roots",
        "--json",
        "--custom-skill-dir",
        "one",
        "--custom-skill-dir",
        str(tmp_path / "two"),
        cwd=deck,
        env={"DSH_BUNDLED_SKILL_DIR": str(bundled)},
    )
    assert result.code == 0
    assert json.loads(result.stdout) == [
        {
            "rank": 100,
            "source": "project-dsh",
            "path": str(deck / ".dsh/skills"),
            "exists": True,
            "problem": None,
        },
        {
            "rank": 200,
            "source": "project-agents",
            "path": str(deck / ".agents/skills"),
            "exists": True,
            "problem": None,
        },
        {
            "rank": 300,
            "source": "custom",
            "path": str(deck / "one"),
            "exists": False,
            "problem": None,
        },
        {
            "rank": 300,
            "source": "custom",
            "path": str(tmp_path / "two"),
            "exists": False,
            "problem": None,
        },
        {
            "rank": 400,
            "source": "user-dsh",
            "path": str(home / ".dsh/skills"),
            "exists": False,
            "problem": None,
        },
        {
            "rank": 500,
            "source": "user-agents",
            "path": str(home / ".agents/skills"),
            "exists": True,
            "problem": None,
        },
        {"rank": 600, "source": "bundled", "path": str(bundled), "exists": True, "problem": None},
    ]
    text = run("roots", "--cwd", str(deck / ".dsh"), cwd=tmp_path).stdout.splitlines()
    assert text[0] == f" 100  project-dsh     {deck}/.dsh/skills"
    assert text[2] == f" 400  user-dsh        {home}/.dsh/skills  (missing)"


def test_config_file_and_flag_precedence(run: Run, deck: Path, tmp_path: Path) -> None:
    long_name = "a" * 70
    write(deck / f".dsh/skills/{long_name}.md", skill(long_name))
    write(deck / "skilldeck.toml", 'profile = "agentskills"\ncustom-skill-dirs = ["from-file"]\n')
    by_file = run("check", cwd=deck)
    assert "SD601 error" in by_file.stdout
    assert by_file.code == 1
    by_flag = run("check", "--profile", "dsh", cwd=deck)
    assert "SD601" not in by_flag.stdout
    assert by_flag.code == 0
    roots = json.loads(run("roots", "--json", cwd=deck).stdout)
    assert [r["path"] for r in roots if r["source"] == "custom"] == [str(deck / "from-file")]
    flagged = json.loads(run("roots", "--json", "--custom-skill-dir", "x", cwd=deck).stdout)
    assert [r["path"] for r in flagged if r["source"] == "custom"] == [str(deck / "x")]
    # An explicit --config replaces the project's file.
    other = write(tmp_path / "other.toml", 'profile = "dsh"\n')
    assert run("check", "--config", str(other), cwd=deck).code == 0
    # Per-rule overrides from [tool.skilldeck] in pyproject.toml.
    (deck / "skilldeck.toml").unlink()
    write(
        deck / "pyproject.toml", '[tool.skilldeck]\nprofile = "agentskills"\nignore = ["SD601"]\n'
    )
    assert "SD601" not in run("check", cwd=deck).stdout


def test_bad_config_exits_2_naming_key_and_file(run: Run, deck: Path) -> None:
    config = write(deck / "skilldeck.toml", 'profile = "dsh"\ncolour = "red"\n')
    for command in (("check",), ("list",), ("catalog",), ("load", "review"), ("roots",)):
        result = run(*command, cwd=deck)
        assert result.code == 2, command
        assert result.stdout == ""
        assert result.stderr.startswith(f"skilldeck: {config}: unknown key 'colour'")
        assert result.stderr.count("\n") == 1
    write(deck / "skilldeck.toml", "profile = [\n")
    broken = run("check", cwd=deck)
    assert broken.code == 2
    assert broken.stderr.startswith(f"skilldeck: {config}: invalid TOML")
    missing = run("check", "--config", "nope.toml", cwd=deck)
    assert (missing.code, missing.stderr) == (2, "skilldeck: --config: no such file: nope.toml\n")
    debug = run("check", cwd=deck, env={"SKILLDECK_DEBUG": "1"})
    assert debug.code == 2
    assert "Traceback (most recent call last)" in debug.stderr


def test_rules_output_is_the_table(run: Run) -> None:
    listing = run("rules")
    assert listing.code == 0
    lines = listing.stdout.splitlines()
    assert len(lines) == len(RULES)
    for line, rule in zip(lines, RULES, strict=True):
        assert line.split()[:3] == [rule.code, rule.name, rule.severity.value]
        assert line.endswith(rule.summary)
        assert ("drops skill" in line) == rule.drops_skill
    assert run("rules", "--markdown").stdout == render_rules_markdown()
    as_json = json.loads(run("rules", "--json").stdout)
    assert [(r["code"], r["docsUrl"]) for r in as_json] == [(r.code, r.docs_url) for r in RULES]
    first = RULES[0]
    page = run("rules", first.code.lower()).stdout
    assert page.startswith(f"{first.code} {first.name}\n")
    assert first.docs.strip() in page
    assert page.rstrip().endswith(first.docs_url)
    assert run("rules", first.name).stdout == page
    unknown = run("rules", "SD999")
    assert unknown.code == 2
    assert unknown.stderr == "skilldeck: rules: unknown rule 'SD999' (see `skilldeck rules`)\n"


def test_schema_per_profile(run: Run, deck: Path) -> None:
    dsh = json.loads(run("schema").stdout)
    jsonschema.Draft7Validator.check_schema(dsh)
    assert dsh["required"] == ["name", "description"]
    assert dsh["additionalProperties"] is True
    validator = jsonschema.Draft7Validator(dsh)
    assert validator.is_valid({"name": "ok", "description": "d", "disable-model-invocation": "Yes"})
    assert not validator.is_valid({"name": "Not_Kebab", "description": "d"})
    assert not validator.is_valid({"name": "ok", "description": "d", "user-invocable": "maybe"})
    standard = json.loads(run("schema", "--profile", "agentskills").stdout)
    assert standard["additionalProperties"] is False
    assert standard["properties"]["name"]["maxLength"] == 64
    write(deck / "skilldeck.toml", 'profile = "agentskills"\n')
    assert json.loads(run("schema", cwd=deck).stdout) == standard
    bad = run("schema", "--profile", "nope")
    assert bad.code == 2
    assert bad.stderr.startswith("skilldeck: --profile: unknown profile 'nope'")


def test_schema_settings_is_the_json_schema_of_skilldeck_toml(run: Run, deck: Path) -> None:
    printed = run("schema", "--settings")
    assert printed.code == 0
    schema = json.loads(printed.stdout)
    assert schema == json.loads((REPO / "docs" / "skilldeck.schema.json").read_text("utf-8"))
    validator = jsonschema.Draft7Validator(schema)
    assert validator.is_valid({"profile": "codex", "overlap": {"threshold": 0.4}})
    assert not validator.is_valid({"profile": "nope"})
    assert not validator.is_valid({"overlap": {"colour": 1}})
    both = run("schema", "--settings", "--profile", "dsh")
    assert (both.code, both.stderr) == (2, "skilldeck: schema: --settings takes no --profile\n")


def test_serve_speaks_lsp_on_stdio_and_rejects_a_bad_tcp_address(
    run: Run, deck: Path, home: Path
) -> None:
    result = run("serve", "--tcp", "localhost")
    assert result.code == 2
    assert "expected HOST:PORT, got 'localhost'" in result.stderr

    def frame(message: dict[str, object]) -> bytes:
        body = json.dumps(message).encode()
        return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)

    requests = (
        frame(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {"processId": None, "rootUri": deck.as_uri(), "capabilities": {}},
            }
        )
        + frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        + frame({"jsonrpc": "2.0", "method": "exit"})
    )
    completed = subprocess.run(
        [sys.executable, "-m", "skilldeck", "serve", "--cwd", str(deck)],
        input=requests,
        capture_output=True,
        timeout=60,
        check=False,
        env={
            "DSH_HOME": str(home / ".dsh"),
            "DSH_AGENTS_HOME": str(home / ".agents"),
            "HOME": str(home),
            "PATH": "/usr/bin:/bin",
        },
    )
    assert b'"id": 1' in completed.stdout or b'"id":1' in completed.stdout
    assert b"capabilities" in completed.stdout
    assert completed.returncode == 0, completed.stderr.decode()


def test_pre_commit_hook_definition() -> None:
    hooks = YAML(typ="safe").load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert isinstance(hooks, list)
    hook, fix = hooks
    assert hook["id"] == "skilldeck-check"
    assert hook["entry"] == "skilldeck check"
    # The fixing variant: same files, safe fixes applied first.
    assert (fix["id"], fix["entry"]) == ("skilldeck-fix", "skilldeck check --fix")
    assert {k: v for k, v in fix.items() if k not in ("id", "name", "description", "entry")} == {
        k: v for k, v in hook.items() if k not in ("id", "name", "description", "entry")
    }
    assert hook["language"] == "python"
    assert hook["pass_filenames"] is True
    pattern = re.compile(hook["files"])
    assert pattern.search(".dsh/skills/pdf/SKILL.md")
    assert pattern.search("sub/.agents/skills/flat.md")
    assert not pattern.search(".dsh/skills/pdf/reference.md")
    assert not pattern.search("README.md")
