"""Routing overlap (issue #21): would a semantic score help? An evaluation, not a backend.

Scores the labelled pairs of ``benchmarks/overlap_labels.json`` with the cosine of
WordLlama embeddings (PyPI ``wordllama``, whose wheel holds its default model,
``l2_supercat`` at 256 dimensions, and its tokenizer) and with combinations of that
cosine and skilldeck's lexical index, by ``bench_overlap.py``'s protocol: one deck of
every skill of the file, the pairs split in two halves, the threshold tuned on one half
and precision / recall reported on the other, both ways round, plus ROC AUC.

The combinations' weights were chosen with ``--grid``, which measures only the pairs
drawn before the blind ``index3`` / ``index4`` samples; the fresh pairs were not used
to choose anything.

Run (needs ``pip install wordllama``; nothing is downloaded: the model is loaded from
the installed package with downloads disabled)::

    python benchmarks/bench_overlap_semantic.py            # the table: all, first 104, fresh
    python benchmarks/bench_overlap_semantic.py --grid     # weights, first 104 pairs only
    python benchmarks/bench_overlap_semantic.py --bootstrap 2000   # AUC differences, 95% CI
    python benchmarks/bench_overlap_semantic.py --errors   # the index's errors at 0.3
    python benchmarks/bench_overlap_semantic.py --speed DUMP   # a bench_overlap skills dump
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_overlap as bo  # noqa: E402
from skilldeck.engine.config._rule_settings import DEFAULT_OVERLAP_THRESHOLD  # noqa: E402
from skilldeck.engine.overlap._index import OverlapSkill  # noqa: E402

PairScore = Callable[[OverlapSkill, OverlapSkill], float]
FRESH = frozenset({"index3", "index4"})


def load_model() -> Any:
    """WordLlama's bundled model, offline. ``WordLlama.load()`` as is looks for the
    tokenizer under ``wordllama/tokenizer/`` while the wheel ships it in
    ``wordllama/tokenizers/``, and then downloads it; the package directory as the
    cache directory finds both files."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import wordllama  # noqa: PLC0415
    from wordllama import WordLlama  # noqa: PLC0415

    return WordLlama.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True)


MODEL: Any = None


def _model() -> Any:
    global MODEL  # noqa: PLW0603
    if MODEL is None:
        MODEL = load_model()
    return MODEL


def skill_text(skill: OverlapSkill, with_name: bool = True) -> str:
    """What the model sees: the name's words, the description, the host's hint."""
    text = skill.description + (f" {skill.when_to_use}" if skill.when_to_use else "")
    if not with_name:
        return text
    return skill.name.replace("-", " ").replace("_", " ") + ". " + text


def embeddings(skills: Sequence[OverlapSkill], with_name: bool = True, centre: bool = False):
    """Unit vectors per skill key; ``centre`` subtracts the deck's mean first (what every
    skill shares, the template, then weighs nothing)."""
    import numpy as np  # noqa: PLC0415

    vectors = _model().embed([skill_text(s, with_name) for s in skills], norm=True)
    vectors = vectors.astype(np.float64)
    if centre:
        vectors = vectors - vectors.mean(axis=0)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return {s.key: vectors[i] for i, s in enumerate(skills)}


def semantic(with_name: bool = True, centre: bool = False) -> bo.Scorer:
    def scorer(skills: Sequence[OverlapSkill]) -> PairScore:
        vec = embeddings(skills, with_name, centre)
        return lambda a, b: float(vec[a.key] @ vec[b.key])

    return scorer


def combined(kind: str, weight: float, centre: bool) -> bo.Scorer:
    """The lexical score L and the semantic cosine S (negative as 0) combined:
    ``sum`` w L + (1 - w) S; ``max`` max(L, w S); ``gate`` L, halved when S < w;
    ``product`` L^w S^(1-w); ``add`` L + w S when L > 0."""

    def scorer(skills: Sequence[OverlapSkill]) -> PairScore:
        lexical = bo.index_scorer(skills)
        vec = embeddings(skills, True, centre)

        def score(a: OverlapSkill, b: OverlapSkill) -> float:
            lex, sem = lexical(a, b), max(0.0, float(vec[a.key] @ vec[b.key]))
            if kind == "sum":
                return weight * lex + (1 - weight) * sem
            if kind == "max":
                return max(lex, weight * sem)
            if kind == "gate":
                return lex if sem >= weight else 0.5 * lex
            if kind == "product":
                return float(lex**weight * sem ** (1 - weight))
            if kind == "add":
                return lex + weight * sem if lex > 0 else 0.0
            raise ValueError(kind)

        return score

    return scorer


