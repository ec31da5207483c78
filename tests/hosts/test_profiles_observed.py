"""The host profiles' own diagnostics held to what the hosts' releases loaded.

``check --profile claude-code`` and ``--profile codex`` judge each skill file as that
agent's observed release reads it (docs/hosts.md, *Profiles*): a file the agent loads is
never reported "(skill not loaded)", one it drops is. The oracle is the host lab's record
of the release (``observed/<host>-<version>.json``: what it listed on each case of the
matrix, ``cases.toml``), not skilldeck's own model of the host.

Each case is rebuilt on real files (one tree per recorded batch, as the lab built it) and
judged twice per profile:

- through the CLI: ``skilldeck check --profile P --format json <the case's skill files>``
  as a subprocess, one run per batch;
- through the language server: ``skilldeck serve`` as a subprocess, each file opened
  (as an editor sends it: without its byte order mark) and its diagnostics pulled; they
  must equal the CLI's for that file (one engine, one verdict).

What a record shows and what a profile can say differ in one way: a listing shows what
the agent *offers its model*, a profile says whether the agent *loads* a file for what it
holds. So:

- every file the host listed must load under its profile (no finding "(skill not
  loaded)"), in every case;
- a file the host did not list must be reported "(skill not loaded)" only where the
  listing can tell: the case's only skill file, at ``<skills folder>/<folder>/SKILL.md``
  in one of the host's own folders (no dot folder, no symlink, the default start
  folder), without a key or file that keeps a loaded skill out of the first listing
  (:data:`LISTING_KEYS`, Codex's ``agents/openai.yaml``). Elsewhere the host's choice is
  about where the file is, which copy wins or what its budget keeps: ``list --host`` and
  SD901 report that, not the file's diagnostics.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio
from lsp_harness import pull_capabilities, stop_client, uri
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from host_lab.install import read_lock
from host_lab.matrix import (
    Batch,
    Case,
    build_tree,
    case_of,
    load_matrix,
    recorded_batches,
    tree_root,
)
from host_lab.observation import read_record
from host_lab.record import record_path
from skilldeck.engine.rules import get_profile
from skilldeck.observe.wiring import get_wiring

#: The profiles that follow a host (``Profile.host``): profile name == host name.
PROFILES = ("claude-code", "codex")
#: Keys that keep a skill the host loads out of its first listing (Claude Code's
#: ``disable-model-invocation`` and ``paths``, Kimi Code's ``type: flow``): a case with
#: one is judged one way only (a listed file loads).
LISTING_KEYS = re.compile(
    r"^(disable-model-invocation|disableModelInvocation|paths|type)\s*:", re.MULTILINE
)
NOT_LOADED = "(skill not loaded)"
SEVERITIES = {1: "error", 2: "warning", 3: "information", 4: "hint"}

MATRIX = load_matrix()
LOCK = read_lock()
RECORDS = {host: read_record(record_path(LOCK.hosts[host])) for host in PROFILES}
BATCHES: dict[str, list[Batch]] = {
    host: recorded_batches(RECORDS[host], MATRIX) for host in PROFILES
}

#: One finding as both front ends show it: range, code, severity, message.
Shown = tuple[int, int, int, int, str, str, str]


@dataclass(frozen=True)
class CaseFiles:
    """One case of one host's record, rebuilt: its skill files (relative to the tree
    root), those the host listed, and whether the listing tells a dropped file."""

    host: str
    case: Case
    root: Path
    files: tuple[str, ...]
    listed: frozenset[str]
    both_ways: bool


@dataclass(frozen=True)
class Judged:
    """The CLI's findings for the files of one batch, by real path."""

    findings: dict[str, frozenset[Shown]]


def _skill_files(root: Path, ids: list[str]) -> dict[str, list[str]]:
    """Every Markdown file of the tree a host or ``check`` may read, by case (symlinked
    folders followed, the symlinks' targets outside the skill folders left out)."""
    found: dict[str, list[str]] = {case: [] for case in ids}
    for folder, dirs, files in os.walk(root, followlinks=True):
        dirs[:] = sorted(d for d in dirs if d != ".git" and (folder, d) != (str(root), "outside"))
        for name in sorted(files):
            if not name.lower().endswith(".md"):
                continue
            relative = os.path.relpath(os.path.join(folder, name), root)
            owner = case_of([relative], ids)
            if owner is not None:
                found[owner].append(relative)
    return found


