from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import jsonschema
import pytest

from skilldeck.engine.model_view._skill_tool import (
    SKILL_TOOL_NAME,
    SkillToolResult,
    execute_skill_tool,
    render_skill_content,
    skill_tool_schema,
)
from skilldeck.engine.registry._model import (
    DirectoryResourceBase,
    InvocationPolicy,
    OpaqueResourceBase,
    ResourceBase,
    SkillCandidate,
    SkillDefinition,
    UrlResourceBase,
)
from skilldeck.engine.registry._provider import LookupOptions, ProviderControl, ProviderObservation
from skilldeck.engine.registry._registry import SkillRegistry
from skilldeck.engine.registry._scope import Scope


def definition(
    name: str,
    content: str = "Body.",
    *,
    model: bool = True,
    user: bool = True,
    base: ResourceBase | None = None,
    provider: str = "runtime",
) -> SkillDefinition:
    return SkillDefinition(
        name=name,
        description=f"{name} description",
        source="runtime",
        provider=provider,
        invocation=InvocationPolicy(model_invocable=model, user_invocable=user),
        resource_base=base,
        content=content,
    )


def content_block(name: str, resources: list[str], body: str) -> str:
    return "\n".join(
        [
            f'<skill_content name="{name}">',
            "<skill_resources>",
            *resources,
            "</skill_resources>",
            "",
            "<skill_instructions>",
            body,
            "</skill_instructions>",
            "</skill_content>",
        ]
    )


ON_DEMAND = "Open a resource only when the instructions call for it."


def test_schema_is_valid_json_schema_with_one_required_kebab_name() -> None:
    schema = skill_tool_schema()
    assert schema["name"] == SKILL_TOOL_NAME == "skill"
    assert isinstance(schema["description"], str) and "skill" in schema["description"]
    parameters = schema["parameters"]
    jsonschema.Draft202012Validator.check_schema(parameters)
    assert parameters["required"] == ["name"]
    assert list(parameters["properties"]) == ["name"]
    validator = jsonschema.Draft202012Validator(parameters)
    assert validator.is_valid({"name": "release-notes"})
    for bad in ({}, {"name": 3}, {"name": "Bad_Name"}, {"name": "a--b"}, {"name": "x", "y": 1}):
        assert not validator.is_valid(bad)
    # each call hands out a fresh dict, so a caller's edits cannot leak
    schema["parameters"]["required"].append("other")
    assert skill_tool_schema()["parameters"]["required"] == ["name"]


def test_directory_resource_guidance() -> None:
    loaded = definition("demo", "Do X.\nThen Y.", base=DirectoryResourceBase("/skills/demo"))
    assert render_skill_content(loaded) == content_block(
        "demo",
        [
            "Skill folder: /skills/demo",
            "Relative paths in these instructions are relative to the skill folder; resolve "
            f"them there and do not leave the folder. {ON_DEMAND}",
        ],
        "Do X.\nThen Y.",
    )


def test_url_resource_guidance() -> None:
    loaded = definition("demo", base=UrlResourceBase("https://skills.example.test/demo?a=1&b=2"))
    assert render_skill_content(loaded) == content_block(
        "demo",
        [
            "Skill base URL: https://skills.example.test/demo?a=1&amp;b=2",
            "Relative URLs in these instructions are relative to the skill base URL; resolve "
            f"them there and do not leave it. {ON_DEMAND}",
        ],
        "Body.",
    )


def test_opaque_resource_guidance() -> None:
    loaded = definition("demo", base=OpaqueResourceBase("call <fetch_resource> & wait"))
    assert render_skill_content(loaded) == content_block(
        "demo",
        [
            "How to reach this skill's resources: call &lt;fetch_resource&gt; &amp; wait",
            ON_DEMAND,
        ],
        "Body.",
    )


def test_no_resource_base_names_the_provider() -> None:
    loaded = definition("demo", provider="remote <store>")
    assert render_skill_content(loaded) == content_block(
        "demo",
        [
            'This skill\'s resources are managed by its provider "remote &lt;store&gt;".',
            ON_DEMAND,
        ],
        "Body.",
    )


