"""``scripts/host-lab``: install the pinned hosts, record what they list for the case
matrix, and print the differences from the stored record and from skilldeck's model.

    scripts/host-lab [record] [--host H]... [--case C]... [--jobs N]
        re-record (all hosts, or some; all cases, or some: the other cases of the stored
        record are kept), write tests/hosts/observed/<host>-<version>.json, print what
        changed against the stored record and against skilldeck's model
    scripts/host-lab verify [--host H]... [--case C]...
        the same without writing: exit 1 if the hosts now list anything else
    scripts/host-lab compare [--host H]...
        no host run: the stored records against skilldeck's model (agree N / M cases)
    scripts/host-lab known
        rewrite the per-case entries of tests/hosts/known_differences.toml from the
        records (reasons already written are kept; new ones say "not yet modelled")
    scripts/host-lab install [--host H]...
        only install the pinned releases (into ~/.cache/skilldeck/host-lab)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from host_lab.compare import (
    KNOWN,
    NOT_MODELLED,
    Known,
    compare_case,
    declared,
    read_known,
    write_known,
)
from host_lab.install import install_host, install_node, read_lock
from host_lab.matrix import Matrix, load_matrix, recorded_batches
from host_lab.model import predict
from host_lab.observation import Entry, read_record
from host_lab.record import LabError, merge, record_host, record_path, write_record


def _entries(record: dict[str, object], case: str) -> list[Entry]:
    cases = record["cases"]
    assert isinstance(cases, dict)
    return [Entry.from_json(e) for e in cases[case]["entries"]]


def model_differences(
    record: dict[str, object], matrix: Matrix, only: tuple[str, ...] = ()
) -> dict[str, list[tuple[str, str, str]]]:
    """case -> [(kind, observed, skilldeck)] between a record and skilldeck's model."""
    out: dict[str, list[tuple[str, str, str]]] = {}
    with tempfile.TemporaryDirectory(prefix="hlm-") as scratch:
        for batch in recorded_batches(record, matrix):
            if only and not any(c.id in only for c in batch.cases):
                continue
            predicted = predict(batch, Path(scratch))
            for case in batch.cases:
                found = compare_case(record, case, _entries(record, case.id), predicted[case.id])
                out[case.id] = [(d.kind, d.observed, d.skilldeck) for d in found]
    return out


def _print_model(host: str, record: dict[str, object], matrix: Matrix) -> None:
    differences = model_differences(record, matrix)
    known = read_known()
    agree = sum(1 for found in differences.values() if not found)
    loads = sum(
        1 for found in differences.values() if all(k in ("path", "line") for k, _, _ in found)
    )
    print(
        f"{host} {record['version']}: skilldeck agrees on {agree} / {len(differences)} cases "
        f"({loads} / {len(differences)} on what is listed, its text, the winner and the "
        "order, leaving out the entry's path and format)"
    )
    for case, found in differences.items():
        exact, every = declared(known, host, case)
        for kind, observed, skilldeck in found:
            mark = "known" if kind in exact or kind in every else "NEW"
            print(f"  {mark:5} {case} {kind}: observed {observed} / skilldeck {skilldeck}")
        for kind in sorted(exact - {kind for kind, _, _ in found}):
            print(f"  FIXED {case} {kind}: declared in {KNOWN.name} but gone")


def _print_changes(old: dict[str, object] | None, new: dict[str, object], matrix: Matrix) -> int:
    """Print what changed between the stored record and the new one; returns the count."""
    host = new["host"]
    if old is None:
        print(f"{host}: no stored record of {new['version']}")
        return 0
    changes = 0
    for key in ("format", "builtins"):
        if old.get(key) != new.get(key):
            print(f"  changed {key}: {old.get(key)!r:.200} -> {new.get(key)!r:.200}")
            changes += 1
    new_cases = new["cases"]
    old_cases = old.get("cases", {})
    assert isinstance(new_cases, dict) and isinstance(old_cases, dict)
    for case in new_cases:
        if case not in old_cases:
            print(f"  new case {case}")
            continue
        found = compare_case(new, matrix.by_id[case], _entries(old, case), _entries(new, case))
        for difference in found:
            stored, now = difference.observed, difference.skilldeck
            print(f"  changed {case} {difference.kind}: stored {stored} / now {now}")
            changes += 1
    print(f"{host} {new['version']}: {changes} change(s) against the stored record")
    return changes


