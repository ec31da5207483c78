"""How overlap detection reads a skill: words, stems, phrases, acronyms and named things.

A skill competes for requests through what the model reads: its name and its description
(plus ``whenToUse`` where the host shows it). This module turns that text into weighted
features for :mod:`skilldeck.engine.overlap._index`:

- words are case-folded, split on anything that is not a letter or digit (``c++`` and
  ``c#`` keep their sign), stop words dropped (English function words and the boilerplate
  of skill templates: "use this skill when", "expert", "proactively"), and stemmed with
  the Snowball English stemmer (PyStemmer, the C build of the Snowball algorithms);
- consecutive kept words also give word bigrams (``code review``), so a shared phrase
  counts more than two shared words far apart;
- the name's parts count as words, weighted higher, and a name of three or four parts
  gives its acronym (``test-driven-development`` -> ``tdd``), as does a run of three or
  four capitalised words in the text (``Test-Driven Development``);
- words that ask for the same task in other words (``review`` / ``audit``, ``debug`` /
  ``diagnose``, ``ui`` / ``visual``: :mod:`skilldeck.engine.overlap._concepts`) also give
  that task as a feature (weighted like a name part), so such skills share something;
  a task the name says (``python-testing``, ``test-automator``) is a feature of its own,
  rarer than the task anywhere in the text: a generic skill and a specialised one whose
  names say one task compete unless they name different things;
- named things (languages, frameworks, vendors, clouds, databases) are collected apart:
  two skills that name different ones (``python-reviewer`` / ``rust-reviewer``) are told
  apart by the model, however alike the rest of their text is; so is the kind of work a
  name says (``fastapi-reviewer`` reviews, ``fastapi-patterns`` writes), and the platform
  a name says (``backend-security-coder`` / ``mobile-security-coder``), and end-to-end
  tests (``e2e-*``, or a browser driver's name) against other tests;
- a name that says one task and otherwise only roles (``code-reviewer``, ``tdd-guide``)
  makes the skill that task's generalist; a name that says a task and a named thing
  (``swift-reviewer``) makes it a specialist: the index pairs a generalist with every
  specialist of its task, however their texts read;
- the stems of the name's parts are kept in order: two names that begin alike and each
  add a part of the work the other does not (``c4-component`` / ``c4-container``,
  ``opensource-forker`` / ``opensource-sanitizer``) divide one family's work, and the
  model reads which member does what from the names (:func:`divide_a_family`); a member
  whose name adds only a role word (``typescript-pro``, ``golang-patterns``) is the
  family's generalist and still competes with the others.

Features are interned strings (one object per feature, however many skills carry it), and
each word is read once per process (its stem, its concept, whether it counts: a table).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from skilldeck.engine.overlap._concepts import CONCEPT_PREFIX, CONCEPTS

if TYPE_CHECKING:
    from collections.abc import Callable

#: How much a word of the name counts against a word of the description.
NAME_WEIGHT = 2.0
#: How much an acronym counts (one per run of name parts or capitalised words).
ACRONYM_WEIGHT = 1.0
#: How much a word bigram counts against a single word.
BIGRAM_WEIGHT = 0.5
#: How much a task concept (:mod:`skilldeck.engine.overlap._concepts`) counts against the
#: word that asks for it.
CONCEPT_WEIGHT = 2.0
#: How much "the name says this task" (``python-testing``, ``rust-reviewer``) counts: a
#: feature of its own, rarer than the task anywhere in the text.
NAME_CONCEPT_WEIGHT = 2.0
#: How a task the name says is written among the features (after the concept).
NAME_CONCEPT_SUFFIX = "@name"

_WORD = re.compile(r"[^\W_]+(?:\+\+|#)?")
_CAPITALISED_RUN = re.compile(r"\b[A-Z][a-z]+(?:[- ][A-Z][a-z]+){2,3}\b")

# fmt: off
#: English function words, plus the template words most skill descriptions share.
_STOP_TEXT = """
a about above after again against all also an and any are as at be because been before
being below between both but by can could did do does doing down during each even every
for from further had has have having here how i if in into is it its itself just may me
might more most must my no nor not now of off on once only or other our out over own same
shall she should so some such than that the their them then there these they this those
through to too under until up upon us very via was we were what whenever where which
while who whom why will with within without would you your yours e g eg ie etc
skill skills use used uses using usage when user users asks ask asked want wants need
needs help helps helping expert experts elite specialist specialists specializing
specialising specializes master masters mastering proactively proactive immediately
task tasks work working agent agents claude model trigger triggers triggered invoke
invoked any anything something things thing like including include includes covers
cover covering handle handles handling provide provides providing based new make makes
modern advanced comprehensive best practice practices guide guidance
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())

