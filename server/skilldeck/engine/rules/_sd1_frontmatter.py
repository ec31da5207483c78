"""SD1xx: frontmatter and YAML structure.

Checked where the frontmatter is parsed: ``frontmatter/_frontmatter.py`` and
``frontmatter/_yaml_problems.py`` (SD102 also in ``files/_skill_read.py``); SD110-SD112
(what the agent of a host profile does not read) in ``files/_host_reading.py``.
"""

from __future__ import annotations

from skilldeck.engine.rules._findings import Severity
from skilldeck.engine.rules._rule import HOST_PROFILES, Rule

RULES: tuple[Rule, ...] = (
    Rule(
        code="SD101",
        name="missing-frontmatter",
        severity=Severity.ERROR,
        drops_skill=True,
        message="missing frontmatter: {problem}",
        summary="The file does not start with a `---` frontmatter block.",
        why=(
            "A skill file starts with YAML frontmatter between two lines that are exactly `---`; "
            "the first line of the file must be the opening `---` (a UTF-8 byte order mark and a "
            "trailing carriage return are tolerated). Without it the skill has no name or "
            "description and is skipped.\n\n"
            "A file whose lines end in a lone carriage return (old Mac line endings) has no "
            "frontmatter either: skilldeck, like the agents, breaks lines at line feeds, so the "
            "whole file is its first line. The message says so; save the file with LF or CRLF "
            "line endings."
        ),
        example=(
            "```markdown\n---\nname: pdf-forms\ndescription: Fill in PDF forms from structured "
            "data.\n---\n# Instructions ...\n```"
        ),
        host_judged=True,
    ),
    Rule(
        code="SD102",
        name="unterminated-frontmatter",
        severity=Severity.ERROR,
        drops_skill=True,
        message="frontmatter is never closed: no line after the opening '---' is exactly '---'",
        summary="The frontmatter's closing `---` line is missing.",
        why=(
            "The frontmatter ends at the first following line that is exactly `---`. A line such "
            "as `----`, `--- ` or an indented `---` does not close it. The skill is skipped, "
            "because without the closing line the body cannot be told apart from the metadata."
        ),
        fix="add a line `---` after the last frontmatter key.",
        host_judged=True,
    ),
    Rule(
        code="SD103",
        name="invalid-yaml",
        severity=Severity.ERROR,
        drops_skill=True,
        fixable=True,
        message="invalid YAML in frontmatter: {problem}",
        summary="The frontmatter is not valid YAML.",
        why=(
            "The text between the delimiters must be one valid YAML document. The skill is "
            "skipped.\n\n"
            "The common causes are named in plain words and pointed at where they start, each "
            "with a quick fix: a tab used for indentation (YAML indents with spaces), a quote "
            "that is never closed, a missing space after a key's `:` (`name:pdf`), a `: ` inside "
            "a plain value (`description: Use for: PDFs`), a value starting with `@` or a "
            "backtick, and a continuation line that is not indented. Any other error points at "
            "the position the YAML parser reported, in its words."
        ),
        fix=(
            'quote the value: `description: "Use for: PDFs"`, or use a block scalar '
            "(`description: >`)."
        ),
        host_judged=True,
    ),
    Rule(
        code="SD104",
        name="frontmatter-not-mapping",
        severity=Severity.ERROR,
        drops_skill=True,
        fixable=True,
        message="frontmatter must be a YAML mapping of keys to values, found {found}",
        summary="The frontmatter's top level is not a mapping.",
        why=(
            "The frontmatter must be a mapping such as `name: ...` / `description: ...`; a list "
            "or a bare string at the top level carries no named fields. The skill is skipped. "
            "When the text is a `key:value` line without a space after the colon (`name:pdf`), "
            "the finding points at that colon."
        ),
        fix="write one `key: value` per line; the quick fix inserts the missing space.",
        host_judged=True,
    ),
    Rule(
        code="SD105",
        name="duplicate-key",
        severity=Severity.ERROR,
        drops_skill=True,
        message="duplicate key '{key}' (first defined on line {first_line})",
        summary="A key appears twice in the same mapping.",
        why=(
            "YAML requires keys to be unique, and tools disagree on which occurrence wins: some "
            "take the last, some the first, some refuse the file. skilldeck fails closed and "
            "skips the skill so that every agent sees the same thing (editors show the last "
            "value, as most YAML loaders would)."
        ),
        fix="delete one of the two entries.",
        host_judged=True,
    ),
    Rule(
        code="SD106",
        name="frontmatter-too-large",
        severity=Severity.ERROR,
        drops_skill=True,
        message="frontmatter is larger than the {cap} cap; it was not parsed",
        summary="The frontmatter is larger than the size cap.",
        why=(
            "Frontmatter holds a name, a one-line description and a little metadata; skilldeck "
            "refuses to parse more than 64 KiB of it, so that a hostile file cannot make "
            "indexing slow. The skill is skipped."
        ),
        fix="move long text into the body or into resource files.",
    ),
    Rule(
        code="SD107",
        name="yaml-too-complex",
        severity=Severity.ERROR,
        drops_skill=True,
        message="frontmatter YAML is too complex: {detail}",
        summary="The YAML nests too deeply or expands too many aliases.",
        why=(
            "Aliases (`*name`) can make a few lines of YAML expand into billions of values (the "
            "*billion laughs* attack), and very deep nesting can exhaust a parser's stack. "
            "skilldeck stops at 64 levels of nesting and 50,000 values after alias expansion, "
            "and skips the skill."
        ),
        fix="write the values out plainly; frontmatter never needs anchors or deep nesting.",
    ),
    Rule(
        code="SD108",
        name="unsupported-tag",
        severity=Severity.WARNING,
        message="YAML tag '{tag}' is ignored; the value is read as plain {kind}",
        summary="A YAML tag was ignored.",
        why=(
            "skilldeck reads YAML in safe mode: tags such as `!!python/object/apply` or "
            "`!custom` never construct objects or run code. The tagged value is read as plain "
            "data (text, list or mapping) and the tag is ignored."
        ),
        fix="remove the tag.",
    ),
    Rule(
        code="SD109",
        name="complex-key",
        severity=Severity.WARNING,
        message="mapping keys must be plain text; this {found} key and its value are ignored",
        summary="A mapping key is a list or a mapping.",
        why=(
            "YAML allows complex keys (`? [a, b]: value`), but frontmatter keys are names. The "
            "entry is ignored."
        ),
        fix="use a plain text key.",
    ),
    # --- SD11x: what the agent of a host profile does not read --------------------------
    Rule(
        code="SD110",
        name="byte-order-mark-not-read",
        severity=Severity.ERROR,
        drops_skill=True,
        message="the file starts with a UTF-8 byte order mark, which {host} does not skip: "
        "it finds no frontmatter{others}",
        summary="The profile's agent does not skip a UTF-8 byte order mark before the frontmatter.",
        why=(
            "Some editors save UTF-8 with a byte order mark (U+FEFF) before the opening "
            "`---`. skilldeck's engine skips it, and so do some agents; others read the mark "
            "as part of the first line, which is then not `---`: the file has no frontmatter "
            "and the skill is not loaded (docs/hosts.md, *Profiles*, lists which, as their "
            "releases were observed). Reported under a host profile whose agent does not skip "
            "the mark; the message names the agents that do. Editors hide the mark, so it "
            "cannot be seen or removed as text."
        ),
        fix="save the file as UTF-8 without a byte order mark (in VS Code: *Save with "
        "Encoding* → *UTF-8*).",
        profiles=HOST_PROFILES,
    ),
    Rule(
        code="SD111",
        name="name-too-long-for-host",
        severity=Severity.ERROR,
        drops_skill=True,
        message="name is {length} characters; {host} loads names of at most {limit}",
        summary="The name is longer than the profile's agent accepts.",
        why=(
            "An agent may refuse a skill whose name, or the folder name standing in for "
            "a missing one, is longer than its limit (`name_max` in docs/hosts.md, e.g. Codex's "
            "`MAX_NAME_LEN`). skilldeck's engine sets no such limit; under that agent's "
            "profile the skill is reported as not loaded. The Agent Skills standard's own "
            "limit is SD601."
        ),
        fix="shorten the name (and its folder).",
        profiles=HOST_PROFILES,
    ),
    Rule(
        code="SD112",
        name="not-loaded-by-host",
        severity=Severity.ERROR,
        drops_skill=True,
        message="{host} does not load the skill: {reason}",
        summary="The profile's agent does not load the skill, for a reason no other rule names.",
        why=(
            "Under a host profile the verdict on a file is that agent's observed release's "
            "(docs/hosts.md, *Profiles*), the same the host view (`list --host`) gives. Where "
            "the agent refuses a file for a reason none of skilldeck's own rules names, this "
            "finding says the agent's reason, so that `check` never calls a file loaded that "
            "the agent drops."
        ),
        fix="as the reason says.",
        profiles=HOST_PROFILES,
    ),
)
