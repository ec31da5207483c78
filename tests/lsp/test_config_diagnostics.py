"""A bad ``skilldeck.toml`` is shown at its key (SD008) and the rest of it still applies
(issue #31: one unknown rule code made the editor ignore the whole file, with a toast)."""

from __future__ import annotations

from lsp_harness import Deck, StartServer, codes, diagnostics_of
from lsprotocol import types

NO_DESCRIPTION = "---\nname: alpha\nuserInvocable: false\n---\n\nBody.\n"


async def test_an_unknown_rule_is_shown_at_its_key_and_the_valid_rules_apply(
    deck: Deck, start_server: StartServer
) -> None:
    config = deck.project / "skilldeck.toml"
    config.write_text('[rules]\nSD999 = "off"\nSD204 = "off"\n', encoding="utf-8")
    skill = deck.write(deck.project_dsh, "alpha", NO_DESCRIPTION)
    client = await start_server()

    [problem] = await diagnostics_of(client, config, lambda d: codes(d) == ["SD008"])
    assert problem.range == types.Range(
        start=types.Position(line=1, character=0), end=types.Position(line=1, character=5)
    )
    assert problem.severity == types.DiagnosticSeverity.Warning
    assert problem.message == (
        "unknown rule 'rules.SD999' (`skilldeck rules` lists them); "
        "left out; the rest of the file applies"
    )
    # `SD204 = "off"` beside it still applies: no missing-description error.
    skill_diagnostics = await diagnostics_of(client, skill, lambda d: "SD301" in codes(d))
    assert "SD204" not in codes(skill_diagnostics)


async def test_a_file_that_is_not_toml_is_shown_at_the_line_and_says_what_applies(
    deck: Deck, start_server: StartServer
) -> None:
    config = deck.project / "skilldeck.toml"
    config.write_text('profile = "dsh"\n[rules\nSD204 = "off"\n', encoding="utf-8")
    skill = deck.write(deck.project_dsh, "alpha", NO_DESCRIPTION)
    client = await start_server()

    [problem] = await diagnostics_of(client, config, lambda d: codes(d) == ["SD008"])
    assert problem.range.start.line == 1
    assert problem.message.startswith("invalid TOML: ")
    assert problem.message.endswith("; the defaults apply")
    assert "SD204" in codes(await diagnostics_of(client, skill, lambda d: "SD301" in codes(d)))