#: Named things, by every spelling that names them (the value is the canonical name).
_ENTITY_ALIASES: dict[str, str] = {
    # languages
    "python": "python", "py": "python", "pythonic": "python", "rust": "rust",
    "go": "go", "golang": "go", "java": "java", "kotlin": "kotlin", "swift": "swift",
    "c++": "c++", "cpp": "c++", "c#": "c#", "csharp": "c#", "dotnet": ".net", "net": ".net",
    "ruby": "ruby", "php": "php", "perl": "perl", "typescript": "typescript",
    "javascript": "javascript", "scala": "scala", "elixir": "elixir", "haskell": "haskell",
    "dart": "dart", "lua": "lua", "julia": "julia", "solidity": "solidity", "f#": "f#",
    "fsharp": "f#", "clojure": "clojure", "erlang": "erlang", "ocaml": "ocaml", "zig": "zig",
    "bash": "bash", "powershell": "powershell", "r": "r",
    # frameworks and runtimes
    "django": "django", "fastapi": "fastapi", "flask": "flask", "rails": "rails",
    "laravel": "laravel", "spring": "spring", "springboot": "spring", "quarkus": "quarkus",
    "react": "react", "vue": "vue", "angular": "angular", "svelte": "svelte",
    "nextjs": "nextjs", "nuxt": "nuxt", "flutter": "flutter", "nestjs": "nestjs",
    "bun": "bun", "deno": "deno", "unity": "unity", "unreal": "unreal", "godot": "godot",
    "pytorch": "pytorch", "tensorflow": "tensorflow",
    # clouds, vendors, platforms
    "aws": "aws", "amazon": "aws", "azure": "azure", "gcp": "gcp", "google": "google",
    "oci": "oci", "oracle": "oracle", "cloudflare": "cloudflare", "vercel": "vercel",
    "netlify": "netlify", "heroku": "heroku", "github": "github", "gitlab": "gitlab",
    "bitbucket": "bitbucket", "jira": "jira", "linear": "linear", "slack": "slack",
    "notion": "notion", "stripe": "stripe", "shopify": "shopify", "salesforce": "salesforce",
    "paypal": "paypal", "braintree": "braintree", "adyen": "adyen", "razorpay": "razorpay",
    "klarna": "klarna", "mollie": "mollie",
    "figma": "figma", "supabase": "supabase", "firebase": "firebase", "ios": "ios",
    "android": "android", "windows": "windows", "macos": "macos", "linux": "linux",
    "terraform": "terraform", "pulumi": "pulumi", "ansible": "ansible",
    "kubernetes": "kubernetes", "k8s": "kubernetes", "helm": "helm", "docker": "docker",
    # databases
    "postgres": "postgres", "postgresql": "postgres", "mysql": "mysql",
    "sqlite": "sqlite", "mongodb": "mongodb", "mongo": "mongodb", "redis": "redis",
    "clickhouse": "clickhouse", "snowflake": "snowflake", "bigquery": "bigquery",
    "dynamodb": "dynamodb", "elasticsearch": "elasticsearch", "cassandra": "cassandra",
}
# fmt: on

#: Named things that imply another (a Django skill is a Python skill).
_ENTITY_PARENT: dict[str, str] = {
    "django": "python",
    "fastapi": "python",
    "flask": "python",
    "pytorch": "python",
    "tensorflow": "python",
    "rails": "ruby",
    "laravel": "php",
    "spring": "java",
    "quarkus": "java",
    "flutter": "dart",
    "react": "javascript",
    "vue": "javascript",
    "angular": "typescript",
    "svelte": "javascript",
    "nextjs": "react",
    "nuxt": "vue",
    "nestjs": "typescript",
    "typescript": "javascript",
    "bun": "javascript",
    "deno": "typescript",
    "helm": "kubernetes",
    "bigquery": "gcp",
    "dynamodb": "aws",
}

_ENTITY_WORDS = frozenset(_ENTITY_ALIASES)

#: Name parts that say what kind of work a skill does, by prefix: a skill that reviews
#: code and one that writes it answer different requests about the same thing.
_ACTIVITIES = (
    "review",
    "audit",
    "debug",
    "deploy",
    "migrat",
    "scaffold",
    "generat",
    "evaluat",
    "plan",
    # End-to-end tests drive the running app (a browser, a desktop UI); unit and
    # language test skills answer other requests. The browser drivers say it too.
    "e2e",
)
#: Name parts that say a kind of work by naming its tool (``playwright`` -> ``e2e``): only
#: tools used almost only for it (Puppeteer and Selenium also name scrapers and bots).
_ACTIVITY_TOOLS: dict[str, str] = {
    "playwright": "e2e",
    "cypress": "e2e",
}

