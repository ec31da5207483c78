"""SD0xx: the skill file itself.

Reading and decoding the file (``files/_skill_read.py``, ``files/_skill_file.py``), where a
Markdown file sits in a root (SD007, ``filesystem/_layout.py``) and the config file
(SD008, ``sources/_config_findings.py``, ``config``).
"""

from __future__ import annotations

from skilldeck.engine.rules._findings import Severity
from skilldeck.engine.rules._rule import Rule

RULES: tuple[Rule, ...] = (
    Rule(
        code="SD001",
        name="unreadable-file",
        severity=Severity.ERROR,
        drops_skill=True,
        message="cannot read skill file: {reason}",
        summary="The skill file could not be read.",
        why=(
            "The file exists in a skill root but reading it failed (permission denied, it "
            "vanished mid-read, an I/O error). The skill is skipped; its siblings are not "
            "affected."
        ),
        fix="make the file readable by the user running the agent, e.g. `chmod a+r SKILL.md`.",
    ),
    Rule(
        code="SD002",
        name="invalid-utf8",
        severity=Severity.ERROR,
        drops_skill=True,
        message=(
            "file is not valid UTF-8: byte 0x{byte:02X} at line {line}, column {column} cannot "
            "be decoded"
        ),
        summary="The skill file is not valid UTF-8.",
        why=(
            "Skill files must be UTF-8 (a UTF-8 byte order mark is tolerated). The finding "
            "points at the first byte that does not decode. The skill is skipped, because "
            "guessing an encoding could show the model different text than the author wrote."
        ),
        fix="re-save the file as UTF-8, e.g. `iconv -f latin1 -t utf-8 SKILL.md -o SKILL.md.new`.",
    ),
    Rule(
        code="SD003",
        name="utf16-file",
        severity=Severity.ERROR,
        drops_skill=True,
        message="file is {encoding} (it starts with a byte order mark); skill files must be UTF-8",
        summary="The skill file is UTF-16 or UTF-32 encoded.",
        why=(
            "Some Windows editors save text as UTF-16 with a byte order mark. Skill files must "
            "be UTF-8, so the skill is skipped."
        ),
        fix="re-save the file as UTF-8 (in VS Code: *Save with Encoding* → *UTF-8*).",
    ),
    Rule(
        code="SD004",
        name="nul-byte",
        severity=Severity.ERROR,
        drops_skill=True,
        message=(
            "file contains a NUL character at line {line}, column {column}; it looks like a "
            "binary file"
        ),
        summary="The skill file contains NUL characters.",
        why=(
            "A NUL character never belongs in Markdown; it usually means a binary file was saved "
            "as `SKILL.md` or the file is corrupt. The skill is skipped."
        ),
        fix="remove the NUL characters or replace the file with the intended text.",
    ),
    Rule(
        code="SD005",
        name="file-too-large",
        severity=Severity.ERROR,
        drops_skill=True,
        message="file is larger than the {cap} cap for skill files; it was not read past the cap",
        summary="The skill file is larger than the size cap.",
        why=(
            "skilldeck reads at most a fixed number of bytes of a skill file (1 MiB by default), "
            "so a huge or endless file in a shared skill folder cannot exhaust memory or stall "
            "the editor. A skill is instructions for a model; a file this large would not fit a "
            "context window anyway. The skill is skipped."
        ),
        fix=(
            "move reference material into resource files beside `SKILL.md` and keep the "
            "instructions short."
        ),
    ),
    Rule(
        code="SD006",
        name="not-a-regular-file",
        severity=Severity.ERROR,
        drops_skill=True,
        message="skill path is {kind}, not a regular file; it was not opened",
        summary="The skill path is a FIFO, device, socket or directory.",
        why=(
            "A skill file must be a regular file (symbolic links to regular files are followed). "
            "FIFOs, devices and sockets are never opened for reading, because reading them can "
            "block forever or have side effects."
        ),
        fix="replace the entry with a regular `SKILL.md` file, or remove it from the skill root.",
    ),
    Rule(
        code="SD007",
        name="not-a-skill",
        severity=Severity.INFORMATION,
        message="not a skill: {reason}",
        summary="A Markdown file under a skill root sits where no skill is looked for.",
        why=(
            "A root holds skills one level deep: `<root>/<name>/SKILL.md` (a bundle) or "
            "`<root>/<name>.md` (a flat skill). A `SKILL.md` nested deeper, a bundle file named "
            "other than exactly `SKILL.md`, or a Markdown file in a folder without a `SKILL.md` "
            "is never loaded, whatever its frontmatter says. Markdown files beside a bundle's "
            "`SKILL.md` are its resources and are not reported."
        ),
        example=(
            "`.dsh/skills/skills/pdf-summary/SKILL.md` is nested one level too deep; move it to "
            "`.dsh/skills/pdf-summary/SKILL.md`."
        ),
        fix="move or rename the file.",
    ),
    Rule(
        code="SD008",
        name="config-error",
        severity=Severity.WARNING,
        message="{problem}; {kept}",
        summary=(
            "A value of the project's config file (`skilldeck.toml`, `[tool.skilldeck]`) cannot "
            "be used."
        ),
        why=(
            "The editor shows each bad key of the config file at that key and keeps every other "
            'key of the file: one unknown rule code does not turn the valid `SD501 = "off"` '
            "beside it back to its default. A file that is not TOML at all keeps the last "
            "configuration that could be read (the defaults if there was none). `skilldeck "
            "check` refuses a bad config file with the same message."
        ),
        example="`[rules]` `SD999 = \"off\"` → unknown rule 'rules.SD999'.",
        fix="correct or remove the key (`skilldeck rules` lists the rule codes).",
    ),
)
