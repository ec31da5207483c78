#!/usr/bin/env bash
# Opening and reopening a workspace in VS Code (code-server), timed to the first diagnostic.
#
#   benchmarks/editor/reopen.sh [N]     # N real skills (benchmarks/real_corpus.py), default 500
#   SKILLDECK_VSIX=other.vsix benchmarks/editor/reopen.sh   # another build (A/B)
#
# Three opens of the same N-skill workspace with the packaged extension, as a new user runs
# it (the bundled server, a bare Python first on PATH): the first open (a fresh profile;
# it opens a skill file, so the next opens restore an editor), a reopen in a new browser
# page of the same code-server, and a reopen after code-server restarted. Each prints the
# milliseconds from the page load to: the workbench, the extension's activation
# (exthost.log), the interpreter search's start and end and the server's start (the
# Skilldeck output), and the first diagnostic counted in the status bar.
#
# Needs what scripts/e2e-vscode.sh installs (.e2e/: code-server, the bare venv, the
# driver's playwright-core) and a built clients/vscode/skilldeck.vsix.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
N="${1:-500}"
CODE_SERVER="$REPO/.e2e/code-server-4.100.3/node_modules/.bin/code-server"
VSIX="${SKILLDECK_VSIX:-$REPO/clients/vscode/skilldeck.vsix}"
BARE="$REPO/.e2e/bare-venv"
[ -x "$CODE_SERVER" ] && [ -x "$BARE/bin/python3" ] || { echo "run scripts/e2e-vscode.sh once first" >&2; exit 1; }
[ -f "$VSIX" ] || { echo "build the extension first: (cd clients/vscode && npm run package)" >&2; exit 1; }
CORPUS="$REPO/benchmarks/corpus/real-n$N"
[ -f "$CORPUS/corpus.json" ] || "$REPO/.venv/bin/python" "$REPO/benchmarks/real_corpus.py" "$CORPUS" --n "$N" >/dev/null
RUN="$(mktemp -d /tmp/skilldeck-reopen-XXXXXX)"
mkdir -p "$RUN/user/User" "$RUN/ext" "$RUN/home"
cat >"$RUN/user/User/settings.json" <<JSON
{
  "skilldeck.includeUserRoots": false,
  "security.workspace.trust.enabled": false,
  "workbench.startupEditor": "none",
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false
}
JSON
printf 'export PATH="%s:$PATH"\n' "$BARE/bin" >"$RUN/home/.profile"
"$CODE_SERVER" --user-data-dir "$RUN/user" --extensions-dir "$RUN/ext" --install-extension "$VSIX" >"$RUN/install.log" 2>&1
PORT="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close();})")"
CS_PID=""
start_code_server() {
  HOME="$RUN/home" PATH="$BARE/bin:$PATH" SKILLDECK_CACHE_DIR="$RUN/cache" \
    "$CODE_SERVER" --auth none --bind-addr "127.0.0.1:$PORT" --disable-telemetry --disable-update-check \
    --disable-workspace-trust --user-data-dir "$RUN/user" --extensions-dir "$RUN/ext" "$CORPUS/project" \
    >>"$RUN/code-server.log" 2>&1 &
  CS_PID=$!
  for _ in $(seq 1 120); do
    curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  echo "code-server did not start" >&2
  exit 1
}
stop_code_server() { kill "$CS_PID" 2>/dev/null || true; wait "$CS_PID" 2>/dev/null || true; }
trap 'stop_code_server; [ -n "${SKILLDECK_KEEP:-}" ] && echo "kept $RUN" >&2 || rm -rf "$RUN"' EXIT
URL="http://127.0.0.1:$PORT/?folder=$(node -e 'console.log(encodeURIComponent(process.argv[1]))' "$CORPUS/project")"
FIRST="$(cd "$CORPUS/project" && find .dsh/skills -name SKILL.md | LC_ALL=C sort | awk "NR == 1")"
drive() { node "$REPO/clients/vscode/e2e/open-timing.mjs" "$URL" "$RUN/user" "$@"; }
start_code_server
drive "first open" "$FIRST"
drive "reopen (new page)"
stop_code_server
start_code_server
drive "reopen (code-server restarted)"
