"""Routing overlap (issue #21): quality on labelled pairs, and speed on a generated deck.

Quality: ``benchmarks/overlap_labels.json`` holds hand-labelled pairs of real skills
(overlapping / distinct, each with its reason; every pair labelled by four annotators,
or three for the ``index5`` pairs). The gold label is the pairs' ``consensus`` (the
majority; two-against-two ties are left out) or, with ``--gold first``, the first label
each pair got. Every skill of the file forms one deck (the index weighs words by that
deck); the pairs are split in two halves (alternating, in file order, per label), the
threshold is tuned for F1 on the first half, and precision and recall are reported on
the other half (then the other way round). One split of ~100 pairs is noisy, so the same
is done on ``--splits`` random halves (stratified, seeded) and the median and the
10th-90th percentiles of the held-out figures are printed too. A plain TF-IDF cosine over
descriptions is measured the same way for comparison.

What a user is shown: the same deck through the families and the bound on pairs per
skill (:func:`bounded`): how many of the labelled pairs that score at least the default
threshold ``skilldeck overlap`` still lists and ``check`` still tells.

Speed: on a corpus of ``--n`` generated skills (``corpus.py``) the whole-deck pass (index
build plus every pair above the default threshold) in a fresh process, then in the same
process the families pass ``check`` runs (:class:`OverlapFamilies`: families, and each
family's strongest competitors listed), the update of one
edited skill (compare against the index, then replace it) over ``--edits`` edits, and the
index's memory (tracemalloc).

Run ``python benchmarks/bench_overlap.py [--n 10000] [--edits 200] [--skip-speed]
[--labels FILE] [--gold consensus|first] [--splits N] [--only PICKED] [--without PICKED]``
(``--only index5``: the freshest pairs alone; the deck is still every skill of the file).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "server"))
sys.path.insert(0, str(HERE))

from corpus import ensure  # noqa: E402
from skilldeck.engine.config._rule_settings import DEFAULT_OVERLAP_THRESHOLD  # noqa: E402
from skilldeck.engine.config._skilldeck_config import SkilldeckConfig  # noqa: E402
from skilldeck.engine.filesystem._fs_provider import scan_deck  # noqa: E402
from skilldeck.engine.overlap._deck_overlap import MAX_FINDINGS_PER_SKILL  # noqa: E402
from skilldeck.engine.overlap._families import MAX_PAIRS_PER_SKILL, OverlapFamilies  # noqa: E402
from skilldeck.engine.overlap._index import OverlapIndex, OverlapSkill  # noqa: E402

LABELS = HERE / "overlap_labels.json"
Scorer = Callable[[Sequence[OverlapSkill]], Callable[[OverlapSkill, OverlapSkill], float]]


def _skills(pairs: list[dict[str, object]]) -> dict[str, OverlapSkill]:
    skills: dict[str, OverlapSkill] = {}
    for pair in pairs:
        for side in ("a", "b"):
            item = pair[side]
            assert isinstance(item, dict)
            key = str(item["source"])
            skills[key] = OverlapSkill(key, str(item["name"]), str(item["description"]))
    return skills


def index_scorer(skills: Sequence[OverlapSkill]) -> Callable[[OverlapSkill, OverlapSkill], float]:
    """Scores of skilldeck's index (built with threshold 0: every pair is found)."""
    index = OverlapIndex(skills, threshold=0.0)
    scores = {(p.a.key, p.b.key): p.score for p in index.pairs(0.0)}
    return lambda a, b: scores.get((min(a.key, b.key), max(a.key, b.key)), 0.0)


def plain_tfidf_scorer(
    skills: Sequence[OverlapSkill],
) -> Callable[[OverlapSkill, OverlapSkill], float]:
    """The baseline: lower-cased words of the description, TF-IDF, cosine."""
    word = re.compile(r"\w+")
    docs = {s.key: word.findall(s.description.lower()) for s in skills}
    df: dict[str, int] = {}
    for words in docs.values():
        for w in set(words):
            df[w] = df.get(w, 0) + 1
    n = len(docs)
    vectors: dict[str, dict[str, float]] = {}
    for key, words in docs.items():
        counts: dict[str, int] = {}
        for w in words:
            counts[w] = counts.get(w, 0) + 1
        vec = {
            w: (1 + math.log(c)) * (math.log((1 + n) / (1 + df[w])) + 1) for w, c in counts.items()
        }
        norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
        vectors[key] = {w: v / norm for w, v in vec.items()}

    def score(a: OverlapSkill, b: OverlapSkill) -> float:
        va, vb = vectors[a.key], vectors[b.key]
        return sum(w * vb.get(f, 0.0) for f, w in va.items())

    return score


