"""Recording: each batch of the matrix run through one pinned host release, offline, and
the listing it sent kept per case (``tests/hosts/observed/<host>-<version>.json``)."""

from __future__ import annotations

import datetime
import json
import os
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from host_lab.install import Lock, Pinned, host_argv, node_path
from host_lab.matrix import ROOT_CHARS, Batch, Matrix, build_tree, tree_root
from host_lab.observation import BatchListing, Entry, case_digest, split_listing
from skilldeck.observe.listing import read_listing
from skilldeck.observe.sandbox import PORT, run_in_sandbox
from skilldeck.observe.wiring import get_wiring

OBSERVED = Path(__file__).resolve().parents[2] / "tests" / "hosts" / "observed"
SANDBOX = (
    "unshare --user --map-root-user --net --mount --pid --fork --mount-proc (loopback only); "
    "HOME, TMPDIR and XDG folders per run; the environment built from scratch; a fake model "
    f"endpoint on 127.0.0.1:{PORT} records every request and answers 400"
)
ENDINGS = ("...", "\u2026")


class LabError(RuntimeError):
    """A host run that produced no listing."""


@dataclass(frozen=True)
class BatchRun:
    batch: Batch
    listing: BatchListing
    header: str
    footer: str
    seconds: float


def _entry_key(entry: Entry) -> tuple[str, str, str]:
    return (entry.name, entry.file or "", entry.description or "")


def record_path(pinned: Pinned) -> Path:
    return OBSERVED / f"{pinned.host}-{pinned.version}.json"


def run_batch(batch: Batch, pinned: Pinned, lock: Lock, workdir: Path, timeout: float) -> BatchRun:
    """One host run on one batch's tree (a fresh tree under ``workdir``)."""
    wiring = get_wiring(batch.host)
    root = tree_root(workdir, f"{batch.host[:6]}-{batch.id}")
    cwd = build_tree(root, batch)
    home = root / "home"
    project = root / "repo"
    tmp = workdir / f"tmp-{batch.host}-{batch.id}"
    tmp.mkdir()
    # A case may bring its own copy of a file the wiring writes (Gemini CLI's settings
    # with folder trust on): it is kept.
    wiring.write_files(home=str(home), project=str(project), port=PORT, keep_existing=True)
    path = os.pathsep.join([str(node_path(lock).parent), "/usr/local/bin", "/usr/bin", "/bin"])
    env = wiring.environment(
        home=str(home), tmp=str(tmp), path=path, project=str(project), port=PORT
    )
    env.update(batch.env)
    result = run_in_sandbox(
        [*host_argv(pinned), *wiring.args],
        cwd=str(cwd),
        env=env,
        marker=wiring.marker,
        workdir=workdir / f"run-{batch.host}-{batch.id}",
        timeout=timeout,
    )
    if not result.listing_seen:
        why = "timed out" if result.timed_out else f"exited {result.exit_code}"
        tail = result.output[-2000:]
        raise LabError(
            f"{batch.host} {pinned.version}, batch {batch.id}: no request held a skills "
            f"listing ({len(result.requests)} requests; the host {why}). Its output:\n{tail}"
        )
    listing = read_listing(result.requests[-1].body, wiring.fmt)
    split = split_listing(listing, batch, root)
    prefix = str(root)
    return BatchRun(
        batch,
        split,
        listing.header.replace(prefix, "{tree}"),
        listing.footer.replace(prefix, "{tree}"),
        result.seconds,
    )


