#!/usr/bin/env bash
# An external, real MCP client against `skilldeck mcp`: the MCP Inspector in CLI mode
# (npm @modelcontextprotocol/inspector, `--cli`) lists the tools, prompts and resources of
# the example workspace, calls the `skill` tool, gets a prompt and reads a resource; each
# answer is checked (the tool's text must equal `skilldeck load`).
#
# Environment (optional):
#   SKILLDECK_INSPECTOR_DIR   where the Inspector is installed (default: $REPO/.e2e/inspector)
#   SKILLDECK_BIN             the skilldeck command (default: $REPO/.venv/bin/skilldeck)
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${SKILLDECK_INSPECTOR_DIR:-$REPO/.e2e/inspector}"
SKILLDECK="${SKILLDECK_BIN:-$REPO/.venv/bin/skilldeck}"
PYTHON="$(dirname "$SKILLDECK")/python"
WORKSPACE="$REPO/examples/workspace"
VERSION=2.12.0
INSPECTOR="$DIR/node_modules/.bin/mcp-inspector"

if [ ! -x "$INSPECTOR" ]; then
  echo "==> installing @modelcontextprotocol/inspector@$VERSION into $DIR"
  mkdir -p "$DIR"
  (cd "$DIR" && npm install --no-audit --no-fund --no-save "@modelcontextprotocol/inspector@$VERSION" >/dev/null)
fi

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# Empty user roots and a private cache: only the workspace's skills.
export DSH_HOME="$scratch/dsh" DSH_AGENTS_HOME="$scratch/agents" SKILLDECK_CACHE_DIR="$scratch/cache"

inspect() {
  # -e: the Inspector hands the server a minimal environment of its own
  timeout 120 "$INSPECTOR" --cli -e "DSH_HOME=$DSH_HOME" -e "DSH_AGENTS_HOME=$DSH_AGENTS_HOME" \
    -e "SKILLDECK_CACHE_DIR=$SKILLDECK_CACHE_DIR" "$SKILLDECK" mcp --cwd "$WORKSPACE" "$@"
}

echo "==> MCP Inspector --cli against skilldeck mcp ($WORKSPACE)"
inspect --method tools/list >"$scratch/tools.json"
inspect --method prompts/list >"$scratch/prompts.json"
inspect --method resources/list >"$scratch/resources.json"
inspect --method tools/call --tool-name skill --tool-arg name=code-review >"$scratch/call.json"
# An error result: newer Inspectors print it as {"error": {"code": "tool_is_error"}} and
# exit non-zero, older ones print the result itself.
inspect --method tools/call --tool-name skill --tool-arg name=no-such-skill >"$scratch/unknown.json" || true
inspect --method prompts/get --prompt-name release-notes >"$scratch/prompt.json"
inspect --method resources/read --uri skill://release-notes/template.md >"$scratch/read.json"
"$SKILLDECK" load code-review --cwd "$WORKSPACE" >"$scratch/load.txt"

"$PYTHON" - "$scratch" "$WORKSPACE" <<'EOF'
import json
import sys
from pathlib import Path

scratch, workspace = Path(sys.argv[1]), Path(sys.argv[2])


def read(name):
    return json.loads((scratch / name).read_text(encoding="utf-8"))


tools = [tool["name"] for tool in read("tools.json")["tools"]]
assert tools == ["skill"], tools
prompts = [prompt["name"] for prompt in read("prompts.json")["prompts"]]
assert prompts[0] == "skills_catalog" and "release-notes" in prompts, prompts
uris = [resource["uri"] for resource in read("resources.json")["resources"]]
assert "skill://code-review/SKILL.md" in uris, uris
call = read("call.json")
load = (scratch / "load.txt").read_text(encoding="utf-8")
assert call["isError"] is False and call["content"][0]["text"] + "\n" == load, call
unknown = read("unknown.json")
if "error" in unknown:
    assert unknown["error"]["code"] == "tool_is_error", unknown
else:
    assert unknown["isError"] is True, unknown
    assert unknown["content"][0]["text"].startswith('Error: skill "no-such-skill" is unknown')
prompt = read("prompt.json")["messages"][0]["content"]["text"]
assert prompt.startswith('<skill_content name="release-notes">'), prompt
template = workspace / ".dsh" / "skills" / "release-notes" / "template.md"
assert read("read.json")["contents"][0]["text"] == template.read_text(encoding="utf-8")
print(f"MCP Inspector: {len(tools)} tool, {len(prompts)} prompts, {len(uris)} resources; "
      "tools/call, prompts/get and resources/read as expected")
EOF