def _metrics(scored: list[tuple[float, bool]], threshold: float) -> tuple[float, float, float]:
    tp = sum(1 for s, y in scored if s >= threshold and y)
    fp = sum(1 for s, y in scored if s >= threshold and not y)
    fn = sum(1 for s, y in scored if s < threshold and y)
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def _auc(scored: list[tuple[float, bool]]) -> float:
    """How well the scores rank, whatever the threshold: the chance that an overlapping
    pair scores above a distinct one (ties count half; ROC AUC)."""
    positive = [s for s, y in scored if y]
    negative = [s for s, y in scored if not y]
    wins = sum((p > n) + 0.5 * (p == n) for p in positive for n in negative)
    return wins / (len(positive) * len(negative)) if positive and negative else 1.0


def _tune(scored: list[tuple[float, bool]]) -> float:
    """The threshold with the best F1 on ``scored``: the middle of the best interval
    between two observed scores (a threshold just above a score is as arbitrary as one
    just below the next)."""
    values = sorted({round(s, 3) for s, _ in scored if s > 0})
    best = max(_metrics(scored, t)[2] for t in values)
    cuts = [t for t in values if _metrics(scored, t)[2] == best]
    low = cuts[0]
    below = [v for v in values if v < low]
    lower = below[-1] if below else 0.0
    return round((lower + low) / 2, 3) if below else low


def _random_halves(
    scored: list[tuple[float, bool]], splits: int, seed: int = 21
) -> dict[str, float]:
    """Held-out precision and recall over ``splits`` random halves (stratified by label):
    each half tunes the threshold for the other. Median and 10th / 90th percentiles, and
    the share of held-out halves where both reach 0.8."""
    rng = random.Random(seed)
    positive = [row for row in scored if row[1]]
    negative = [row for row in scored if not row[1]]
    precisions: list[float] = []
    recalls: list[float] = []
    for _ in range(splits):
        halves: list[list[tuple[float, bool]]] = [[], []]
        for group in (positive, negative):
            shuffled = rng.sample(group, len(group))
            cut = len(shuffled) // 2 + rng.randint(0, len(shuffled) % 2)
            halves[0].extend(shuffled[:cut])
            halves[1].extend(shuffled[cut:])
        for tune, test in ((0, 1), (1, 0)):
            p, r, _ = _metrics(halves[test], _tune(halves[tune]))
            precisions.append(p)
            recalls.append(r)

    def pct(values: list[float], q: float) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    both = sum(p >= 0.8 and r >= 0.8 for p, r in zip(precisions, recalls, strict=True))
    return {
        "precision": statistics.median(precisions),
        "precision_p10": pct(precisions, 0.1),
        "precision_p90": pct(precisions, 0.9),
        "recall": statistics.median(recalls),
        "recall_p10": pct(recalls, 0.1),
        "recall_p90": pct(recalls, 0.9),
        "both_0_8": both / len(precisions),
    }


def gold_label(pair: dict[str, object], gold: str) -> bool | None:
    """Whether ``pair`` overlaps by the ``gold`` labels (``None``: a consensus tie)."""
    if gold == "first":
        return pair["label"] == "overlapping"
    consensus = pair.get("consensus", pair["label"])
    return None if consensus == "tie" else consensus == "overlapping"


