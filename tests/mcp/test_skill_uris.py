"""``skill://`` URIs: every file path round-trips, and no text parses to a path that could
leave a skill's folder."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from skilldeck.mcp.skill_uris import SkillUri, parse_skill_uri, skill_uri

NAMES = st.from_regex(r"[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,2}", fullmatch=True)
SEGMENTS = st.text(min_size=1, max_size=12).filter(
    lambda segment: segment not in (".", "..") and not set(segment) & {"/", "\\", "\x00"}
)


@settings(max_examples=200, deadline=None)
@given(NAMES, st.lists(SEGMENTS, min_size=1, max_size=4))
def test_every_file_path_round_trips(name, segments):
    relative = "/".join(segments)
    assert parse_skill_uri(skill_uri(name, relative)) == SkillUri(name, relative)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40).map(lambda tail: "skill://code-review/" + tail))
def test_no_uri_parses_to_a_path_that_leaves_the_skill(uri):
    parsed = parse_skill_uri(uri)
    if isinstance(parsed, SkillUri):
        segments = parsed.relative.split("/")
        assert parsed.name == "code-review"
        assert all(segment not in ("", ".", "..") for segment in segments)
        assert "\\" not in parsed.relative and "\x00" not in parsed.relative


def test_refusals_say_why():
    assert parse_skill_uri("skill://code-review/../x") == (
        "the path must be a file inside the skill (no empty, '.' or '..' segments)"
    )
    assert parse_skill_uri("skill://code-review/%2E%2E/x") == parse_skill_uri(
        "skill://code-review/../x"
    )
    assert parse_skill_uri("skill://Code/SKILL.md") == "'Code' is not a skill name"
    assert parse_skill_uri("file:///etc/passwd") == "not a skill:// URI"
    assert parse_skill_uri("skill://a/SKILL.md?x=1") == "a skill URI has no query or fragment"
    assert parse_skill_uri("skill://a/b\\c") == "the URI contains a NUL or a backslash"