#: Name parts that say which platform a skill builds for, by the platforms they mean: two
#: skills whose names say different ones (``backend-patterns`` / ``frontend-patterns``,
#: ``backend-security-coder`` / ``mobile-security-coder``) are told apart like two
#: languages. Names only: descriptions mention platforms in passing ("web and mobile").
_PLATFORMS: dict[str, tuple[str, ...]] = {
    "backend": ("backend",),
    "frontend": ("frontend",),
    "web": ("frontend",),
    "fullstack": ("backend", "frontend"),
    "mobile": ("mobile",),
    "ios": ("mobile",),
    "android": ("mobile",),
    "desktop": ("desktop",),
    "embedded": ("embedded",),
}
#: How a platform is written among a skill's named things (apart from the named things
#: themselves: ``backend`` and ``python`` are not two things of one kind).
PLATFORM_PREFIX = "platform:"
_PLATFORM_THINGS = frozenset(
    PLATFORM_PREFIX + platform for platforms in _PLATFORMS.values() for platform in platforms
)

#: Spellings that are also plain English words: named things only when capitalised in
#: text (``Go``, ``Swift``), always in a name.
_AMBIGUOUS = frozenset(
    {
        "go",
        "swift",
        "spring",
        "rust",
        "dart",
        "react",
        "r",
        "linear",
        "net",
        "unity",
        "helm",
        "google",
        "amazon",
        "oracle",
        "notion",
        "py",
        "bun",
        "julia",
        "rails",
        "flask",
    }
)


#: The one empty set a skill's named things or kinds of work are when there are none (a
#: big deck has many such skills).
_NOTHING: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class SkillFeatures:
    """One skill's weighted features (before deck weighting) and what they look like.

    ``counts`` maps a feature (a stem, ``stem stem`` for a bigram) to its weighted count;
    ``surface`` maps a stem to the first word it came from (for messages); ``entities``
    the canonical named things the skill names, and the platforms its name says
    (``platform:mobile``, see :data:`PLATFORM_PREFIX`).
    """

    counts: dict[str, float]
    surface: dict[str, str]
    entities: frozenset[str]
    #: What kind of work the name says the skill does (``review``, ``generate``...).
    activities: frozenset[str] = frozenset()
    #: The stems of the name's parts, in order (``c4-component`` -> ``c4``, ``compon``).
    name_stems: tuple[str, ...] = ()
    #: The one task the name says and nothing else but roles (``code-reviewer``,
    #: ``tdd-guide``): a generalist of that task (a concept feature, ``~review``).
    generalist: str | None = None
    #: The tasks the name says for a named thing (``swift-reviewer``, ``django-tdd``).
    specialised: frozenset[str] = frozenset()


@lru_cache(maxsize=1)
def _stemmer() -> Callable[[list[str]], list[str]]:
    try:
        import Stemmer  # noqa: PLC0415 - loaded only when overlap runs
    except ImportError:  # the pure-Python bundle: the same Snowball algorithm, same stems
        import snowballstemmer  # noqa: PLC0415

        pure: Callable[[list[str]], list[str]] = snowballstemmer.stemmer("english").stemWords
        return pure
    stem_words: Callable[[list[str]], list[str]] = Stemmer.Stemmer("english").stemWords
    return stem_words


#: What a word gives: its stem, the task concept the stem asks for (``None``: none), and
#: whether the word counts in a description (not a stop word, a number or a lone letter
#: that names nothing). Stems are interned: every feature of the deck is one string
#: object, so the index's dictionaries compare them by identity.
_Word = tuple[str, str | None, bool]

#: The words seen so far (a deck's vocabulary is small). When full it is replaced, never
#: cleared, so a caller holding the previous table (another thread) keeps its words.
_WORD_CACHE: dict[str, _Word] = {}
_MAX_CACHED_WORDS = 200_000


def _word_table(words: list[str]) -> dict[str, _Word]:
    """A table holding every word of ``words`` (the cache, with the words it lacked
    stemmed in one batch by the Snowball English stemmer)."""
    global _WORD_CACHE  # noqa: PLW0603 - the cache is swapped, never mutated in place
    table = _WORD_CACHE
    unique = set(words)
    missing = unique.difference(table)
    if not missing:
        return table
    if len(table) + len(missing) > _MAX_CACHED_WORDS:
        table, missing = {}, unique
    concepts = _concept_of_stem()
    ordered = list(missing)
    stems = map(sys.intern, _stemmer()(ordered))
    for word, stem in zip(ordered, stems, strict=True):
        counted = not (
            word in STOP_WORDS or word.isdigit() or (len(word) < 2 and word not in _ENTITY_WORDS)
        )
        table[word] = (stem, concepts.get(stem), counted)
    _WORD_CACHE = table
    return table