def quality(
    scorer: Scorer,
    name: str,
    labels: Path = LABELS,
    only: frozenset[str] = frozenset(),
    without: frozenset[str] = frozenset(),
    gold: str = "consensus",
    splits: int = 0,
) -> dict[str, object]:
    """Precision and recall of ``scorer`` on the labelled pairs (every skill of the file
    forms the deck; only the pairs ``picked`` as one of ``only``, when given, and none
    of ``without`` are measured; ``gold`` says which labels count)."""
    data = json.loads(labels.read_text(encoding="utf-8"))
    pairs = data["pairs"]
    skills = _skills(pairs)
    score = scorer(list(skills.values()))
    rows: list[tuple[float, bool, dict[str, object]]] = []
    for pair in pairs:
        if (only and pair["picked"] not in only) or pair["picked"] in without:
            continue
        label = gold_label(pair, gold)
        if label is None:
            continue
        a, b = skills[pair["a"]["source"]], skills[pair["b"]["source"]]
        rows.append((score(a, b), label, pair))
    halves: list[list[tuple[float, bool]]] = [[], []]
    seen = {True: 0, False: 0}
    for s, y, _pair in rows:
        halves[seen[y] % 2].append((s, y))
        seen[y] += 1
    result: dict[str, object] = {
        "scorer": name,
        "pairs": len(rows),
        "overlapping": sum(1 for _s, y, _p in rows if y),
        "gold": gold,
        "folds": [],
    }
    for tune, test in ((0, 1), (1, 0)):
        threshold = _tune(halves[tune])
        p, r, f1 = _metrics(halves[test], threshold)
        result["folds"].append(  # type: ignore[attr-defined]
            {
                "threshold": threshold,
                "precision": round(p, 3),
                "recall": round(r, 3),
                "f1": round(f1, 3),
            }
        )
    all_scored = [(s, y) for s, y, _ in rows]
    result["auc"] = [round(_auc(half), 3) for half in halves] + [round(_auc(all_scored), 3)]
    if splits:
        result["random_halves"] = _random_halves(all_scored, splits) | {"splits": splits}
    return result | {"rows": rows, "all": all_scored}


def _print_quality(result: dict[str, object], default: float | None) -> None:
    print(
        f"\n{result['scorer']}: {result['pairs']} labelled pairs, {result['overlapping']} "
        f"overlapping ({result['gold']} labels)"
    )
    for i, fold in enumerate(result["folds"]):  # type: ignore[attr-defined]
        print(
            f"  tuned on half {i + 1}, tested on half {2 - i}: threshold {fold['threshold']:.3f}  "
            f"precision {fold['precision']:.2f}  recall {fold['recall']:.2f}  F1 {fold['f1']:.2f}"
        )
    halves = result.get("random_halves")
    if isinstance(halves, dict):
        print(
            f"  {halves['splits']} random halves, held out: precision {halves['precision']:.2f} "
            f"({halves['precision_p10']:.2f}-{halves['precision_p90']:.2f})  recall "
            f"{halves['recall']:.2f} ({halves['recall_p10']:.2f}-{halves['recall_p90']:.2f})  "
            f"both >= 0.8 in {halves['both_0_8']:.0%} of halves (median, 10th-90th percentile)"
        )
    auc = result["auc"]
    print(f"  ranking (ROC AUC): half 1 {auc[0]:.3f}  half 2 {auc[1]:.3f}  all {auc[2]:.3f}")  # type: ignore[index]
    if default is not None:
        p, r, f1 = _metrics(result["all"], default)  # type: ignore[arg-type]
        print(
            f"  default threshold {default}: all pairs precision {p:.2f} recall {r:.2f} F1 {f1:.2f}"
        )
        for s, y, pair in result["rows"]:  # type: ignore[attr-defined]
            if (s >= default) != y:
                kind = "missed" if y else "false alarm"
                names = f"{pair['a']['name']} / {pair['b']['name']}"
                print(f"    {kind:11} {s:.3f}  {names}: {pair['reason']}")


