from __future__ import annotations

import pytest

from skilldeck.engine.model_view._gesture import (
    Mention,
    SkillInjection,
    expand_user_message,
    find_skill_mentions,
)
from skilldeck.engine.model_view._skill_tool import render_skill_content
from skilldeck.engine.registry._model import InvocationPolicy, SkillDefinition
from skilldeck.engine.registry._registry import SkillRegistry


def definition(name: str, body: str, *, model: bool = True, user: bool = True) -> SkillDefinition:
    return SkillDefinition(
        name=name,
        description=f"{name}.",
        source="runtime",
        provider="runtime",
        invocation=InvocationPolicy(model_invocable=model, user_invocable=user),
        content=body,
    )


@pytest.fixture
def registry() -> SkillRegistry:
    deck = SkillRegistry()
    deck.register(definition("hidden-demo", "Say PINEAPPLE.", model=False, user=True))
    deck.register(definition("shared", "Shared body."))
    deck.register(definition("model-only", "Model-only body.", model=True, user=False))
    return deck


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("/shared", [Mention("shared", 0, 7)]),
        ("/shared go", [Mention("shared", 0, 7)]),
        ("please use /shared now", [Mention("shared", 11, 18)]),
        ("line one\n/shared", [Mention("shared", 9, 16)]),
        ("tab\t/a-b\t", [Mention("a-b", 4, 8)]),
        ("/a /b", [Mention("a", 0, 2), Mention("b", 3, 5)]),
        ("/x /x", [Mention("x", 0, 2), Mention("x", 3, 5)]),
        ("/shared\n", [Mention("shared", 0, 7)]),
    ],
)
def test_mentions(message: str, expected: list[Mention]) -> None:
    assert find_skill_mentions(message) == expected


@pytest.mark.parametrize(
    "message",
    [
        "a/b",
        "see foo/shared too",
        "/shared.",
        "/shared,",
        "(/shared)",
        "/shared/refs",
        "look under /usr/bin",  # a path: a second '/' breaks the token
        "http://x",
        "5/8 odds",
        "/Shared",
        "/shared_name",
        "/-shared",
        "/shared-",
        "//shared",
        "/",
        "",
    ],
)
def test_not_mentions(message: str) -> None:
    assert find_skill_mentions(message) == []


async def test_injects_user_invocable_skills_once_in_order_of_first_mention(
    registry: SkillRegistry,
) -> None:
    injections = await expand_user_message(
        registry, "/shared then /hidden-demo and /shared again, /hidden-demo"
    )
    shared = await registry.get("shared")
    hidden = await registry.get("hidden-demo")
    assert shared is not None and hidden is not None
    assert injections == [
        SkillInjection("shared", render_skill_content(shared)),
        SkillInjection("hidden-demo", render_skill_content(hidden)),
    ]
    assert injections[1].text == "\n".join(
        [
            '<skill_content name="hidden-demo">',
            "<skill_resources>",
            'This skill\'s resources are managed by its provider "runtime".',
            "Open a resource only when the instructions call for it.",
            "</skill_resources>",
            "",
            "<skill_instructions>",
            "Say PINEAPPLE.",
            "</skill_instructions>",
            "</skill_content>",
        ]
    )


async def test_model_only_and_unknown_names_stay_plain_prose(registry: SkillRegistry) -> None:
    assert await expand_user_message(registry, "/model-only run") == []
    assert await expand_user_message(registry, "/absent-skill do it") == []
    assert await expand_user_message(registry, "please /shared.") == []
    assert [i.name for i in await expand_user_message(registry, "/absent /shared")] == ["shared"]


@pytest.mark.parametrize(
    ("message", "names"),
    [
        ("```sh\nrm -rf /tmp /var/cache\n```\n/shared now", ["shared"]),
        ("~~~\n/shared\n~~~", []),
        ("```\n/shared\n", []),  # an unclosed fence runs to the end
        ("````\n```\n/shared\n````\n/tmp", ["tmp"]),  # a shorter fence does not close
        ("```\n/a\n~~~\n/b\n```\n/c", ["c"]),  # the other fence character does not close
        ("   ```\n/a\n```", []),
        ("    ```\n/a\n", ["a"]),  # four spaces: not a fence
        ("```py `x`\n/a\n", ["a"]),  # a backtick fence's info string has no backtick
        ("\r\n```\r\n/a\r\n```\r\n/b", ["b"]),
        ("```\r/a\r```\r/b", ["b"]),
        ("x ```\n/a\n```\n/b", ["a"]),  # a fence mark after text on its line: no fence
        ("```\n/a\n``` ```\n/b\n```\n/c", ["c"]),  # two marks on a line: not a close
        ("~~~\n/a\n~~~ ~~~\n/b\n~~~~\n/c", ["c"]),
        ("run `/shared` and /tmp", ["tmp"]),
        ("run `` /shared ` `` /tmp", ["tmp"]),
        ("run ` /a` ` /b ``", ["b"]),  # the run of two is unmatched: literal
        ("a `x\n/y` /z", ["z"]),  # a code span may cross a line break
        ("a `x\n\n/y `", ["y"]),  # but not a paragraph
        ("unclosed ` /shared", ["shared"]),
    ],
)
def test_mentions_in_code_are_not_gestures(message: str, names: list[str]) -> None:
    assert [m.name for m in find_skill_mentions(message)] == names


async def test_code_does_not_inject(registry: SkillRegistry) -> None:
    message = "```\n/shared\n```\nand `/hidden-demo` too"
    assert await expand_user_message(registry, message) == []