@lru_cache(maxsize=1)
def _name_concepts() -> dict[str, str]:
    """``concept feature -> its name feature`` (``~test`` -> ``~test@name``)."""
    return {
        concept: sys.intern(concept + NAME_CONCEPT_SUFFIX)
        for concept in set(_concept_of_stem().values())
    }


@lru_cache(maxsize=1)
def _concept_of_stem() -> dict[str, str]:
    """``stem -> concept feature`` for every word of the task concepts table."""
    return {
        stemmed: sys.intern(CONCEPT_PREFIX + concept)
        for concept, words in CONCEPTS.items()
        for stemmed in _stemmer()(list(words))
    }


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def _entities_of_text(text: str, words: list[str]) -> set[str]:
    """The named things ``text`` (whose case-folded ``words`` are given) names."""
    named = _ENTITY_WORDS.intersection(words)
    found = {_ENTITY_ALIASES[word] for word in named - _AMBIGUOUS}
    if named & _AMBIGUOUS:
        written = set(_WORD.findall(text))
        for word in named & _AMBIGUOUS:
            # "Go", "Swift", "R": a plain-English spelling only counts capitalised.
            if word.capitalize() in written or word.upper() in written:
                found.add(_ENTITY_ALIASES[word])
    if ".NET" in text:
        found.add(".net")
    return found


def _acronym(parts: list[str]) -> str | None:
    """The acronym of three or four words (``test driven development`` -> ``tdd``)."""
    if 3 <= len(parts) <= 4 and all(part.isalpha() for part in parts):
        return sys.intern("".join(part[0] for part in parts))
    return None


@dataclass(frozen=True, slots=True)
class TextFeatures:
    """What a skill's model-visible text gives its features, whatever its name (copies of
    one text share it: :func:`skill_features` adds the name). Read-only."""

    counts: dict[str, float]
    surface: dict[str, str]
    entities: frozenset[str]


def text_features(text: str) -> TextFeatures:
    """The features ``text`` gives a skill (see :func:`skill_features`)."""
    counts: dict[str, float] = {}
    surface: dict[str, str] = {}
    count = counts.get
    intern = sys.intern
    previous: str | None = None
    words = _words(text)
    table = _word_table(words)
    for word in words:
        stemmed, concept, counted = table[word]
        if not counted:
            previous = None
            continue
        if stemmed not in surface:
            surface[stemmed] = word
        counts[stemmed] = count(stemmed, 0.0) + 1.0
        if concept is not None:
            counts[concept] = count(concept, 0.0) + CONCEPT_WEIGHT
        if previous is not None:
            bigram = intern(f"{previous} {stemmed}")
            counts[bigram] = count(bigram, 0.0) + BIGRAM_WEIGHT
        previous = stemmed
    for run in _CAPITALISED_RUN.findall(text):
        if (acronym := _acronym(_words(run))) is not None:
            counts[acronym] = count(acronym, 0.0) + ACRONYM_WEIGHT
    return TextFeatures(counts, surface, frozenset(_entities_of_text(text, words)))


def skill_features(name: str, text: str, read: TextFeatures | None = None) -> SkillFeatures:
    """The features of a skill called ``name`` whose model-visible text is ``text``
    (``read``: :func:`text_features` of ``text``, when already known)."""
    read = text_features(text) if read is None else read
    counts = dict(read.counts)
    surface = dict(read.surface)
    count = counts.get
    parts = [part for part in name.casefold().split("-") if part]
    table = _word_table(parts)
    for part in parts:
        if part in STOP_WORDS or part.isdigit():
            continue
        stemmed, concept, _counted = table[part]
        if stemmed not in surface:
            surface[stemmed] = part
        counts[stemmed] = count(stemmed, 0.0) + NAME_WEIGHT
        if concept is not None:
            counts[concept] = count(concept, 0.0) + CONCEPT_WEIGHT * NAME_WEIGHT
            named = _name_concepts()[concept]
            counts[named] = count(named, 0.0) + NAME_CONCEPT_WEIGHT
    if (acronym := _acronym(parts)) is not None:
        counts[acronym] = count(acronym, 0.0) + ACRONYM_WEIGHT
    entities = set(read.entities)
    entities.update(_ENTITY_ALIASES[part] for part in parts if part in _ENTITY_ALIASES)
    entities.update(
        PLATFORM_PREFIX + platform
        for part in parts
        if part in _PLATFORMS
        for platform in _PLATFORMS[part]
    )
    activities = frozenset(
        activity for part in parts for activity in _ACTIVITIES if part.startswith(activity)
    ) | frozenset(_ACTIVITY_TOOLS[part] for part in parts if part in _ACTIVITY_TOOLS)
    generalist, specialised = _name_tasks(parts, table)
    return SkillFeatures(
        counts,
        surface,
        frozenset(entities) if entities else _NOTHING,
        activities if activities else _NOTHING,
        tuple(table[part][0] for part in parts),
        generalist,
        specialised,
    )