def bounded(
    labels: Path = LABELS,
    only: frozenset[str] = frozenset(),
    without: frozenset[str] = frozenset(),
    gold: str = "consensus",
) -> dict[str, object]:
    """What the bound on pairs per skill and the families keep of the labelled pairs: the
    deck of every skill of the file through :class:`OverlapFamilies` at the default
    threshold. A pair is *listed* (``skilldeck overlap``) when its skills are one family
    or their families' pair is among either family's :data:`MAX_PAIRS_PER_SKILL`
    strongest competitors (a family's pair names one of its members); *told* (the
    findings of ``check``) when one family or among either file's nearest competitors
    (the family taking one of :data:`MAX_FINDINGS_PER_SKILL` places). Counted over the
    labelled pairs that score at least the threshold (the index alone), and against the
    labels (precision and recall of what is listed)."""
    data = json.loads(labels.read_text(encoding="utf-8"))
    skills = _skills(data["pairs"])
    families = OverlapFamilies(list(skills.values()))
    index = OverlapIndex(list(skills.values()))
    scores = {(p.a.key, p.b.key): p.score for p in index.pairs()}
    listed: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
    for p in families.pairs():
        listed.add((families.family(p.a.key).members, families.family(p.b.key).members))
        listed.add((families.family(p.b.key).members, families.family(p.a.key).members))
    told: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
    for key in skills:
        room = MAX_FINDINGS_PER_SKILL - (len(families.family(key).members) > 1)
        for pair in families.competitors(key)[:room]:
            told.add(
                (
                    families.family(key).members,
                    families.family(families.rival(key, pair).key).members,
                )
            )
    counts = {"scored": 0, "listed": 0, "told": 0, "scored_true": 0, "listed_true": 0}
    counts |= {"told_true": 0, "true": 0, "listed_all": 0}
    for pair in data["pairs"]:
        if (only and pair["picked"] not in only) or pair["picked"] in without:
            continue
        label = gold_label(pair, gold)
        if label is None:
            continue
        a, b = sorted((str(pair["a"]["source"]), str(pair["b"]["source"])))
        fa, fb = families.family(a).members, families.family(b).members
        one_family = fa == fb and len(fa) > 1
        # Kept when the two families are (a family's pair names one of its members).
        is_listed = one_family or (fa, fb) in listed
        is_told = one_family or (fa, fb) in told or (fb, fa) in told
        counts["true"] += label
        counts["listed_all"] += is_listed
        if scores.get((a, b), 0.0) >= DEFAULT_OVERLAP_THRESHOLD:
            counts["scored"] += 1
            counts["listed"] += is_listed
            counts["told"] += is_told
            counts["scored_true"] += label
            counts["listed_true"] += label and is_listed
            counts["told_true"] += label and is_told
    listed_true = counts["listed_true"]
    return counts | {
        "precision": round(listed_true / max(counts["listed_all"], 1), 3),
        "recall": round(listed_true / max(counts["true"], 1), 3),
        "families": len(families.families()),
    }


def _print_bounded(result: dict[str, object]) -> None:
    print(
        f"\nthrough the families and the bound ({MAX_PAIRS_PER_SKILL} pairs per skill listed, "
        f"{MAX_FINDINGS_PER_SKILL} findings per file), default threshold "
        f"{DEFAULT_OVERLAP_THRESHOLD}: {result['families']} families in the deck"
    )
    print(
        f"  labelled pairs scoring >= threshold: {result['scored']} "
        f"({result['scored_true']} overlapping); listed by `overlap`: {result['listed']} "
        f"({result['listed_true']} overlapping); told in findings: {result['told']} "
        f"({result['told_true']} overlapping)"
    )
    print(
        f"  what `overlap` lists, against the labels: precision {result['precision']:.2f} "
        f"recall {result['recall']:.2f}"
    )


# --------------------------------------------------------------------------- speed


def _corpus_skills(dest: Path, n: int) -> list[OverlapSkill]:
    corpus = ensure(dest, n)
    config = SkilldeckConfig(
        custom_skill_dirs=corpus.custom_dirs,
        dsh_home=corpus.env["DSH_HOME"],
        agents_home=corpus.env["DSH_AGENTS_HOME"],
    )
    deck = scan_deck(config, corpus.cwd)
    return [
        OverlapSkill(
            e.path, e.analysis.name or "", e.analysis.description or "", e.analysis.when_to_use
        )
        for e in deck.entries()
        if e.analysis.accepted
    ]


