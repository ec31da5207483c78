#!/usr/bin/env bash
# The language server's CPU while VS Code (code-server) idles on a generated deck.
#
#   benchmarks/editor/idle.sh [CORPUS]     # default: benchmarks/corpus/n10000-varied
#
# Needs what scripts/e2e-vscode.sh installs (code-server under .e2e/, chromium, the e2e
# driver's playwright-core) and a built clients/vscode/skilldeck.vsix: run that script
# once first. SKILLDECK_IDLE_PYTHONPATH runs another checkout's server (A/B against an
# older commit: git worktree add /tmp/old <commit>; SKILLDECK_IDLE_PYTHONPATH=/tmp/old/server).
# VS Code pulls workspace diagnostics every two seconds, so this is what a user pays for
# as long as the editor is open.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CORPUS="$(cd "${1:-$REPO/benchmarks/corpus/n10000-varied}" && pwd)"
CODE_SERVER="$REPO/.e2e/code-server-4.100.3/node_modules/.bin/code-server"
VSIX="$REPO/clients/vscode/skilldeck.vsix"
[ -x "$CODE_SERVER" ] || { echo "run scripts/e2e-vscode.sh once first (no code-server)" >&2; exit 1; }
[ -f "$VSIX" ] || { echo "build the extension first: (cd clients/vscode && npm run package)" >&2; exit 1; }
[ -f "$CORPUS/corpus.json" ] || { echo "no corpus at $CORPUS (benchmarks/corpus.py makes one)" >&2; exit 1; }
RUN="$(mktemp -d /tmp/skilldeck-idle-XXXXXX)"
mkdir -p "$RUN/user/User" "$RUN/ext"
cat >"$RUN/user/User/settings.json" <<JSON
{
  "skilldeck.server.pythonPath": "$REPO/.venv/bin/python",
  "skilldeck.includeUserRoots": true,
  "skilldeck.customSkillDirs": ["$CORPUS/custom/skills"],
  "security.workspace.trust.enabled": false,
  "workbench.startupEditor": "none",
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false
}
JSON
"$CODE_SERVER" --user-data-dir "$RUN/user" --extensions-dir "$RUN/ext" --install-extension "$VSIX" >"$RUN/install.log" 2>&1
PORT="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close();})")"
env PYTHONPATH="${SKILLDECK_IDLE_PYTHONPATH:-}" DSH_HOME="$CORPUS/home/dsh" DSH_AGENTS_HOME="$CORPUS/home/agents" \
  SKILLDECK_CACHE_DIR="$RUN/cache" \
  "$CODE_SERVER" --auth none --bind-addr "127.0.0.1:$PORT" --disable-telemetry --disable-update-check \
  --disable-workspace-trust --user-data-dir "$RUN/user" --extensions-dir "$RUN/ext" "$CORPUS/project" \
  >"$RUN/code-server.log" 2>&1 &
CS_PID=$!
trap 'kill "$CS_PID" 2>/dev/null || true; wait "$CS_PID" 2>/dev/null || true; rm -rf "$RUN"' EXIT
for _ in $(seq 1 120); do
  curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
  sleep 0.5
done
SKILLDECK_IDLE_URL="http://127.0.0.1:$PORT/?folder=$(node -e 'console.log(encodeURIComponent(process.argv[1]))' "$CORPUS/project")" \
  node "$REPO/clients/vscode/e2e/idle-cpu.mjs"
