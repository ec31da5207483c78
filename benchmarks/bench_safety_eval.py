"""The safety evaluation (issue #40): how many hostile skills each scanner catches, how many
benign look-alikes it flags, what it says about the real collection, and what it costs.

The set is ``tests/safety/eval/`` (hostile.toml: skills modelled on public attack reports;
benign.toml: look-alikes), materialised by ``tests/safety/safety_eval.py`` into one skill
root per set and profile. skilldeck runs as ``skilldeck check --select SD10 --format json``
on each root; a case is *caught* (hostile) or *flagged* (look-alike) when any warning or
error lands in its folder. Then the same on the real collection
(``../shared/corpora/antigravity-awesome-skills/skills``).

The peers run on the same roots, statically: each is installed from PyPI into its own
virtual environment under ``--peers-cache`` (default ``~/.cache/skilldeck/safety-peers``,
outside the repository; ``--install`` creates them with pip), with no LLM, no cloud
service and no online lookup, and, where ``unshare -rn`` works, with no network at all.
Each peer's verdict per skill is read from its own JSON output; "flagged" means a finding
at the peer's middle level or above (skill-auditor: WARNING or CRITICAL; cisco, agentscan,
skillguard, skillscan: MEDIUM or above), the level that matches skilldeck's warning.
Each row also gives the peer's own count of the files it judged (a folder it does not
read costs it nothing).

No test depends on this script or on the peers. Numbers, not pass/fail::

    .venv/bin/python benchmarks/bench_safety_eval.py [--install] [--skip-collection-peers]
        [--peers-cache DIR] [--corpus DIR] [--repeats N] [--json OUT] [--set holdout]

``--set holdout`` measures the held-out set (``tests/safety/holdout/``, same layout) instead
of the evaluation set, ``--set holdout2`` the second held-out set (``tests/safety/holdout2/``);
``--skip-collection`` leaves the real collection out. ``--write-ratchet`` rewrites the chosen
set's ``ratchet.toml`` from this tree's skilldeck verdicts (the misses and false alarms the
set's test then expects as strict xfails), so re-measuring after a rules change is one
command::

    .venv/bin/python benchmarks/bench_safety_eval.py --set holdout2 --skip-collection \
        --skip-peers --write-ratchet
"""

from __future__ import annotations

import argparse
import collections
import datetime
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

_REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(_REPO / "tests" / "safety"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import safety_eval  # noqa: E402 - after the path set-up

from measure import median, run_timed  # noqa: E402

#: ``../shared/corpora`` beside the clone (CI), or beside the worktrees' folder.
_CORPORA = (_REPO.parent / "shared" / "corpora", _REPO.parent.parent / "shared" / "corpora")
_COLLECTION = Path("antigravity-awesome-skills") / "skills"
_CACHE = Path.home() / ".cache" / "skilldeck" / "safety-peers"

#: folder -> flagging findings ("LEVEL rule" for each finding at the flagging level)
Flags = dict[Path, list[str]]


@dataclass(frozen=True)
class Peer:
    """A peer scanner: where it lives, how it runs statically, how to read it."""

    label: str
    venv: str
    spec: str
    #: (bin folder, root, output file) -> argv
    argv: Callable[[Path, Path, Path], list[str]]
    #: (stdout, output file, root) -> flags per skill folder
    parse: Callable[[bytes, Path, Path], Flags]
    #: (bin folder, root, stdout, output file) -> the peer's own count of files judged
    files: Callable[[Path, Path, bytes, Path], int | None]
    note: str = ""
    #: when a whole root fails: (bin folder, skill folder) -> (flags, files judged), one
    #: skill at a time (a skill the peer refuses to scan is flagged with its reason)
    one_skill: Callable[[list[str], Path, Path], tuple[list[str], int]] | None = None


def _folder_of(root: Path, path: str) -> Path:
    """The skill folder (a child of ``root``) holding ``path`` (absolute or relative to
    ``root``, or relative to the working folder)."""
    candidate = Path(path)
    if not candidate.is_absolute():
        candidate = root / candidate if (root / candidate).exists() else Path.cwd() / candidate
    relative = candidate.resolve().relative_to(root.resolve())
    return root.resolve() / relative.parts[0]


def _peer_python(bin_dir: Path, code: str, *args: str) -> str:
    done = subprocess.run(
        [str(bin_dir / "python"), "-c", code, *args],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip()


# ---------------------------------------------------------------- skill-auditor 0.9.0


def _auditor_parse(stdout: bytes, _out: Path, root: Path) -> Flags:
    flags: Flags = {}
    for report in json.loads(stdout)["reports"]:
        folder = root.resolve() / report["skill_root"]
        flags[folder] = [
            f"{finding['severity']} {finding['id']}"
            for finding in report["findings"]
            if finding["severity"] in {"CRITICAL", "WARNING"}
        ]
    return flags


def _auditor_files(_bin: Path, _root: Path, stdout: bytes, _out: Path) -> int:
    return sum(len(report["scanned_files"]) for report in json.loads(stdout)["reports"])


def _auditor_one(prefix: list[str], bin_dir: Path, folder: Path) -> tuple[list[str], int]:
    done = subprocess.run(
        [
            *prefix,
            str(bin_dir / "skill-auditor"),
            "scan",
            "--format",
            "json",
            "--no-cache",
            str(folder),
        ],
        capture_output=True,
        check=False,
    )
    if done.returncode == 3:
        return [f"refused: {done.stderr.decode(errors='replace').strip()[:80]}"], 0
    report = json.loads(done.stdout)
    flags = [
        f"{finding['severity']} {finding['id']}"
        for finding in report["findings"]
        if finding["severity"] in {"CRITICAL", "WARNING"}
    ]
    return flags, len(report["scanned_files"])


SKILL_AUDITOR = Peer(
    "skill-auditor 0.9.0",
    "skill-auditor",
    "skill-auditor==0.9.0",
    lambda b, root, _o: [
        str(b / "skill-auditor"),
        "scan",
        "--recursive",
        "--format",
        "json",
        "--no-cache",
        "--semantic",
        "off",
        str(root),
    ],
    _auditor_parse,
    _auditor_files,
    "`--semantic off` is its default (no model); a root with a skill it refuses (a "
    "non-ASCII name) is scanned one skill at a time and the refused skill counts as flagged",
    _auditor_one,
)

# ---------------------------------------------------------------- cisco-ai-skill-scanner 2.3.2

_CISCO_FLAG = {"CRITICAL", "HIGH", "MEDIUM"}
_CISCO_FILES = """
import sys
from pathlib import Path
from skill_scanner.core.loader import SkillLoader
loader = SkillLoader()
total = 0
for folder in sorted(Path(sys.argv[1]).iterdir()):
    if (folder / "SKILL.md").is_file():
        total += len(loader.load_skill(folder, lenient=True).files)
print(total)
"""


def _cisco_parse(_stdout: bytes, out: Path, root: Path) -> Flags:
    flags: Flags = {}
    for result in json.loads(out.read_text(encoding="utf-8"))["results"]:
        folder = _folder_of(root, result["skill_path"])
        flags[folder] = [
            f"{finding['severity']} {finding['rule_id']}"
            for finding in result["findings"]
            if finding["severity"] in _CISCO_FLAG
        ]
    return flags


def _cisco_files(bin_dir: Path, root: Path, _stdout: bytes, _out: Path) -> int | None:
    found = _peer_python(bin_dir, _CISCO_FILES, str(root))
    return int(found) if found.isdigit() else None


def _cisco_argv(extra: Sequence[str]) -> Callable[[Path, Path, Path], list[str]]:
    def argv(bin_dir: Path, root: Path, out: Path) -> list[str]:
        return [
            str(bin_dir / "skill-scanner"),
            "scan-all",
            str(root),
            "--recursive",
            *extra,
            "--format",
            "json",
            "--output",
            str(out),
        ]

    return argv


CISCO = Peer(
    "cisco-ai-skill-scanner 2.3.2",
    "cisco-ai-skill-scanner",
    "cisco-ai-skill-scanner==2.3.2",
    _cisco_argv(()),
    _cisco_parse,
    _cisco_files,
    "default analyzers: static (YAML + YARA), bytecode, pipeline, correlation",
)
CISCO_ALL = Peer(
    "cisco-ai-skill-scanner 2.3.2 +behavioral +trigger",
    "cisco-ai-skill-scanner",
    "cisco-ai-skill-scanner==2.3.2",
    _cisco_argv(("--use-behavioral", "--use-trigger")),
    _cisco_parse,
    _cisco_files,
    "plus its two other offline analyzers (dataflow, generic descriptions)",
)

# ---------------------------------------------------------------- agentscan-cli 1.2.2

_AGENTSCAN_FILES = """
import sys
from scanaskill.scanner import _rel_files
print(len(_rel_files(sys.argv[1])))
"""


def _agentscan_parse(stdout: bytes, _out: Path, root: Path) -> Flags:
    data = json.loads(stdout)
    flags: Flags = {root.resolve() / Path(skill["root"]).name: [] for skill in data["skills"]}
    for finding in data["findings"]:
        if finding["severity"] in {"critical", "high", "medium"}:
            folder = _folder_of(root, finding["path"])
            flags.setdefault(folder, []).append(f"{finding['severity']} {finding['check']}")
    return flags


def _agentscan_files(bin_dir: Path, root: Path, _stdout: bytes, _out: Path) -> int | None:
    found = _peer_python(bin_dir, _AGENTSCAN_FILES, str(root))
    return int(found) if found.isdigit() else None


AGENTSCAN = Peer(
    "agentscan-cli 1.2.2",
    "agentscan-cli",
    "agentscan-cli==1.2.2",
    lambda b, root, _o: [str(b / "scanaskill"), "--json", str(root)],
    _agentscan_parse,
    _agentscan_files,
    "`scanaskill --json` (the package's scanner; `--osv` online lookups left off)",
)

# ---------------------------------------------------------------- skillguard-cli 0.2.6


def _skillguard_parse(stdout: bytes, _out: Path, root: Path) -> Flags:
    data = json.loads(stdout)
    flags: Flags = {root.resolve() / name: [] for name in data["skills"]}
    for finding in data["findings"]:
        if finding["severity"] in {"HIGH", "MEDIUM"}:
            folder = _folder_of(root, finding["file"])
            flags.setdefault(folder, []).append(f"{finding['severity']} {finding['ruleId']}")
    return flags


def _skillguard_files(_bin: Path, _root: Path, stdout: bytes, _out: Path) -> int:
    data = json.loads(stdout)
    return int(data["filesScanned"]) + len(data["skills"])


SKILLGUARD = Peer(
    "skillguard-cli 0.2.6",
    "skillguard-cli",
    "skillguard-cli==0.2.6",
    lambda b, root, _o: [str(b / "skillguard"), "scan-set", "-f", "json", str(root)],
    _skillguard_parse,
    _skillguard_files,
    "`scan-set` (each child folder a skill); files = its `filesScanned` (scripts) + manifests",
)

# ---------------------------------------------------------------- skillscan 0.4.0


def _skillscan_parse(stdout: bytes, _out: Path, root: Path) -> Flags:
    flags: Flags = {}
    for result in json.loads(stdout):
        folder = _folder_of(root, result["skill_path"])
        flags[folder] = [
            f"{finding['severity']} {finding['analyzer']}"
            for finding in result["findings"]
            if finding["severity"] in {"CRITICAL", "HIGH", "MEDIUM"}
        ]
    return flags


def _skillscan_files(_bin: Path, _root: Path, stdout: bytes, _out: Path) -> int:
    return len(json.loads(stdout))


SKILLSCAN = Peer(
    "skillscan 0.4.0",
    "skillscan",
    "skillscan==0.4.0",
    lambda b, root, _o: [str(b / "skillscan"), "audit", "--dir", "--format", "json", str(root)],
    _skillscan_parse,
    _skillscan_files,
    "`audit` without `--llm`; reads each SKILL.md only",
)

PEERS = (SKILL_AUDITOR, CISCO, CISCO_ALL, AGENTSCAN, SKILLGUARD, SKILLSCAN)


# ---------------------------------------------------------------- running


def _no_network() -> list[str]:
    """``unshare -rn`` when this machine allows it (no network at all for the child)."""
    if shutil.which("unshare") is None:
        return []
    done = subprocess.run(["unshare", "-rn", "true"], capture_output=True, check=False)
    return ["unshare", "-rn"] if done.returncode == 0 else []


@dataclass
class Run:
    """One scanner over a list of roots."""

    label: str
    flags: Flags = field(default_factory=dict)
    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    files: int | None = 0
    commands: list[str] = field(default_factory=list)
    error: str | None = None
    #: skilldeck only: severity -> count of findings
    severities: collections.Counter[str] = field(default_factory=collections.Counter)

    @property
    def wall(self) -> float:
        return sum(self.walls)

    @property
    def cpu(self) -> float:
        return sum(self.cpus)


def _timed(
    argv: Sequence[str], repeats: int, env: Mapping[str, str] | None = None
) -> tuple[float, float, bytes, bytes, int]:
    walls: list[float] = []
    cpus: list[float] = []
    last = None
    for _ in range(repeats):
        last = run_timed(argv, env=env)
        walls.append(last.wall)
        cpus.append(last.cpu)
    assert last is not None
    return median(walls), median(cpus), last.stdout, last.stderr, last.returncode


def run_peer(
    peer: Peer, bin_dir: Path, roots: Iterable[Path], prefix: list[str], repeats: int
) -> Run:
    run = Run(peer.label)
    for root in roots:
        with tempfile.TemporaryDirectory() as scratch:
            out = Path(scratch) / "report.json"
            argv = [*prefix, *peer.argv(bin_dir, root, out)]
            run.commands.append(" ".join(argv))
            wall, cpu, stdout, stderr, code = _timed(argv, repeats)
            try:
                flags = peer.parse(stdout, out, root)
                counted = peer.files(bin_dir, root, stdout, out)
            except (ValueError, KeyError, OSError) as error:
                if peer.one_skill is None:
                    run.error = f"exit {code}: {error}; {stderr.decode(errors='replace')[-300:]}"
                    return run
                reason = stderr.decode(errors="replace").strip().splitlines()[-1:] or [str(error)]
                run.commands.append(f"(that root was refused as a whole: {reason[0][:100]})")
                flags, counted, wall, cpu = _one_at_a_time(peer, bin_dir, root, prefix, run)
            run.flags.update(flags)
            run.walls.append(wall)
            run.cpus.append(cpu)
            run.files = None if counted is None or run.files is None else run.files + counted
    return run


def _one_at_a_time(
    peer: Peer, bin_dir: Path, root: Path, prefix: list[str], run: Run
) -> tuple[Flags, int, float, float]:
    """``peer`` on each skill of ``root`` in turn, timed as a whole (wall, and the CPU
    of the children)."""
    assert peer.one_skill is not None
    flags: Flags = {}
    files = 0
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    for folder in sorted(root.iterdir()):
        if (folder / "SKILL.md").is_file():
            flags[folder.resolve()], counted = peer.one_skill(prefix, bin_dir, folder)
            files += counted
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    run.commands.append(
        f"then one skill folder of {root} at a time: "
        f"{' '.join(prefix)} {bin_dir}/skill-auditor scan --format json --no-cache FOLDER"
    )
    return flags, files, wall, cpu


def _skilldeck_env(scratch: Path) -> dict[str, str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("DSH_", "SKILLDECK_"))}
    environ.update(
        {
            "DSH_HOME": str(scratch / "home" / ".dsh"),
            "DSH_AGENTS_HOME": str(scratch / "home" / ".agents"),
            "SKILLDECK_CACHE_DIR": str(scratch / "cache"),
            "NO_COLOR": "1",
        }
    )
    return environ


def run_skilldeck(
    roots: Iterable[tuple[str, Path]], prefix: list[str], repeats: int, scratch: Path
) -> Run:
    run = Run("skilldeck (this tree)")
    env = _skilldeck_env(scratch)
    for profile, root in roots:
        argv = [
            *prefix,
            sys.executable,
            "-m",
            "skilldeck",
            *safety_eval.check_arguments(profile, root),
        ]
        run.commands.append(" ".join(argv[len(prefix) :]).replace(sys.executable, "python"))
        wall, cpu, stdout, stderr, code = _timed(argv, repeats, env)
        if code not in (0, 1):
            run.error = f"exit {code}: {stderr.decode(errors='replace')[-300:]}"
            return run
        run.walls.append(wall)
        run.cpus.append(cpu)
        for finding in json.loads(stdout):
            path = Path(finding["path"])
            folder = _folder_of(root, str(path))
            run.severities[finding["severity"]] += 1
            if finding["severity"] in safety_eval.FLAGGING:
                run.flags.setdefault(folder, []).append(f"{finding['severity']} {finding['code']}")
        for folder in root.iterdir():
            if (folder / "SKILL.md").is_file():
                run.flags.setdefault(folder.resolve(), [])
    run.files = None
    return run


def install(cache: Path) -> None:
    """Create each peer's virtual environment with pip (the ordinary client)."""
    seen: set[str] = set()
    for peer in PEERS:
        if peer.venv in seen:
            continue
        seen.add(peer.venv)
        venv = cache / peer.venv
        if (venv / "bin" / "python").is_file():
            continue
        print(f"installing {peer.spec} into {venv}", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", peer.spec], check=True)


# ---------------------------------------------------------------- reporting


@dataclass(frozen=True)
class SetResult:
    """Caught / flagged counts of one scanner on the evaluation set."""

    caught: list[str]
    missed: list[str]
    flagged_benign: list[str]


def score(run: Run, cases: Sequence[safety_eval.Case], folders: Mapping[str, Path]) -> SetResult:
    caught, missed, flagged = [], [], []
    for case in cases:
        hit = bool(run.flags.get(folders[case.id].resolve()))
        if case.expect == "hostile":
            (caught if hit else missed).append(case.id)
        elif hit:
            flagged.append(case.id)
    return SetResult(caught, missed, flagged)


def _fmt_time(run: Run) -> str:
    return f"{run.wall:.2f} s" if run.error is None else "-"


def report(
    cases: Sequence[safety_eval.Case],
    folders: Mapping[str, Path],
    runs: Sequence[Run],
    collection: Mapping[str, Run],
    collection_size: int,
    set_files: int,
    set_root: Path = safety_eval.EVAL,
) -> dict[str, object]:
    hostile = [c for c in cases if c.expect == "hostile"]
    benign = [c for c in cases if c.expect == "benign"]
    print(
        f"\n{set_root.name} set: {len(hostile)} hostile skills, {len(benign)} look-alikes "
        f"({set_files} files); collection: {collection_size} skills\n"
    )
    header = (
        "| scanner | hostile caught (≥ warning) | look-alikes flagged | "
        f"real collection ({collection_size}) flagged | time, set | files judged, set | "
        "time, collection | files judged, collection |"
    )
    print(header)
    print("|---|---|---|---|---|---|---|---|")
    results: dict[str, object] = {}
    for run in runs:
        if run.error is not None:
            print(f"| {run.label} | error: {run.error[:120]} | | | | | | |")
            continue
        scored = score(run, cases, folders)
        real = collection.get(run.label)
        if real is None or real.error is not None:
            real_cell = "not run" if real is None else f"error: {real.error[:60]}"
            real_time, real_files = "-", "-"
        else:
            flagged_skills = sum(1 for flags in real.flags.values() if flags)
            refused = sum(1 for flags in real.flags.values() if flags[:1] and "refused" in flags[0])
            real_cell = str(flagged_skills) + (f" ({refused} refused)" if refused else "")
            if real.severities:
                real_cell += (
                    f" ({real.severities['error']} errors, {real.severities['warning']} warnings)"
                )
            real_time = _fmt_time(real)
            real_files = "-" if real.files is None else str(real.files)
        files = "-" if run.files is None else str(run.files)
        print(
            f"| {run.label} | {len(scored.caught)}/{len(hostile)} | "
            f"{len(scored.flagged_benign)}/{len(benign)} | {real_cell} | {_fmt_time(run)} | "
            f"{files} | {real_time} | {real_files} |"
        )
        results[run.label] = {
            "caught": scored.caught,
            "missed": scored.missed,
            "flagged_benign": scored.flagged_benign,
            "wall_s": round(run.wall, 3),
            "cpu_s": round(run.cpu, 3),
            "files": run.files,
            "commands": run.commands,
            "collection": None
            if real is None or real.error is not None
            else {
                "flagged_skills": sum(1 for flags in real.flags.values() if flags),
                "refused_skills": sum(
                    1 for flags in real.flags.values() if flags[:1] and "refused" in flags[0]
                ),
                "severities": dict(real.severities),
                "wall_s": round(real.wall, 3),
                "files": real.files,
                "commands": real.commands,
            },
        }
    good = [run for run in runs if run.error is None]
    union = {
        case.id
        for run in good
        if not run.label.startswith("skilldeck")
        for case in hostile
        if run.flags.get(folders[case.id].resolve())
    }
    print(f"\nall peers together caught {len(union)}/{len(hostile)}")
    _per_technique(hostile, folders, good, set_root)
    _look_alikes(benign, folders, good)
    _per_case(cases, folders, good)
    print("\ncommands (one per root; the set's roots, then the collection):")
    for run in good:
        print(f"  {run.label}:")
        for command in run.commands + (
            collection[run.label].commands if run.label in collection else []
        ):
            print(f"    {command}")
    return results


def _short(label: str) -> str:
    return label.split(" ", maxsplit=1)[0].replace("cisco-ai-skill-scanner", "cisco") + (
        "+" if "+behavioral" in label else ""
    )


def _per_technique(
    hostile: Sequence[safety_eval.Case],
    folders: Mapping[str, Path],
    runs: Sequence[Run],
    set_root: Path,
) -> None:
    by_technique: dict[str, list[safety_eval.Case]] = collections.defaultdict(list)
    for case in hostile:
        by_technique[case.technique].append(case)
    names = [_short(run.label) for run in runs]
    print("\nper technique (caught / cases):")
    print("| technique | cases | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    for technique in safety_eval.techniques(set_root):
        group = by_technique.get(technique, [])
        cells = []
        for run in runs:
            hit = [c.id for c in group if run.flags.get(folders[c.id].resolve())]
            cells.append(f"{len(hit)}/{len(group)}")
        ids = ", ".join(c.id for c in group)
        print(f"| {technique} | {ids} | " + " | ".join(cells) + " |")


def _look_alikes(
    benign: Sequence[safety_eval.Case], folders: Mapping[str, Path], runs: Sequence[Run]
) -> None:
    print("\nlook-alikes flagged (by whom, with what):")
    for case in benign:
        folder = folders[case.id].resolve()
        who = [
            f"{_short(run.label)} ({', '.join(sorted(set(run.flags[folder])))[:80]})"
            for run in runs
            if run.flags.get(folder)
        ]
        if who:
            print(f"  {case.id} {case.name} [{case.technique}]: " + "; ".join(who))


def _per_case(
    cases: Sequence[safety_eval.Case], folders: Mapping[str, Path], runs: Sequence[Run]
) -> None:
    """One row a case: which scanner told a reviewer (x) and which did not (.)."""
    names = [_short(run.label) for run in runs]
    print("\nper case (x: warning or worse in the folder):")
    print("| case | technique | expect | " + " | ".join(names) + " |")
    print("|---|---|---|" + "---|" * len(names))
    for case in cases:
        folder = folders[case.id].resolve()
        cells = ["x" if run.flags.get(folder) else "." for run in runs]
        print(f"| {case.id} | {case.technique} | {case.expect} | " + " | ".join(cells) + " |")


def _skilldeck_verdicts(
    run: Run, cases: Sequence[safety_eval.Case], folders: Mapping[str, Path]
) -> None:
    print("\nskilldeck per case (flagging findings):")
    for case in cases:
        flags = run.flags.get(folders[case.id].resolve(), [])
        mark = "caught" if flags else "-"
        if case.expect == "benign":
            mark = "FLAGGED" if flags else "quiet"
        print(f"  {case.id} {case.technique:28} {mark:8} {', '.join(sorted(set(flags)))}")


_SETS = {
    "eval": safety_eval.EVAL,
    "holdout": safety_eval.HOLDOUT,
    "holdout2": safety_eval.HOLDOUT2,
}


def _git_head() -> str:
    done = subprocess.run(
        ["git", "-C", str(_REPO), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip() or "unknown"


def write_ratchet(set_root: Path, scored: SetResult, cases: Sequence[safety_eval.Case]) -> Path:
    """Rewrite ``set_root/ratchet.toml``: the hostile cases this tree misses and the
    look-alikes it flags, one id a line with its technique and summary, in set order."""
    by_id = {case.id: case for case in cases}
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()

    def lines(ids: Iterable[str]) -> list[str]:
        ordered = [case.id for case in cases if case.id in set(ids)]
        return [
            f'  "{i}",  # {by_id[i].technique}: {" ".join(by_id[i].summary.split())}'
            for i in ordered
        ]

    text = "\n".join(
        [
            f"# The ratchet of {set_root.name}/ (tests/safety/test_safety_{set_root.name}.py): the",
            "# cases skilldeck gets wrong, as `check --select SD10` judges them (a warning or an",
            "# error anywhere in the folder flags it). Each id is a strict xfail: a rule change",
            "# that starts catching a missed case (or stops flagging a look-alike) fails the test",
            "# as XPASS(strict) until the id comes out of this list.",
            "#",
            f"# Written by benchmarks/bench_safety_eval.py --set {set_root.name} --write-ratchet",
            f"# on {today}, on the tree at {_git_head()} (re-run it after a rules change).",
            "",
            "# hostile skills with no warning or error",
            "missed = [",
            *lines(scored.missed),
            "]",
            "",
            "# look-alikes with a warning or an error",
            "false_alarms = [",
            *lines(scored.flagged_benign),
            "]",
            "",
        ]
    )
    path = set_root / safety_eval.RATCHET_FILE.name
    path.write_text(text, encoding="utf-8")
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--peers-cache", type=Path, default=_CACHE)
    parser.add_argument("--install", action="store_true", help="create missing peer venvs")
    found = next((base / _COLLECTION for base in _CORPORA if (base / _COLLECTION).is_dir()), None)
    parser.add_argument("--corpus", type=Path, default=found)
    parser.add_argument("--repeats", type=int, default=1, help="runs per command (median)")
    parser.add_argument("--skip-peers", action="store_true")
    parser.add_argument("--skip-collection-peers", action="store_true")
    parser.add_argument("--json", type=Path, default=None, help="write the results here")
    parser.add_argument(
        "--set",
        choices=tuple(_SETS),
        default="eval",
        help="the evaluation set (tests/safety/eval) or a held-out set (tests/safety/holdout, "
        "tests/safety/holdout2)",
    )
    parser.add_argument("--skip-collection", action="store_true", help="leave the corpus out")
    parser.add_argument(
        "--write-ratchet",
        action="store_true",
        help="rewrite the set's ratchet.toml from this tree's skilldeck verdicts",
    )
    args = parser.parse_args(argv)
    set_root = _SETS[args.set]
    if args.install:
        install(args.peers_cache)
    prefix = _no_network()
    print(f"load average at the start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(
        "network for the scanners: "
        + ("none (unshare -rn)" if prefix else "not isolated (unshare -rn unavailable)")
    )
    print(f"set: {set_root.relative_to(_REPO)}")
    cases = safety_eval.load_cases(set_root)
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        folders: dict[str, Path] = {}
        roots: list[tuple[str, Path]] = []
        for expect in ("hostile", "benign"):
            subset = [c for c in cases if c.expect == expect]
            folders.update(safety_eval.materialise(subset, scratch / expect))
            roots += [(p, scratch / expect / p) for p in safety_eval.profiles(subset)]
        set_files = sum(len(c.files) for c in cases)
        runs = [run_skilldeck(roots, prefix, args.repeats, scratch)]
        collection: dict[str, Run] = {}
        corpus: Path | None = None if args.skip_collection else args.corpus
        size = len(list(corpus.glob("*/SKILL.md"))) if corpus is not None else 0
        if corpus is not None:
            collection[runs[0].label] = run_skilldeck(
                [("dsh", corpus)], prefix, args.repeats, scratch
            )
        for peer in () if args.skip_peers else PEERS:
            bin_dir = args.peers_cache / peer.venv / "bin"
            if not (bin_dir / "python").is_file():
                runs.append(Run(peer.label, error=f"not installed in {bin_dir.parent} (--install)"))
                continue
            print(f"running {peer.label} ...", file=sys.stderr)
            runs.append(run_peer(peer, bin_dir, [root for _, root in roots], prefix, args.repeats))
            if corpus is not None and not args.skip_collection_peers:
                collection[peer.label] = run_peer(peer, bin_dir, [corpus], prefix, 1)
        _skilldeck_verdicts(runs[0], cases, folders)
        if args.write_ratchet:
            if runs[0].error is not None:
                print(f"not writing the ratchet: {runs[0].error}", file=sys.stderr)
                return 2
            written = write_ratchet(set_root, score(runs[0], cases, folders), cases)
            print(f"\nwrote {written.relative_to(_REPO)}")
        results = report(cases, folders, runs, collection, size, set_files, set_root)
    print(f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    print("(the machine is shared: compare times within one run)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