def _row(
    scorer: bo.Scorer,
    name: str,
    labels: Path,
    only: frozenset[str] = frozenset(),
    without: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    result = bo.quality(scorer, name, labels, only, without)
    (one, two), auc = result["folds"], result["auc"]
    p, r, _ = bo._metrics(result["all"], DEFAULT_OVERLAP_THRESHOLD)
    at_default = f"   {p:.2f} / {r:.2f}" if scorer is bo.index_scorer else ""
    print(
        f"  {name:40} {result['pairs']:4}  "
        f"{one['threshold']:.3f}: P {one['precision']:.2f} R {one['recall']:.2f}   "
        f"{two['threshold']:.3f}: P {two['precision']:.2f} R {two['recall']:.2f}   "
        f"{auc[0]:.3f}/{auc[1]:.3f}/{auc[2]:.3f}{at_default}",
        flush=True,
    )
    return result


#: The best AUC of each form in ``--grid`` (on the pairs before index3 / index4), plus
#: a heavier semantic weight for comparison.
CANDIDATES: list[tuple[bo.Scorer, str]] = [
    (bo.index_scorer, "lexical index (main)"),
    (bo.plain_tfidf_scorer, "plain TF-IDF"),
    (semantic(True), "WordLlama, name + description"),
    (semantic(False), "WordLlama, description"),
    (combined("sum", 0.9, False), "sum: 0.9 lexical + 0.1 WordLlama"),
    (combined("sum", 0.7, False), "sum: 0.7 lexical + 0.3 WordLlama"),
    (combined("max", 0.6, True), "max(lexical, 0.6 centred WordLlama)"),
    (combined("gate", 0.2, False), "gate: lexical x0.5 if WordLlama < 0.2"),
    (combined("product", 0.7, False), "product: lexical^0.7 WordLlama^0.3"),
    (combined("add", 0.2, True), "add: lexical + 0.2 centred WordLlama"),
]

_HEADER = "  scorer                                   pairs  half 2 (tuned on 1)   half 1 (tuned on 2)   AUC 1/2/all   at 0.3 P / R"  # noqa: E501


def table(labels: Path) -> None:
    subsets = (
        ("all pairs", frozenset(), frozenset()),
        ("first 104 (before index3 / index4)", frozenset(), FRESH),
        ("fresh (index3 + index4)", FRESH, frozenset()),
        ("index3", frozenset({"index3"}), frozenset()),
        ("index4", frozenset({"index4"}), frozenset()),
    )
    for title, only, without in subsets:
        print(f"\n{title}\n{_HEADER}")
        for scorer, name in CANDIDATES:
            _row(scorer, name, labels, only, without)


def grid(labels: Path) -> None:
    print(f"\nfirst 104 pairs only (the weights are chosen here)\n{_HEADER}")
    _row(bo.index_scorer, "lexical index (main)", labels, without=FRESH)
    for with_name in (False, True):
        for centre in (False, True):
            _row(
                semantic(with_name, centre),
                f"WordLlama name={with_name} centre={centre}",
                labels,
                without=FRESH,
            )
    forms = {
        "sum": (0.3, 0.5, 0.7, 0.8, 0.9),
        "max": (0.6, 0.8, 1.0),
        "gate": (0.1, 0.2, 0.3),
        "product": (0.3, 0.5, 0.7),
        "add": (0.2, 0.4),
    }
    for kind, weights in forms.items():
        for centre in (False, True):
            for weight in weights:
                _row(
                    combined(kind, weight, centre),
                    f"{kind} {weight} centre={centre}",
                    labels,
                    without=FRESH,
                )


def bootstrap(labels: Path, rounds: int) -> None:
    """Paired bootstrap over pairs: the AUC of each candidate minus the index's, 95% CI."""
    import numpy as np  # noqa: PLC0415

    rng = np.random.default_rng(21)
    print(f"\nAUC minus the lexical index's, paired bootstrap ({rounds} rounds)")
    for title, only in (("all", frozenset()), ("fresh", FRESH)):
        base = bo.quality(bo.index_scorer, "lexical", labels, only)["all"]
        for scorer, name in CANDIDATES[2:]:
            other = bo.quality(scorer, name, labels, only)["all"]
            diffs = []
            for _ in range(rounds):
                picks = rng.integers(0, len(base), len(base))
                b, o = [base[i] for i in picks], [other[i] for i in picks]
                if len({y for _, y in b}) == 2:
                    diffs.append(bo._auc(o) - bo._auc(b))
            low, high = np.quantile(diffs, [0.025, 0.975])
            print(
                f"  {title:6} {name:42} {bo._auc(other) - bo._auc(base):+.3f}  "
                f"[{low:+.3f}, {high:+.3f}]"
            )


def errors(labels: Path) -> None:
    """The index's errors at the default threshold with their WordLlama cosine and its
    rank among the labelled pairs' (0: lowest)."""
    data = json.loads(labels.read_text(encoding="utf-8"))
    skills = bo._skills(data["pairs"])
    deck = list(skills.values())
    lexical, sem = bo.index_scorer(deck), semantic(True)(deck)
    rows = []
    for pair in data["pairs"]:
        a, b = skills[pair["a"]["source"]], skills[pair["b"]["source"]]
        rows.append((lexical(a, b), sem(a, b), pair["label"] == "overlapping", pair))
    cosines = sorted(r[1] for r in rows)
    print(f"\nthe index's errors at {DEFAULT_OVERLAP_THRESHOLD}, by WordLlama cosine")
    for lex, cos, overlapping, pair in sorted(rows, key=lambda r: r[1]):
        if (lex >= DEFAULT_OVERLAP_THRESHOLD) != overlapping:
            rank = sum(c <= cos for c in cosines) / len(cosines)
            kind = "missed" if overlapping else "false alarm"
            names = f"{pair['a']['name']} / {pair['b']['name']}"
            print(f"  {kind:11} lexical {lex:.2f}  cosine {cos:.2f} (rank {rank:.2f})  {names}")


def speed(dump: Path, threshold: float) -> None:
    """Load, embed a deck, every pair above ``threshold`` (blocks of 1,000 rows against
    the deck), and one edited skill against the deck (200 edits)."""
    start = time.perf_counter()
    import numpy as np  # noqa: PLC0415
    import wordllama  # noqa: F401, PLC0415

    imported = time.perf_counter()
    model = _model()
    loaded = time.perf_counter()
    rss_loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rows = json.loads(dump.read_text(encoding="utf-8"))
    texts = [skill_text(OverlapSkill(*row)) for row in rows]
    begin = time.perf_counter()
    vectors = model.embed(texts, norm=True)
    embedded = time.perf_counter()
    pairs = 0
    for first in range(0, len(vectors), 1000):
        block = vectors[first : first + 1000] @ vectors.T
        for i in range(block.shape[0]):
            block[i, : first + i + 1] = -1.0
        pairs += int((block >= threshold).sum())
    paired = time.perf_counter()
    samples = []
    for k in range(200):
        j = (k * 7919) % len(texts)
        tick = time.perf_counter()
        vector = model.embed([texts[j] + " x" * (k % 3)], norm=True)[0]
        nearest = np.argpartition(-(vectors @ vector), 4)[:4]
        vectors[j] = vector
        samples.append(time.perf_counter() - tick)
        assert len(nearest) == 4
    samples.sort()
    print(
        json.dumps(
            {
                "skills": len(texts),
                "import_s": round(imported - start, 3),
                "load_s": round(loaded - imported, 3),
                "rss_after_load_mb": round(rss_loaded),
                "embed_s": round(embedded - begin, 3),
                "embed_us_per_skill": round((embedded - begin) / len(texts) * 1e6, 1),
                "all_pairs_s": round(paired - embedded, 3),
                f"pairs_at_{threshold}": pairs,
                "edit_p50_ms": round(samples[len(samples) // 2] * 1000, 3),
                "edit_p95_ms": round(samples[int(len(samples) * 0.95) - 1] * 1000, 3),
                "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
            },
            indent=1,
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--labels", type=Path, default=bo.LABELS)
    parser.add_argument("--grid", action="store_true", help="the weights, first 104 pairs")
    parser.add_argument("--bootstrap", type=int, default=0, help="rounds of AUC bootstrap")
    parser.add_argument("--errors", action="store_true", help="the index's errors at 0.3")
    parser.add_argument("--speed", type=Path, help="a skills dump of bench_overlap.py")
    parser.add_argument("--speed-threshold", type=float, default=0.8)
    args = parser.parse_args()
    if args.speed:
        speed(args.speed, args.speed_threshold)
        return
    if args.grid:
        grid(args.labels)
    elif args.bootstrap:
        bootstrap(args.labels, args.bootstrap)
    elif args.errors:
        errors(args.labels)
    else:
        table(args.labels)


if __name__ == "__main__":
    main()