def test_name_attribute_is_escaped() -> None:
    # names from a registry are kebab-case; the renderer still never trusts them
    odd = SkillDefinition(
        name='a"b<c>&d', description="x", source="s", provider="p", content="<b>kept</b>"
    )
    rendered = render_skill_content(odd)
    assert rendered.startswith('<skill_content name="a&quot;b&lt;c&gt;&amp;d">\n')
    assert "<b>kept</b>" in rendered  # bodies are trusted and embedded verbatim


async def test_tool_loads_the_current_body_with_directory_guidance() -> None:
    registry = SkillRegistry()
    registry.register(definition("demo", "Version one.", base=DirectoryResourceBase("/s/demo")))
    result = await execute_skill_tool(registry, {"name": "demo"})
    assert result == SkillToolResult(
        True,
        content_block(
            "demo",
            [
                "Skill folder: /s/demo",
                "Relative paths in these instructions are relative to the skill folder; "
                f"resolve them there and do not leave the folder. {ON_DEMAND}",
            ],
            "Version one.",
        ),
        None,
    )


async def test_three_distinct_errors() -> None:
    registry = SkillRegistry()
    registry.register(definition("user-only", model=False, user=True))
    registry.register(definition("model-only", "Model-only body.", model=True, user=False))

    invalid = await execute_skill_tool(registry, {"name": "Bad_Name"})
    assert invalid == SkillToolResult(
        False,
        'Error: invalid skill name: got "Bad_Name". Pass the exact kebab-case name of a skill '
        "from the available skills catalog.",
        "invalid-name",
    )
    unknown = await execute_skill_tool(registry, {"name": "missing"})
    assert unknown == SkillToolResult(
        False,
        'Error: skill "missing" is unknown or no longer available. Use only names from the '
        "latest available skills catalog.",
        "unknown-skill",
    )
    denied = await execute_skill_tool(registry, {"name": "user-only"})
    assert denied == SkillToolResult(
        False,
        'Error: skill "user-only" is not available for model invocation; only the user can '
        "invoke it.",
        "not-model-invocable",
    )
    # a skill nobody may invoke is not offered to the user either
    registry.register(definition("nobody", model=False, user=False))
    nobody = await execute_skill_tool(registry, {"name": "nobody"})
    assert nobody == SkillToolResult(
        False, 'Error: skill "nobody" is not available for model invocation.', "not-model-invocable"
    )
    # user_invocable=False does not restrict the model-facing tool
    allowed = await execute_skill_tool(registry, {"name": "model-only"})
    assert allowed.ok and allowed.error is None and "Model-only body." in allowed.text


@pytest.mark.parametrize(
    ("arguments", "given"),
    [
        ({}, "no name"),
        ({"name": None}, "no name"),
        ({"name": 42}, "a value of type int"),
        ({"name": ""}, '""'),
        ({"name": "X" * 81}, '"' + "X" * 80 + '..."'),
        ({"name": 'quo"te'}, '"quo\\"te"'),
    ],
)
async def test_invalid_name_shapes(arguments: dict[str, object], given: str) -> None:
    result = await execute_skill_tool(SkillRegistry(), arguments)
    assert result.error == "invalid-name" and not result.ok
    assert result.text == (
        f"Error: invalid skill name: got {given}. Pass the exact kebab-case name of a skill "
        "from the available skills catalog."
    )


