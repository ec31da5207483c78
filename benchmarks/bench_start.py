"""What a front end costs to start: CPU seconds (user + system, from the kernel's
accounting of the process) and wall time of

- ``python -c pass`` (the interpreter alone: the baseline, measured in the same run);
- ``skilldeck --version``;
- ``skilldeck check --no-cache`` on a project of one skill (every import of the analysis);
- the language server (``python -m skilldeck.lsp``) from its start to its exit, told
  ``initialize``, ``initialized``, ``shutdown`` and ``exit`` over stdio as soon as each
  answer arrives, on the same project.

The test suite starts about 700 of these processes (CLI runs and language servers), so
their start is most of its CPU time; it is also what a user waits for on every command
and editor start. ``--tree PATH`` (repeatable) measures another source tree too (its
``server/`` first on ``PYTHONPATH``; e.g. ``git worktree add /tmp/old <commit>``),
alternating with this one run by run, so that a comparison shares the machine's load.

CPU time is the comparable figure on a loaded machine (wall time waits for the CPU);
the load average is printed with the results.

    .venv/bin/python benchmarks/bench_start.py [--runs N] [--tree PATH ...]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def _frame(message: dict[str, object]) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return f"Content-Length: {len(body)}\r\n\r\n".encode("ascii") + body


def _read_message(stream) -> dict[str, object]:  # type: ignore[no-untyped-def]
    length = 0
    while True:
        line = stream.readline()
        if not line:
            raise RuntimeError("the server closed its output")
        line = line.strip()
        if not line:
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.lower() == "content-length":
            length = int(value)
    result: dict[str, object] = json.loads(stream.read(length))
    return result


def _answer(stream, request_id: int) -> None:  # type: ignore[no-untyped-def]
    """Read messages until the answer to ``request_id`` (notifications are skipped; a
    request from the server is left unanswered: the session ends before it matters)."""
    while True:
        message = _read_message(stream)
        if message.get("id") == request_id and "method" not in message:
            return


def _wait(process: subprocess.Popen[bytes]) -> tuple[float, int]:
    """CPU seconds of ``process`` (user + system), from ``wait4``; its exit status."""
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, process.returncode


def _run(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    start = time.perf_counter()
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(
            command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=errors
        )
        cpu, code = _wait(process)
        if code not in (0, 1):
            errors.seek(0)
            said = errors.read().decode("utf-8", "replace").strip()
            raise RuntimeError(f"{command} exited {code}: {said}")
    return cpu, time.perf_counter() - start


def _server(env: dict[str, str], cwd: Path) -> tuple[float, float]:
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "skilldeck.lsp"],
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None and process.stdout is not None
    folder = {"uri": cwd.as_uri(), "name": cwd.name}
    params = {"processId": os.getpid(), "capabilities": {}, "workspaceFolders": [folder]}
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}
    process.stdin.write(_frame(initialize))
    process.stdin.flush()
    _answer(process.stdout, 1)
    process.stdin.write(_frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    process.stdin.write(_frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
    process.stdin.flush()
    _answer(process.stdout, 2)
    process.stdin.write(_frame({"jsonrpc": "2.0", "method": "exit"}))
    process.stdin.close()
    cpu, code = _wait(process)
    process.stdout.close()
    if code != 0:
        raise RuntimeError(f"the language server exited {code}")
    return cpu, time.perf_counter() - start


def _project(base: Path) -> Path:
    project = base / "project"
    (project / ".git").mkdir(parents=True)
    skill = project / ".dsh" / "skills" / "review" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(
        "---\nname: review\ndescription: Reviews code when asked to.\n---\n\n# Review\n\n"
        "Read the diff, then say what could break.\n",
        encoding="utf-8",
    )
    return project


def _environment(base: Path, tree: Path | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DSH_", "SKILLDECK_"))}
    env.update(
        {
            "HOME": str(base / "home"),
            "DSH_HOME": str(base / "home" / ".dsh"),
            "DSH_AGENTS_HOME": str(base / "home" / ".agents"),
            "SKILLDECK_CACHE_DIR": str(base / "cache"),
        }
    )
    env.pop("PYTHONPATH", None)
    if tree is not None:
        env["PYTHONPATH"] = str(tree / "server")
    return env


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9, help="runs of each (default 9)")
    parser.add_argument(
        "--tree",
        action="append",
        type=Path,
        default=[],
        help="another source tree to measure alternately (repeatable)",
    )
    args = parser.parse_args()
    trees: list[tuple[str, Path | None]] = [("this tree", None)]
    trees += [(str(path), path.resolve()) for path in args.tree]
    python = sys.executable
    with tempfile.TemporaryDirectory(prefix="bench-start-") as scratch:
        base = Path(scratch)
        project = _project(base)
        kinds: dict[str, Callable[[dict[str, str]], tuple[float, float]]] = {
            "python -c pass": lambda env: _run([python, "-c", "pass"], env, project),
            "skilldeck --version": lambda env: _run(
                [python, "-m", "skilldeck", "--version"], env, project
            ),
            "check --no-cache (1 skill)": lambda env: _run(
                [python, "-m", "skilldeck", "check", "--no-cache"], env, project
            ),
            "language server start to exit": lambda env: _server(env, project),
        }
        samples: dict[tuple[str, str], list[tuple[float, float]]] = {}
        envs = {name: _environment(base, tree) for name, tree in trees}
        for name, _ in trees:  # a first run of each writes the bytecode and caches
            for measure in kinds.values():
                measure(envs[name])
        for _ in range(args.runs):
            for kind, measure in kinds.items():
                for name, _ in trees:
                    samples.setdefault((kind, name), []).append(measure(envs[name]))
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    loads = " ".join(f"{value:.1f}" for value in load)
    print(f"{args.runs} runs each, alternating; load average {loads}")
    print(f"{'':32} {'tree':<28} {'CPU s median (min-max)':>26} {'wall s median':>14}")
    for (kind, name), values in samples.items():
        cpu = [c for c, _ in values]
        wall = [w for _, w in values]
        print(
            f"{kind:32} {name[-28:]:<28} {statistics.median(cpu):>8.3f} "
            f"({min(cpu):.3f}-{max(cpu):.3f}) {statistics.median(wall):>14.3f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
