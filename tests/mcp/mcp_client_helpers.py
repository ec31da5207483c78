"""Helpers of the ``skilldeck mcp`` tests: files on disk and the Skills extension's
requests sent with the SDK client's generic ``send_request``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from mcp.shared.exceptions import MCPError
from pydantic import TypeAdapter

from mcp import Client

ANY_RESULT: TypeAdapter[dict[str, Any]] = TypeAdapter(dict[str, Any])

#: Seconds a test waits for an event (a notification, a change served) before it calls it a
#: hang. The waits end as soon as the event comes, so this only bounds a failure: generous,
#: because on a loaded machine starting a server, the watches going live (after the first
#: answer and a quiet window) and a re-read take tens of seconds at worst.
HANG_S = 60.0


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def skill_text(name: str, description: str = "Does a thing when asked.", extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\n\nBody of {name}.\n"


class SkillsListParams(types.PaginatedRequestParams):
    pass


class SkillsListRequest(types.Request[SkillsListParams, str]):
    method: str = "skills/list"
    params: SkillsListParams


class SkillsGetParams(types.RequestParams):
    uri: str


class SkillsGetRequest(types.Request[SkillsGetParams, str]):
    method: str = "skills/get"
    params: SkillsGetParams


async def skills_list(client: Client, cursor: str | None = None) -> dict[str, Any]:
    request = SkillsListRequest(params=SkillsListParams(cursor=cursor))
    return await client.session.send_request(request, ANY_RESULT)


async def skills_get(client: Client, uri: str) -> dict[str, Any]:
    request = SkillsGetRequest(params=SkillsGetParams(uri=uri))
    return await client.session.send_request(request, ANY_RESULT)


async def refused_read(client: Client, uri: str) -> str:
    """The message of the ``-32602`` error a ``resources/read`` of ``uri`` gets."""
    with pytest.raises(MCPError) as refused:
        await client.read_resource(uri)
    assert refused.value.error.code == -32602
    return str(refused.value)
