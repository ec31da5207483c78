"""A benchmark deck built from skills people wrote: N copies of a real collection's files.

The source is ``../shared/corpora/antigravity-awesome-skills/skills/`` (559 ``SKILL.md``
files, see that folder's README): every ``SKILL.md`` under it, in path order, is copied
under new names ``<name>-r1``, ``<name>-r2``, ... (``<name>`` is the file's folder) until
the deck holds N skills, with the frontmatter ``name:`` line rewritten to the new name.
Only ``SKILL.md`` files are copied (the collection holds nothing else). The copies keep
what real collections have and the generator lacks: long descriptions, ``/name``
mentions of skills that are not in the deck, several hosts' keys, YAML some parsers
reject, and families of skills with one description (here each description k times).

Layout under ``DEST`` (the same manifest as ``corpus.py``, so every benchmark reads it)::

    DEST/corpus.json                  the manifest
    DEST/project/.git/                makes ``project`` the project root
    DEST/project/.dsh/skills/<name>-rK/SKILL.md
    DEST/custom/skills/               empty (the custom root benchmarks pass)
    DEST/home/dsh/skills/, DEST/home/agents/skills/   empty user roots (never the real ones)

The deck is written to a cache folder (``benchmarks/corpus/``, git-ignored, or any
``DEST``) and never committed. Every file gets a fixed modification time.

Run ``python benchmarks/real_corpus.py DEST --n 1000``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import FIXED_MTIME, MANIFEST, Corpus, CorpusRoot, fix_mtimes, load, print_manifest

_REPO = Path(__file__).resolve().parents[1]
#: Where the collections are: ``$SKILLDECK_CORPORA``, else ``../shared/corpora`` beside the
#: clone (CI), else two levels up (a worktree under ``wt/``).
SOURCE = next(
    (
        path
        for path in (
            Path(os.environ.get("SKILLDECK_CORPORA", "/nonexistent")),
            _REPO.parent / "shared" / "corpora",
            _REPO.parent.parent / "shared" / "corpora",
        )
        if path.is_dir()
    ),
    _REPO.parent / "shared" / "corpora",
)
COLLECTION = "antigravity-awesome-skills/skills"
#: Bump when the written bytes change, so cached decks are rebuilt.
BUILDER_VERSION = 2
VARIANT = "real"
_NAME_LINE = re.compile(r"^name:.*$", re.MULTILINE)


def source_dir(corpora: str | os.PathLike[str] | None = None) -> Path:
    """The collection's ``skills`` folder (it may be absent: callers skip then)."""
    return Path(corpora or SOURCE) / COLLECTION


def source_files(skills: Path) -> list[Path]:
    """Every ``SKILL.md`` of the collection, in path order."""
    return sorted(skills.rglob("SKILL.md"))


def renamed(text: str, new_name: str) -> str:
    """``text`` with its frontmatter's top-level ``name:`` line saying ``new_name`` (a file
    without frontmatter or without the line is copied as it is)."""
    if not text.startswith("---"):
        return text
    end = text.find("\n---", 3)
    if end < 0:
        return text
    head, rest = text[:end], text[end:]
    head, count = _NAME_LINE.subn(f"name: {new_name}", head, count=1)
    return head + rest if count else text


def _fingerprint(files: Sequence[Path]) -> str:
    digest = hashlib.sha256()
    for path in files:
        digest.update(str(path).encode())
        digest.update(str(path.stat().st_size).encode())
    return digest.hexdigest()[:16]


