"""``skilldeck rules [CODE]``: the rule reference, printed from the engine's rules table.

Without an argument, one line per rule; with a code or kebab name, that rule's full
documentation; ``--markdown`` prints the same reference ``docs/rules.md`` is generated
from; ``--json`` the table as data.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from skilldeck.cli.errors import CliError
from skilldeck.cli.settings import add_cwd_option, lookup_cwd
from skilldeck.engine.rules import RULES, Rule, render_rules_markdown


def register(subparsers: Any) -> None:
    """Add the ``rules`` subcommand."""
    parser = subparsers.add_parser(
        "rules",
        help="show the rule reference",
        description="The rules skilldeck checks, from the same table docs/rules.md is "
        "generated from.",
    )
    parser.add_argument("rule", metavar="CODE", nargs="?", help="a rule code or kebab name")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print JSON")
    output.add_argument(
        "--markdown", action="store_true", help="print the Markdown reference (docs/rules.md)"
    )
    add_cwd_option(parser)
    parser.set_defaults(run=run)


def find_rule(code_or_name: str) -> Rule:
    """The rule with this code (any case) or kebab name; :class:`CliError` otherwise."""
    for candidate in RULES:
        if candidate.code == code_or_name.upper() or candidate.name == code_or_name:
            return candidate
    raise CliError(f"rules: unknown rule {code_or_name!r} (see `skilldeck rules`)")


def rule_json(rule: Rule) -> dict[str, object]:
    """One rule as JSON data."""
    return {
        "code": rule.code,
        "name": rule.name,
        "severity": rule.severity.value,
        "dropsSkill": rule.drops_skill,
        "fixable": rule.fixable,
        "summary": rule.summary,
        "message": rule.message_shown,
        "docs": rule.docs,
        "docsUrl": rule.docs_url,
    }


def rule_line(rule: Rule, *, name_width: int) -> str:
    """``SD101  missing-name  error  drops skill  summary``."""
    effect = "drops skill" if rule.drops_skill else "keeps skill"
    return (
        f"{rule.code}  {rule.name:<{name_width}}  {rule.severity.value:<11}  {effect}  "
        f"{rule.summary}"
    )


def rule_page(rule: Rule) -> str:
    """The full documentation of one rule, as plain text."""
    effect = "drops the skill" if rule.drops_skill else "reports only; the skill is kept"
    lines = [
        f"{rule.code} {rule.name}",
        "",
        f"Severity: {rule.severity.value} ({effect})",
        f"Fixable: {'yes' if rule.fixable else 'no'}",
        f"Message: {rule.message_shown}",
        "",
        rule.docs.strip(),
        "",
        f"More: {rule.docs_url}",
    ]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Print the reference (or one rule); ``--cwd`` is accepted and only validated."""
    lookup_cwd(args)
    rules = list(RULES)
    if args.rule:
        chosen = find_rule(args.rule)
        if args.json:
            print(json.dumps(rule_json(chosen), indent=2, ensure_ascii=False))
        elif args.markdown:
            raise CliError("rules: --markdown prints the whole reference; drop CODE")
        else:
            print(rule_page(chosen))
        return 0
    if args.json:
        print(json.dumps([rule_json(r) for r in rules], indent=2, ensure_ascii=False))
    elif args.markdown:
        print(render_rules_markdown(), end="")
    else:
        width = max((len(r.name) for r in rules), default=0)
        for item in rules:
            print(rule_line(item, name_width=width))
    return 0