def _listed(host: str, case: Case, files: list[str]) -> frozenset[str]:
    """The case's files the host listed: Codex shows each entry's file; Claude Code keys
    an entry by its folder (``folder (name)``)."""
    cases = RECORDS[host]["cases"]
    assert isinstance(cases, dict)
    entries = cases[case.id]["entries"]
    listed: set[str] = set()
    for entry in entries:
        if entry["file"] is not None:
            listed.update(f for f in files if f == entry["file"])
            continue
        folder = str(entry["name"]).split(" (", 1)[0]
        listed.update(f for f in files if os.path.basename(os.path.dirname(f)) == folder)
    return frozenset(listed)


def _both_ways(host: str, batch: Batch, case: Case, root: Path, files: list[str]) -> bool:
    """Whether the record tells a file the host dropped (see the module's docstring)."""
    if len(files) != 1 or batch.cwd != "repo":
        return False
    wiring = get_wiring(host)
    places = (f"repo/{wiring.project_skills}", f"home/{wiring.user_skills}")
    folder, _, rest = files[0].rpartition("/")
    place, _, name = folder.rpartition("/")
    if rest != "SKILL.md" or place not in places or name.startswith("."):
        return False
    if os.path.realpath(root / files[0]) != str(root / files[0]):
        return False
    texts = [item.text or "" for item in case.files]
    if any(LISTING_KEYS.search(text) for text in texts):
        return False
    return not any(item.at.endswith("openai.yaml") for item in case.files)


@dataclass
class Lab:
    """Every recorded case of both hosts rebuilt (a tree per batch), and the CLI's
    findings per tree (one ``check`` run each, made when first asked)."""

    base: Path
    cases: dict[tuple[str, str], CaseFiles]
    by_root: dict[Path, list[CaseFiles]]
    judged: dict[Path, Judged]

    def findings(self, item: CaseFiles) -> Judged:
        if item.root not in self.judged:
            files = sorted({f for case in self.by_root[item.root] for f in case.files})
            self.judged[item.root] = _cli(item.host, item.root, files, self.base / "home")
        return self.judged[item.root]


@pytest.fixture(scope="session")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Lab:
    base = tmp_path_factory.mktemp("pf")
    built = Lab(base, {}, {}, {})
    for host in PROFILES:
        for batch in BATCHES[host]:
            root = tree_root(base, f"{host[:6]}-{batch.id}")
            build_tree(root, batch)
            by_case = _skill_files(root, [case.id for case in batch.cases])
            for case in batch.cases:
                files = by_case[case.id]
                item = CaseFiles(
                    host,
                    case,
                    root,
                    tuple(files),
                    _listed(host, case, files),
                    _both_ways(host, batch, case, root, files),
                )
                built.cases[host, case.id] = item
                built.by_root.setdefault(root, []).append(item)
    return built