def speed(dest: Path, n: int, edits: int) -> dict[str, object]:
    skills = _corpus_skills(dest, n)
    # The whole-deck pass, cold: a fresh interpreter that imports the engine's overlap
    # module, builds the index and lists every pair above the default threshold.
    dump = dest / "overlap-skills.json"
    dump.write_text(json.dumps([[s.key, s.name, s.description, s.when_to_use] for s in skills]))
    cold = subprocess.run(
        [sys.executable, "-c", _COLD_PASS, str(dump)],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(HERE.parent / "server")},
    )
    cold_result = json.loads(cold.stdout)
    tracemalloc.start()
    index = OverlapIndex(skills)
    current, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    samples: list[float] = []
    for i in range(edits):
        skill = skills[(i * 7919) % len(skills)]
        edited = OverlapSkill(
            skill.key, skill.name, skill.description + " x" * (i % 3), skill.when_to_use
        )
        start = time.perf_counter()
        index.pairs_of(edited)
        index.replace(edited)
        samples.append(time.perf_counter() - start)
    samples.sort()
    return {
        "skills": len(skills),
        "pass_cold_s": cold_result["seconds"],
        "pass_import_s": cold_result["import_seconds"],
        "pairs": cold_result["pairs"],
        # What check and the editor use: families and each family's strongest competitors.
        "families_pass_s": cold_result["families_seconds"],
        "families": cold_result["families"],
        "families_pairs_listed": cold_result["families_pairs_listed"],
        "edit_p50_ms": round(statistics.median(samples) * 1000, 2),
        "edit_p95_ms": round(samples[int(len(samples) * 0.95) - 1] * 1000, 2),
        "index_mb": round(current / 1e6, 1),
    }


#: The whole-deck pass in a fresh interpreter: import, build the index, list every pair.
_COLD_PASS = """
import json, sys, time
start = time.perf_counter()
from skilldeck.engine.overlap import _index as overlap
imported = time.perf_counter()
rows = json.loads(open(sys.argv[1]).read())
skills = [overlap.OverlapSkill(*row) for row in rows]
begin = time.perf_counter()
pairs = overlap.OverlapIndex(skills).pairs()
end = time.perf_counter()
from skilldeck.engine.overlap._families import OverlapFamilies
families = OverlapFamilies(skills)
listed = families.pairs()
done = time.perf_counter()
print(json.dumps({
    "seconds": round(end - begin + imported - start, 3),
    "import_seconds": round(imported - start, 3),
    "pairs": len(pairs),
    "families_seconds": round(done - end, 3),
    "families": len(families.families()),
    "families_pairs_listed": len(listed),
}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--edits", type=int, default=200)
    parser.add_argument("--corpus-dir", default=str(HERE / "corpus"))
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--labels", type=Path, default=LABELS, help="labelled pairs (JSON)")
    parser.add_argument(
        "--only", default="", help="measure only pairs picked so (comma-separated: index3)"
    )
    parser.add_argument("--without", default="", help="leave out pairs picked so (index3)")
    parser.add_argument(
        "--gold",
        choices=("consensus", "first"),
        default="consensus",
        help="the labels that count: the majority of all annotators, or each pair's first",
    )
    parser.add_argument(
        "--splits", type=int, default=200, help="random halves for the spread (0: none)"
    )
    args = parser.parse_args()
    only = frozenset(filter(None, args.only.split(",")))
    without = frozenset(filter(None, args.without.split(",")))
    index_result = quality(
        index_scorer,
        "skilldeck overlap index",
        args.labels,
        only,
        without,
        args.gold,
        args.splits,
    )
    _print_quality(index_result, DEFAULT_OVERLAP_THRESHOLD)
    _print_bounded(bounded(args.labels, only, without, args.gold))
    baseline = quality(
        plain_tfidf_scorer,
        "plain TF-IDF cosine over descriptions",
        args.labels,
        only,
        without,
        args.gold,
        args.splits,
    )
    _print_quality(baseline, None)
    if not args.skip_speed:
        dest = Path(args.corpus_dir) / f"overlap-{args.n}"
        os.makedirs(dest.parent, exist_ok=True)
        print(json.dumps(speed(dest, args.n, args.edits), indent=1))


if __name__ == "__main__":
    main()