#: Name parts that name no particular object of the work: with role words, all a
#: generalist's name may add to its task (``code-reviewer``, ``software-tester``).
_GENERAL_OBJECTS = frozenset({"code", "software"})


def _name_tasks(parts: list[str], table: dict[str, _Word]) -> tuple[str | None, frozenset[str]]:
    """What a name (its case-folded ``parts``) says about the tasks its skill takes on:
    the one task it takes on whole (a generalist: ``code-reviewer``, ``tdd-guide``,
    ``debugger``; the name says the task and otherwise only roles), and the tasks it takes
    on for a named thing (``swift-reviewer``, ``django-tdd``)."""
    tasks = {concept for part in parts if (concept := table[part][1]) is not None}
    if not tasks:
        return None, _NOTHING
    if any(part in _ENTITY_ALIASES for part in parts):
        return None, frozenset(tasks)
    if len(tasks) > 1:
        return None, _NOTHING
    roles = _role_stems()
    for part in parts:
        stemmed, concept, _counted = table[part]
        if concept is None and part not in _GENERAL_OBJECTS and stemmed not in roles:
            return None, _NOTHING
    return next(iter(tasks)), _NOTHING


@lru_cache(maxsize=1024)
def _with_parents(entities: frozenset[str]) -> frozenset[str]:
    """``entities`` and every named thing they imply (a deck has few distinct sets)."""
    result = set(entities)
    for entity in entities:
        parent = _ENTITY_PARENT.get(entity)
        while parent is not None and parent not in result:
            result.add(parent)
            parent = _ENTITY_PARENT.get(parent)
    return frozenset(result)


def name_different_things(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether two skills naming ``a`` and ``b`` are about different named things: both
    name some, and none of either is (or is implied by) one of the other's (``python`` and
    ``django`` are related, ``quarkus`` and ``spring`` are not); or both names say a
    platform and none in common (``backend`` / ``mobile``)."""
    if not a or not b:
        return False
    platforms_a, platforms_b = a & _PLATFORM_THINGS, b & _PLATFORM_THINGS
    if platforms_a and platforms_b and platforms_a.isdisjoint(platforms_b):
        return True
    things_a = a - platforms_a if platforms_a else a
    things_b = b - platforms_b if platforms_b else b
    if not things_a or not things_b:
        return False
    return not (things_a & _with_parents(things_b)) and not (things_b & _with_parents(things_a))


#: Name parts that say a role or a manner rather than a part of the work (stemmed when
#: first used): a family member whose name adds only these (``typescript-pro``,
#: ``golang-patterns``) is the family's generalist and competes with every other member.
_ROLE_WORDS = """
pro expert experts patterns pattern architect architecture guide guides specialist engineer
engineering developer development dev master best practices workflow workflows management
manager design designer templates template principles standards excellence advanced
skill skills helper assistant toolkit tools core basics fundamentals essentials coder
analyst consultant lead ops expertise
"""


@lru_cache(maxsize=1)
def _role_stems() -> frozenset[str]:
    return frozenset(_stemmer()(_ROLE_WORDS.split()))


def divide_a_family(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Whether two names (their parts' stems) are members of one family that divide its
    work: they begin alike, and each adds a part of the work that the other does not
    (``c4-component`` / ``c4-container``, ``opensource-forker`` / ``opensource-sanitizer``).
    A member that adds only role words (``typescript-pro``) divides nothing."""
    common = 0
    while common < min(len(a), len(b)) and a[common] == b[common]:
        common += 1
    if common == 0:
        return False
    rest_a, rest_b = set(a[common:]), set(b[common:])
    if not rest_a or not rest_b or not rest_a.isdisjoint(rest_b):
        return False
    roles = _role_stems()
    return bool(rest_a - roles) and bool(rest_b - roles)
