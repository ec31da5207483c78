"""skilldeck's per-host view held to what the hosts' released binaries listed.

The host lab (``scripts/host-lab``, ``tools/host_lab/``) ran each pinned release
(``tools/host_lab/lock.toml``) offline on the trees of the case matrix (``cases.toml``)
and kept what it listed per case in ``observed/<host>-<version>.json``. Here each case is
rebuilt on real files and the engine's view (``host_views.build_view`` /
``host_listing``: what ``list --host`` and ``catalog --host`` print) must list the same
entries: names, descriptions as sent, paths as shown, order. No host binary is needed.

Where skilldeck does not model a host's behaviour yet, the difference is declared in
``known_differences.toml`` (host, case, kind, reason): such a test is a strict xfail, so a
difference that gets modelled shows as an unexpected pass; a difference not declared, or a
declared one that changed kind, fails.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from host_lab.compare import Known, compare_case, declared, read_known
from host_lab.install import read_lock
from host_lab.matrix import Batch, load_matrix, recorded_batches
from host_lab.model import predict
from host_lab.observation import Entry, case_digest, read_record
from host_lab.record import record_path

MATRIX = load_matrix()
LOCK = read_lock()
KNOWN = read_known()
RECORDS = {
    host: read_record(record_path(pinned))
    for host, pinned in LOCK.hosts.items()
    if record_path(pinned).exists()
}
BATCHES: dict[tuple[str, str], Batch] = {
    (host, case.id): batch
    for host, record in RECORDS.items()
    for batch in recorded_batches(record, MATRIX)
    for case in batch.cases
}


class KnownDifference(AssertionError):
    """The case differs exactly as ``known_differences.toml`` declares."""


def _params() -> list[object]:
    params: list[object] = []
    for host, record in RECORDS.items():
        cases = record["cases"]
        assert isinstance(cases, dict)
        for case in cases:
            exact, _every = declared(KNOWN, host, case)
            reason = (
                f"known difference ({', '.join(sorted(exact))}); an unexpected pass means it "
                "was modelled: delete it from known_differences.toml"
            )
            strict = pytest.mark.xfail(strict=True, raises=KnownDifference, reason=reason)
            marks = [strict] if exact else []
            params.append(pytest.param(host, case, marks=marks, id=f"{host}-{case}"))
    return params


@functools.cache
def _predicted(host: str, batch_id: str, base: str) -> dict[str, list[Entry]]:
    batch = next(b for (h, _c), b in BATCHES.items() if h == host and b.id == batch_id)
    return predict(batch, Path(base))


@pytest.fixture(scope="session")
def model_base(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("hl"))


def _lines(entries: list[Entry]) -> str:
    return "\n".join(f"    {entry.line}" for entry in entries) or "    (nothing listed)"


def test_every_host_of_the_lock_has_a_record() -> None:
    assert sorted(RECORDS) == sorted(LOCK.hosts)


@pytest.mark.parametrize(("host", "case"), _params())
def test_skilldeck_lists_what_the_host_listed(host: str, case: str, model_base: str) -> None:
    record = RECORDS[host]
    cases = record["cases"]
    assert isinstance(cases, dict)
    assert case in MATRIX.by_id, f"{case} is recorded but no longer in cases.toml: re-record"
    assert cases[case]["digest"] == case_digest(MATRIX.by_id[case]), (
        f"{case} changed in cases.toml since {host} {record['version']} was recorded: "
        f"run scripts/host-lab record --host {host} --case {case}"
    )
    observed = [Entry.from_json(e) for e in cases[case]["entries"]]
    batch = BATCHES[host, case]
    predicted = _predicted(host, batch.id, model_base)[case]
    found = compare_case(record, MATRIX.by_id[case], observed, predicted)
    exact, every = declared(KNOWN, host, case)
    kinds = {d.kind for d in found}
    undeclared = [d for d in found if d.kind not in exact | every]
    gone = exact - kinds
    message = (
        f"{host} {record['version']}, case {case} ({MATRIX.by_id[case].about}):\n"
        + "".join(f"  {d.one_line()}\n" for d in found)
        + f"  the host listed:\n{_lines(observed)}\n  skilldeck says:\n{_lines(predicted)}"
    )
    if undeclared:
        pytest.fail("not declared in known_differences.toml: " + message, pytrace=False)
    if gone and kinds - every:
        pytest.fail(
            f"declared {sorted(gone)} no longer differ (delete them from "
            "known_differences.toml); still: " + message,
            pytrace=False,
        )
    if exact and not gone:
        raise KnownDifference(message)


def test_each_declared_difference_names_a_recorded_case() -> None:
    stale = [
        (k.host, k.case, k.kind)
        for k in KNOWN
        if k.host not in RECORDS or (k.case != "*" and k.case not in RECORDS[k.host]["cases"])  # type: ignore[operator]
    ]
    assert stale == []


@pytest.mark.parametrize(
    "known",
    [k for k in KNOWN if k.case == "*"],
    ids=lambda k: f"{k.host}-{k.kind}",
)
def test_a_difference_declared_for_every_case_still_shows(known: Known, model_base: str) -> None:
    """A ``case = "*"`` entry (a format every entry shows) is not strict per case: it
    must still show on some case, or it is stale."""
    record = RECORDS[known.host]
    cases = record["cases"]
    assert isinstance(cases, dict)
    for (host, case), batch in BATCHES.items():
        if host != known.host:
            continue
        observed = [Entry.from_json(e) for e in cases[case]["entries"]]
        predicted = _predicted(host, batch.id, model_base)[case]
        found = compare_case(record, MATRIX.by_id[case], observed, predicted)
        if any(d.kind == known.kind for d in found):
            return
    pytest.fail(
        f"no case of {known.host} differs in {known.kind} any more: delete the "
        f'case = "*" entry from known_differences.toml',
        pytrace=False,
    )