def record_host(
    matrix: Matrix,
    pinned: Pinned,
    lock: Lock,
    *,
    only: tuple[str, ...] = (),
    jobs: int = 2,
    timeout: float = 180.0,
    command: str,
) -> tuple[dict[str, object], list[BatchRun]]:
    """Run every batch of ``pinned.host`` (``jobs`` at a time) and build its record."""
    batches = matrix.batches(pinned.host, only)
    with tempfile.TemporaryDirectory(prefix="hl-") as scratch:
        base = Path(scratch)
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            runs = list(pool.map(lambda b: run_batch(b, pinned, lock, base, timeout), batches))
    wiring = get_wiring(pinned.host)
    builtins = sorted({name for run in runs for name in run.listing.builtins})
    cases: dict[str, object] = {}
    batches_out: dict[str, object] = {}
    cuts: list[dict[str, object]] = []
    for run in runs:
        batch = run.batch
        order = run.listing.order if wiring.stable_order else sorted(run.listing.order)
        batches_out[batch.id] = {
            "cwd": batch.cwd,
            "cases": [case.id for case in batch.cases],
            "order": order,
            **({"roots": run.listing.roots} if run.listing.roots else {}),
        }
        for case in batch.cases:
            entries = run.listing.cases[case.id]
            if not wiring.stable_order:
                entries = sorted(entries, key=_entry_key)
            cases[case.id] = {
                "batch": batch.id,
                "digest": case_digest(case),
                "entries": [entry.to_json() for entry in entries],
            }
            for entry in entries:
                text = entry.description or ""
                if text.endswith(ENDINGS):
                    ending = next(e for e in ENDINGS if text.endswith(e))
                    cut = {"case": case.id, "chars": len(text), "ends": ending}
                    if cut not in cuts:
                        cuts.append(cut)
    first = runs[0] if runs else None
    record: dict[str, object] = {
        "host": pinned.host,
        "label": wiring.label,
        "package": pinned.package,
        "version": pinned.version,
        "recorded": datetime.date.today().isoformat(),
        "command": command,
        "sandbox": SANDBOX,
        "run": " ".join([*pinned.command, *wiring.args]),
        "tree_root_chars": ROOT_CHARS,
        # False: the host's order changes from run to run; entries are kept sorted.
        "stable_order": wiring.stable_order,
        "matrix": matrix.digest,
        "format": {
            "header": first.header if first else "",
            "footer": first.footer if first else "",
            "listing": wiring.fmt,
            "cut": cuts,
        },
        "builtins": {"count": len(builtins), "names": builtins},
        "batches": batches_out,
        "cases": cases,
    }
    return record, runs


def merge(old: dict[str, object] | None, new: dict[str, object]) -> dict[str, object]:
    """``new`` over ``old`` case by case (a partial re-record keeps the other cases)."""
    if old is None or old.get("version") != new.get("version"):
        return new
    merged = dict(new)
    old_cases, new_cases = old.get("cases", {}), new["cases"]
    old_batches, new_batches = old.get("batches", {}), new["batches"]
    assert isinstance(old_cases, dict) and isinstance(new_cases, dict)
    assert isinstance(old_batches, dict) and isinstance(new_batches, dict)
    merged["cases"] = dict(sorted({**old_cases, **new_cases}.items()))
    # The re-recorded cases leave the batches they were recorded in before.
    kept: dict[str, object] = {}
    for batch_id, batch in old_batches.items():
        cases = [c for c in batch["cases"] if c not in new_cases]
        if cases:
            order = [o for o in batch["order"] if o.split(":", 1)[0] not in new_cases]
            kept[batch_id] = {**batch, "cases": cases, "order": order}
    merged["batches"] = dict(sorted({**kept, **new_batches}.items()))
    # The format facts of the full run stay; the cuts of the re-recorded cases are new.
    old_format, new_format = old.get("format"), new.get("format")
    if isinstance(old_format, dict) and isinstance(new_format, dict):
        cuts = [c for c in old_format.get("cut", []) if c["case"] not in new_cases]
        merged["format"] = {**old_format, "cut": cuts + list(new_format.get("cut", []))}
    builtins = sorted({*_names(old.get("builtins")), *_names(new.get("builtins"))})
    merged["builtins"] = {"count": len(builtins), "names": builtins}
    return merged


def _names(builtins: object) -> list[str]:
    names = builtins.get("names", []) if isinstance(builtins, dict) else []
    return [str(name) for name in names]


def write_record(path: Path, record: dict[str, object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", "utf-8")
