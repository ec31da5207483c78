"""Other skill linters on the same deck, as whole processes: agnix and skills-ref-rs.

Neither is a dependency of skilldeck. Both install from PyPI into a separate virtual
environment (checked 2026-12-02: ``agnix`` 0.59.3 on PyPI is the Rust binary in a wheel;
on npm ``agnix`` is 0.25.0 and its postinstall downloads the binary from GitHub releases,
which this machine cannot reach; ``skills-ref-rs`` 0.3.3 is on PyPI only, a Rust core
with a Python CLI)::

    python3 -m venv /tmp/peers && /tmp/peers/bin/pip install agnix==0.59.3 skills-ref-rs==0.3.3

Point the benchmarks at it with ``--peers /tmp/peers/bin`` (or ``$SKILLDECK_BENCH_PEERS``);
a peer that is not found is reported as "not installed", never guessed.

- **agnix**: ``agnix --format json .`` in the project folder (it walks the project; on a
  deck from ``corpus.py`` or ``real_corpus.py`` the project root holds the skills).
  Telemetry stays off (``AGNIX_TELEMETRY=0``; it is opt-in anyway).
- **skills-ref-rs**: its CLI validates one skill folder per process
  (``skills-ref validate DIR``), so a process per skill would measure interpreter starts.
  It is measured as one process of the peer's own interpreter calling its library
  ``skills_ref_rs.validate(dir)`` on every skill folder of the deck: the fastest way the
  peer offers to validate the same files.

``python benchmarks/bench_peers.py DEST --peers BIN`` prints the figures for one deck.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import Corpus, load
from measure import median, run_timed

_SKILLS_REF_RS = """
import sys
from pathlib import Path
import skills_ref_rs
errors = 0
for line in sys.stdin.read().splitlines():
    errors += bool(skills_ref_rs.validate(Path(line)))
print(errors)
"""


def peers_dir(given: str | None = None) -> Path | None:
    """The peers' ``bin`` folder: ``given``, else ``$SKILLDECK_BENCH_PEERS``, else none."""
    value = given or os.environ.get("SKILLDECK_BENCH_PEERS")
    return Path(value) if value else None


def _timed(
    argv: list[str], cwd: str, stdin: bytes | None, repeats: int, shown: str
) -> dict[str, object]:
    walls: list[float] = []
    cpus: list[float] = []
    rss = 0
    env = {**os.environ, "AGNIX_TELEMETRY": "0", "NO_COLOR": "1"}
    env.pop("PYTHONPATH", None)
    for _ in range(repeats):
        run = run_timed(argv, env=env, cwd=cwd, stdin=stdin)
        if run.returncode not in (0, 1):
            return {"error": run.stderr.decode(errors="replace")[-500:]}
        walls.append(run.wall)
        cpus.append(run.cpu)
        rss = max(rss, run.max_rss_kb)
    return {
        "wall_s": median(walls),
        "cpu_s": median(cpus),
        "max_rss_kb": rss,
        "samples_wall_s": [round(w, 4) for w in walls],
        "command": shown,
    }


def bench_peers(corpus: Corpus, bin_dir: Path | None, *, repeats: int = 3) -> dict[str, object]:
    """Each peer's median wall/CPU time on ``corpus`` (or why it was not measured)."""
    out: dict[str, object] = {}
    agnix = bin_dir / "agnix" if bin_dir else None
    if agnix is not None and agnix.is_file():
        argv = [str(agnix), "--format", "json", "."]
        out["agnix"] = _timed(argv, corpus.cwd, None, repeats, " ".join(argv))
    else:
        out["agnix"] = {"error": "not installed (see benchmarks/bench_peers.py)"}
    python = bin_dir / "python" if bin_dir else None
    if python is not None and python.is_file() and (python.parent / "skills-ref").is_file():
        folders = "\n".join(str(Path(f).parent) for f in corpus.skill_files).encode()
        argv = [str(python), "-c", _SKILLS_REF_RS]
        shown = f"{python} -c 'skills_ref_rs.validate(dir) for each skill folder'"
        out["skills_ref_rs"] = _timed(argv, corpus.cwd, folders, repeats, shown)
    else:
        out["skills_ref_rs"] = {"error": "not installed (see benchmarks/bench_peers.py)"}
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Run on an existing deck folder and print JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("corpus", help="a folder made by corpus.py or real_corpus.py")
    parser.add_argument("--peers", default=None, help="the peers' bin folder")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    corpus = load(args.corpus)
    if corpus is None:
        parser.error(f"no corpus manifest in {args.corpus}")
    result = bench_peers(corpus, peers_dir(args.peers), repeats=args.repeats)
    json.dump(result, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