def _environment(home: Path) -> dict[str, str]:
    """The environment of both front ends: ``home`` holds no skill (the trees' own
    ``home`` folders are judged file by file, like every other case file)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DSH_", "SKILLDECK_"))}
    env.update(
        HOME=str(home),
        DSH_HOME=str(home / ".dsh"),
        DSH_AGENTS_HOME=str(home / ".agents"),
        NO_COLOR="1",
    )
    return env


def _cli(host: str, root: Path, files: list[str], home: Path) -> Judged:
    command = [sys.executable, "-m", "skilldeck", "check", "--no-cache", "--profile", host]
    done = subprocess.run(
        [*command, "--format", "json", *files],
        cwd=root,
        env=_environment(home),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    found: dict[str, set[Shown]] = {}
    for item in json.loads(done.stdout):
        start, end = item["range"]["start"], item["range"]["end"]
        shown = (
            start["line"],
            start["character"],
            end["line"],
            end["character"],
            item["code"],
            item["severity"],
            item["message"],
        )
        found.setdefault(os.path.normpath(root / item["path"]), set()).add(shown)
    return Judged({path: frozenset(items) for path, items in found.items()})


def _params() -> list[object]:
    return [
        pytest.param(host, case.id, id=f"{host}-{case.id}")
        for host in PROFILES
        for batch in BATCHES[host]
        for case in batch.cases
    ]


def _drops(findings: frozenset[Shown]) -> list[str]:
    return [f"{code} {message}" for *_r, code, _s, message in findings if NOT_LOADED in message]


def _show(item: CaseFiles, judged_files: Judged) -> str:
    lines = [f"case {item.case.id} ({item.case.about}), {item.host} listed {sorted(item.listed)}"]
    for file in item.files:
        findings = judged_files.findings.get(os.path.normpath(item.root / file), frozenset())
        lines.append(f"  {file}:")
        lines += [
            f"    {code} {severity} {message}" for *_r, code, severity, message in sorted(findings)
        ]
    return "\n".join(lines)


def test_the_profiles_are_the_hosts_of_the_records() -> None:
    assert [get_profile(host).host for host in PROFILES] == list(PROFILES)
    for host in PROFILES:
        assert sorted(RECORDS[host]["cases"]) == sorted(
            case.id for b in BATCHES[host] for case in b.cases
        )


@pytest.mark.parametrize(("host", "case_id"), _params())
def test_check_under_the_host_profile_loads_what_the_host_loaded(
    host: str, case_id: str, lab: Lab
) -> None:
    item = lab.cases[host, case_id]
    assert item.files, f"case {case_id} has no skill file in its tree"
    result = lab.findings(item)
    wrong: list[str] = []
    for file in item.files:
        drops = _drops(result.findings.get(os.path.normpath(item.root / file), frozenset()))
        if file in item.listed and drops:
            wrong.append(f"{file}: {host} lists it, the profile says: {drops[0]}")
        elif item.both_ways and file not in item.listed and not drops:
            wrong.append(f"{file}: {host} does not load it, the profile does not say so")
    assert not wrong, "\n".join(wrong) + "\n" + _show(item, result)


# --------------------------------------------------------------------------- the editor

#: The files of a case opened in the editor: all of them but for the budget cases,
#: whose hundreds of files are alike (their first few are opened).
EDITOR_FILES = 5


@dataclass
class Editors:
    """One language server per profile, started when first asked and kept for the
    module, its workspace folder the lab's (no skill root there, so every case file
    opened is judged as ``check`` judges a file given by path; a file outside every
    workspace folder would be judged with default settings, not the profile)."""

    lab: Lab
    started: dict[str, LanguageClient]

    async def client(self, host: str) -> LanguageClient:
        if host not in self.started:
            env = _environment(self.lab.base / "home")
            command = [sys.executable, "-m", "skilldeck", "serve"]
            client = await ClientServerConfig(server_command=command, server_env=env).start()
            assert isinstance(client, LanguageClient)
            self.started[host] = client
            client.set_configuration({"profile": host}, section="skilldeck")
            folder = types.WorkspaceFolder(uri=uri(self.lab.base), name="lab")
            await client.initialize_session(
                types.InitializeParams(capabilities=pull_capabilities(), workspace_folders=[folder])
            )
        return self.started[host]


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def editors(lab: Lab) -> AsyncIterator[Editors]:
    made = Editors(lab, {})
    yield made
    for client in made.started.values():
        await stop_client(client)


async def _pulled(client: LanguageClient, path: Path) -> frozenset[Shown]:
    """Open ``path`` as an editor does (its text without a byte order mark, line breaks
    as they are) and pull its diagnostics."""
    text = path.read_bytes().decode("utf-8").removeprefix("\ufeff")
    target = uri(path)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=target, language_id="markdown", version=1, text=text)
        )
    )
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=target))
    )
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    return frozenset(
        (
            d.range.start.line,
            d.range.start.character,
            d.range.end.line,
            d.range.end.character,
            str(d.code),
            SEVERITIES[int(d.severity or 1)],
            d.message,
        )
        for d in report.items
    )


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize(("host", "case_id"), _params())
async def test_the_editor_shows_what_check_reports_under_the_host_profile(
    host: str, case_id: str, lab: Lab, editors: Editors
) -> None:
    item = lab.cases[host, case_id]
    expected = lab.findings(item)
    client = await editors.client(host)
    differ: list[str] = []
    # A Markdown file outside every skill root is a skill file to the editor only when
    # it is named SKILL.md (check judges any file it is given).
    opened = [file for file in item.files if os.path.basename(file) == "SKILL.md"]
    for file in opened[:EDITOR_FILES]:
        path = item.root / file
        cli = expected.findings.get(os.path.normpath(path), frozenset())
        shown = await _pulled(client, path)
        if shown != cli:
            differ.append(f"{file}:\n  check: {sorted(cli)}\n  editor: {sorted(shown)}")
    assert not differ, f"case {case_id} under --profile {host}:\n" + "\n".join(differ)


def test_most_cases_are_judged_both_ways_and_codex_drops_some(lab: Lab) -> None:
    """The oracle is not one-sided by accident: most cases tell a drop from a load, and
    among them are files Codex dropped (Claude Code 2.1.332 listed every file of a case
    judged both ways)."""
    both = {
        host: [i for i in lab.cases.values() if i.host == host and i.both_ways] for host in PROFILES
    }
    assert {host: len(items) >= 55 for host, items in both.items()} == dict.fromkeys(PROFILES, True)
    dropped = sorted(i.case.id for i in both["codex"] if not i.listed)
    assert len(dropped) >= 15, dropped