def build(dest: str | os.PathLike[str], n: int, *, corpora: str | None = None) -> Corpus:
    """Write a fresh deck of ``n`` renamed copies into ``dest`` (emptied first)."""
    skills = source_dir(corpora)
    files = source_files(skills)
    if not files:
        raise FileNotFoundError(f"no SKILL.md files under {skills}")
    top = Path(dest).absolute()
    if top.exists():
        shutil.rmtree(top)
    root = top / "project" / ".dsh" / "skills"
    root.mkdir(parents=True)
    (top / "project" / ".git").mkdir()
    (top / "project" / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    empty = [top / "custom" / "skills", top / "home" / "dsh" / "skills"]
    empty.append(top / "home" / "agents" / "skills")
    for folder in empty:
        folder.mkdir(parents=True)
    texts = [path.read_text(encoding="utf-8", errors="surrogateescape") for path in files]
    written: list[str] = []
    total = 0
    probe = ""
    copy = 0
    while len(written) < n:
        copy += 1
        for source, text in zip(files, texts, strict=True):
            if len(written) == n:
                break
            name = f"{source.parent.name}-r{copy}"
            data = renamed(text, name).encode("utf-8", errors="surrogateescape")
            folder = root / name
            folder.mkdir()
            path = folder / "SKILL.md"
            path.write_bytes(data)
            written.append(str(path))
            total += len(data)
            if not probe and _probe_shape(data) and _has_findings(data, name):
                probe = str(path)
    fix_mtimes(top)
    corpus = Corpus(
        dest=str(top),
        n=n,
        seed=BUILDER_VERSION,
        variant=f"{VARIANT}:{_fingerprint(files)}",
        generator_version=BUILDER_VERSION,
        cwd=str(top / "project"),
        custom_dirs=(str(empty[0]),),
        env={
            "DSH_HOME": str(top / "home" / "dsh"),
            "DSH_AGENTS_HOME": str(top / "home" / "agents"),
        },
        roots=(
            CorpusRoot("project-dsh", str(root), n),
            CorpusRoot("custom", str(empty[0]), 0),
            CorpusRoot("user-dsh", str(empty[1]), 0),
            CorpusRoot("user-agents", str(empty[2]), 0),
        ),
        bundles=n,
        flat=0,
        resources=0,
        shadowed=0,
        same_root_duplicates=0,
        broken={},
        total_bytes=total,
        probe=probe or written[0],
        probe_flat=probe or written[0],
        skill_files=tuple(written),
    )
    (top / MANIFEST).write_text(json.dumps(corpus.to_json(), indent=1, ensure_ascii=False))
    os.utime(top / MANIFEST, (FIXED_MTIME, FIXED_MTIME))
    return corpus


def _has_findings(data: bytes, name: str) -> bool:
    """Whether the engine reports something on this file alone (the language-server
    benchmark waits for the probe's diagnostics, and a clean file is not published)."""
    from skilldeck.engine.files._skill_file import analyze_skill_bytes  # noqa: PLC0415

    return bool(analyze_skill_bytes(data, path=f"{name}/SKILL.md", expected_name=name).findings)


def _probe_shape(data: bytes) -> bool:
    """Whether the language-server benchmark can type in this file: plain ``name:`` and
    ``description:`` lines in the frontmatter and a ``#`` heading in the body."""
    lines = data.decode("utf-8", errors="replace").split("\n")
    if not lines or lines[0] != "---" or "---" not in lines[1:]:
        return False
    closing = lines.index("---", 1)
    head = lines[1:closing]
    return (
        any(line.startswith("name:") for line in head)
        and any(line.startswith("description: ") and len(line) > 14 for line in head)
        and any(line.startswith("#") for line in lines[closing + 1 :])
    )


def ensure(dest: str | os.PathLike[str], n: int, *, corpora: str | None = None) -> Corpus:
    """The deck in ``dest`` if it was built from the same collection, else a fresh one."""
    found = load(dest)
    files = source_files(source_dir(corpora))
    if (
        found is not None
        and found.n == n
        and found.generator_version == BUILDER_VERSION
        and found.variant == f"{VARIANT}:{_fingerprint(files)}"
        and found.dest == str(Path(dest).absolute())
    ):
        return found
    return build(dest, n, corpora=corpora)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: build a deck and print its manifest summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("dest", help="folder to (re)create")
    parser.add_argument("--n", type=int, default=1000, help="skills (default 1000)")
    parser.add_argument("--corpora", default=None, help=f"default {SOURCE}")
    args = parser.parse_args(argv)
    print_manifest(build(args.dest, args.n, corpora=args.corpora))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