def _hosts(lock_hosts: list[str], chosen: list[str] | None) -> list[str]:
    if not chosen:
        return lock_hosts
    unknown = [h for h in chosen if h not in lock_hosts]
    if unknown:
        raise SystemExit(f"host-lab: unknown host(s) {unknown}; the lock has {lock_hosts}")
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="scripts/host-lab",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "action",
        nargs="?",
        default="record",
        choices=["record", "verify", "compare", "known", "install"],
    )
    parser.add_argument("--host", action="append", help="a host (repeatable); default all")
    parser.add_argument("--case", action="append", default=[], help="a case id (repeatable)")
    parser.add_argument("--jobs", type=int, default=2, help="host runs at a time (default 2)")
    parser.add_argument(
        "--timeout",
        type=float,
        default=180.0,
        help="seconds a host may take to send its listing (default 180)",
    )
    args = parser.parse_args(argv)
    lock = read_lock()
    hosts = _hosts(list(lock.hosts), args.host)
    matrix = load_matrix()
    unknown_cases = [c for c in args.case if c not in matrix.by_id]
    if unknown_cases:
        raise SystemExit(f"host-lab: unknown case(s) {unknown_cases}")
    only = tuple(args.case)

    if args.action == "compare":
        for host in hosts:
            path = record_path(lock.hosts[host])
            if not path.exists():
                print(f"{host}: no record at {path}")
                continue
            _print_model(host, read_record(path), matrix)
        return 0

    if args.action == "known":
        known = read_known()
        keep = [k for k in known if k.case == "*"]
        reasons = {(k.host, k.case, k.kind): k.reason for k in known}
        for host in lock.hosts:
            path = record_path(lock.hosts[host])
            if not path.exists():
                continue
            record = read_record(path)
            _exact, every = declared(known, host, "")
            for case, found in model_differences(record, matrix).items():
                for kind, observed, skilldeck in found:
                    if kind in every:
                        continue
                    reason = reasons.get((host, case, kind), NOT_MODELLED)
                    keep.append(Known(host, case, kind, observed, skilldeck, reason))
        write_known(KNOWN, keep)
        print(f"wrote {KNOWN} ({len(keep)} entries)")
        return 0

    started = time.monotonic()
    seconds = install_node(lock)
    label = f"installed in {seconds:.1f} s" if seconds else "cached"
    print(f"node {lock.node_version}: {label}")
    for host in hosts:
        seconds = install_host(lock.hosts[host])
        label = f"installed in {seconds:.1f} s" if seconds else "cached"
        print(f"{host} {lock.hosts[host].version}: {label}")
    if args.action == "install":
        return 0

    status = 0
    for host in hosts:
        pinned = lock.hosts[host]
        command = "scripts/host-lab record --host " + host
        host_started = time.monotonic()
        try:
            record, runs = record_host(
                matrix,
                pinned,
                lock,
                only=only,
                jobs=args.jobs,
                timeout=args.timeout,
                command=command,
            )
        except LabError as error:
            print(f"host-lab: {error}", file=sys.stderr)
            status = 1
            continue
        took = time.monotonic() - host_started
        runs_s = ", ".join(f"{r.batch.id} {r.seconds:.1f}s" for r in runs)
        print(f"{host} {pinned.version}: {len(runs)} runs in {took:.1f} s ({runs_s})")
        path = record_path(pinned)
        old = read_record(path) if path.exists() else None
        changes = _print_changes(old, record, matrix)
        if args.action == "verify":
            status = status or (1 if changes else 0)
            continue
        merged = merge(old, record) if only else record
        write_record(path, merged)
        print(f"wrote {path}")
        _print_model(host, merged, matrix)
    print(f"host lab: {time.monotonic() - started:.1f} s in all")
    return status


if __name__ == "__main__":
    sys.exit(main())