class PolicyProbe:
    """A provider whose loaded definitions disagree with its catalog, to prove rechecks."""

    def __init__(self, *, complete: bool = True) -> None:
        self.loads: list[str] = []
        self.complete = complete

    @property
    def name(self) -> str:
        return "probe"

    async def list(self, options: LookupOptions) -> ProviderObservation:
        def candidate(name: str, model: bool) -> SkillCandidate:
            return SkillCandidate(
                name=name,
                description=name,
                source="test",
                provider="probe",
                invocation=InvocationPolicy(model_invocable=model),
                rank=1,
                locator=name,
            )

        candidates: Sequence[SkillCandidate] = [
            candidate("denied", False),
            candidate("raced", True),
            candidate("vanishing", True),
        ]
        return ProviderObservation(candidates, self.complete)

    async def get(
        self, candidate: SkillCandidate, options: LookupOptions
    ) -> SkillDefinition | None:
        self.loads.append(candidate.name)
        if candidate.name == "vanishing":
            return None
        return SkillDefinition(
            name=candidate.name,
            description=candidate.description,
            source="test",
            provider="probe",
            invocation=InvocationPolicy(model_invocable=False),
            content="Secret instructions.",
        )


async def test_policy_is_checked_before_loading_and_again_after() -> None:
    registry = SkillRegistry()
    probe = PolicyProbe()

    def create(control: ProviderControl) -> PolicyProbe:
        return probe

    registry.register_provider(create)
    denied = await execute_skill_tool(registry, {"name": "denied"})
    raced = await execute_skill_tool(registry, {"name": "raced"})
    vanished = await execute_skill_tool(registry, {"name": "vanishing"})
    assert [denied.error, raced.error, vanished.error] == [
        "not-model-invocable",
        "not-model-invocable",
        "unknown-skill",
    ]
    assert probe.loads == ["raced", "vanishing"]
    assert "Secret instructions." not in denied.text + raced.text


async def test_a_name_missing_from_an_incomplete_snapshot_is_still_tried() -> None:
    registry = SkillRegistry()
    registry.register_provider(lambda control: PolicyProbe(complete=False))
    registry.register(definition("runtime-one", "Runtime body."))
    result = await execute_skill_tool(registry, {"name": "runtime-one"})
    assert result.ok and "Runtime body." in result.text
    assert (await execute_skill_tool(registry, {"name": "nowhere"})).error == "unknown-skill"


async def test_tool_resolves_the_scope_it_is_given() -> None:
    registry = SkillRegistry()
    preset = Scope("preset")
    registry.register(definition("preset-only", "Preset body."), scope=preset)
    assert (await execute_skill_tool(registry, {"name": "preset-only"})).error == "unknown-skill"
    scoped = await execute_skill_tool(registry, {"name": "preset-only"}, scope=preset)
    assert scoped.ok and "Preset body." in scoped.text


async def test_removed_skill_is_no_longer_available() -> None:
    registry = SkillRegistry()
    dispose = registry.register(definition("temp"))
    assert (await execute_skill_tool(registry, {"name": "temp"})).ok
    dispose()
    assert (await execute_skill_tool(registry, {"name": "temp"})).error == "unknown-skill"


class OneFileProvider:
    """Serves one skill whose body is the current text of a real file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @property
    def name(self) -> str:
        return "one-file"

    async def list(self, options: LookupOptions) -> list[SkillCandidate]:
        return [
            SkillCandidate(
                name="on-disk",
                description="On disk.",
                source="custom",
                provider="one-file",
                rank=300,
                resource_base=DirectoryResourceBase(str(self.path.parent)),
            )
        ]

    async def get(self, candidate: SkillCandidate, options: LookupOptions) -> SkillDefinition:
        return SkillDefinition(
            name="on-disk",
            description="On disk.",
            source="custom",
            provider="one-file",
            resource_base=DirectoryResourceBase(str(self.path.parent)),
            content=self.path.read_text(),
        )


async def test_each_call_reads_the_body_afresh(tmp_path: Path) -> None:
    body = tmp_path / "on-disk" / "body.md"
    body.parent.mkdir()
    body.write_text("First body.")
    registry = SkillRegistry()
    registry.register_provider(lambda control: OneFileProvider(body))
    first = await execute_skill_tool(registry, {"name": "on-disk"})
    body.write_text("Second body.")
    second = await execute_skill_tool(registry, {"name": "on-disk"})
    assert "First body." in first.text
    assert "Second body." in second.text and "First body." not in second.text
    assert f"Skill folder: {body.parent}\n" in second.text
