#!/usr/bin/env bash
# End-to-end test of the VS Code extension in a real VS Code (code-server 4.100.3 = VS Code
# 1.100.3 for the web), driven by headless Chromium through playwright-core.
#
#   scripts/e2e-vscode.sh              # everything: deps, code-server, .vsix, run, checks
#
# Environment (all optional):
#   SKILLDECK_E2E_PYTHON     interpreter with skilldeck installed (default: $REPO/.venv/bin/python)
#   SKILLDECK_E2E_WORKSPACE  folder to open (default: $REPO/examples/workspace)
#   SKILLDECK_E2E_DIR        scratch dir: code-server install, profiles, logs, screenshots
#                            (default: $REPO/.e2e, gitignored)
#   SKILLDECK_E2E_TIMEOUT    seconds the browser checks may take (default: 420)
#   SKILLDECK_E2E_VSIX       use this .vsix instead of building one
#
# It never skips: if anything cannot be set up or the editor does not start, it exits non-zero
# with the reason; screenshots and logs land in $SKILLDECK_E2E_DIR/run/.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
EXT="$REPO/clients/vscode"
E2E_DIR="${SKILLDECK_E2E_DIR:-$REPO/.e2e}"
PYTHON="${SKILLDECK_E2E_PYTHON:-$REPO/.venv/bin/python}"
WORKSPACE="${SKILLDECK_E2E_WORKSPACE:-$REPO/examples/workspace}"
CHECK_TIMEOUT="${SKILLDECK_E2E_TIMEOUT:-420}"
CODE_SERVER_VERSION=4.100.3
CS_DIR="$E2E_DIR/code-server-$CODE_SERVER_VERSION"
CODE_SERVER="$CS_DIR/node_modules/.bin/code-server"
RUN="$E2E_DIR/run"
T0=$SECONDS

log() { printf '[e2e %4ds] %s\n' "$((SECONDS - T0))" "$*" >&2; }
die() { printf '[e2e %4ds] FAIL: %s\n' "$((SECONDS - T0))" "$*" >&2; exit 1; }

mkdir -p "$E2E_DIR"
[ -d "$WORKSPACE" ] || die "workspace $WORKSPACE does not exist"
[ -x "$PYTHON" ] || die "python $PYTHON is not executable (set SKILLDECK_E2E_PYTHON)"
"$PYTHON" -c 'import skilldeck' || die "skilldeck is not importable in $PYTHON"

# 1. System packages (Debian): chromium, ripgrep, and what code-server's native modules build with.
APT_PACKAGES=(build-essential pkg-config libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev ripgrep chromium)
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  [ "$(id -u)" = 0 ] || die "missing system packages (${missing[*]}); install them as root: apt-get install -y ${missing[*]}"
  log "apt-get install ${missing[*]}"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
CHROMIUM="$(command -v chromium || true)"
[ -n "$CHROMIUM" ] || die "chromium not found after install"

# 2. code-server, in its own folder (not one of the extension's dependencies).
if [ ! -x "$CODE_SERVER" ] || ! "$CODE_SERVER" --version 2>/dev/null | grep -q "^$CODE_SERVER_VERSION"; then
  t=$SECONDS
  log "installing code-server $CODE_SERVER_VERSION into $CS_DIR"
  rm -rf "$CS_DIR" && mkdir -p "$CS_DIR/tmp"
  # @vscode/ripgrep's postinstall downloads rg from GitHub; hand it the Debian binary via its cache.
  cache="$CS_DIR/tmp/vscode-ripgrep-cache-1.15.11"
  mkdir -p "$cache" "$CS_DIR/tmp/rg"
  cp "$(command -v rg)" "$CS_DIR/tmp/rg/rg"
  tar -C "$CS_DIR/tmp/rg" -czf "$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" rg
  printf '{ "name": "skilldeck-e2e-code-server", "private": true }\n' >"$CS_DIR/package.json"
  # code-server's postinstall runs nested npm installs that build native modules, so install
  # scripts must run for this one folder (npm 11 blocks them by default). As root, its
  # postinstall.sh also insists on npm_config_unsafe_perm=true (npm 11 itself ignores it).
  (cd "$CS_DIR" && TMPDIR="$CS_DIR/tmp" npm_config_yes=true npm_config_unsafe_perm=true \
    npm_config_dangerously_allow_all_scripts=true npm_config_audit=false npm_config_fund=false \
    npm install --no-save "code-server@$CODE_SERVER_VERSION" >"$CS_DIR/install.log" 2>&1) ||
    { tail -40 "$CS_DIR/install.log" >&2; die "npm install code-server@$CODE_SERVER_VERSION failed (log: $CS_DIR/install.log)"; }
  "$CODE_SERVER" --version >/dev/null 2>&1 || { tail -40 "$CS_DIR/install.log" >&2; die "code-server does not run after install"; }
  log "code-server installed in $((SECONDS - t))s"
fi
log "code-server $("$CODE_SERVER" --version | head -1)"

# 3. The browser driver (playwright-core, pinned by clients/vscode/e2e/package-lock.json).
if [ ! -d "$EXT/e2e/node_modules/playwright-core" ]; then
  log "npm ci in clients/vscode/e2e"
  (cd "$EXT/e2e" && npm ci --silent) || die "npm ci for the e2e driver failed"
fi

# 4. The .vsix under test.
VSIX="${SKILLDECK_E2E_VSIX:-}"
if [ -z "$VSIX" ]; then
  if [ ! -d "$EXT/node_modules" ]; then
    (cd "$EXT" && npm ci --silent) || die "npm ci for the extension failed"
  fi
  log "building the .vsix"
  (cd "$EXT" && npm run --silent package >"$E2E_DIR/package.log" 2>&1) || { cat "$E2E_DIR/package.log" >&2; die "npm run package failed"; }
  VSIX="$EXT/skilldeck.vsix"
fi
[ -f "$VSIX" ] || die "no .vsix at $VSIX"

# 5. Fresh profile with the extension installed and the interpreter set.
rm -rf "$RUN" && mkdir -p "$RUN/user/User" "$RUN/ext"
# The checks edit and rename skills: they work on a copy, never on the repository's files.
cp -a "$WORKSPACE" "$RUN/workspace"
WORKSPACE="$RUN/workspace"
cat >"$RUN/user/User/settings.json" <<JSON
{
  "skilldeck.server.pythonPath": "$PYTHON",
  "skilldeck.includeUserRoots": false,
  "skilldeck.trace.server": "messages",
  "skilldeck.catalogTokenBudget": 50,
  "skilldeck.hosts": ["dsh", "codex"],
  "security.workspace.trust.enabled": false,
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "editor.hover.delay": 100,
  "window.restoreWindows": "none"
}
JSON
"$CODE_SERVER" --user-data-dir "$RUN/user" --extensions-dir "$RUN/ext" --install-extension "$VSIX" >"$RUN/install-extension.log" 2>&1 ||
  { cat "$RUN/install-extension.log" >&2; die "code-server --install-extension failed"; }
"$CODE_SERVER" --user-data-dir "$RUN/user" --extensions-dir "$RUN/ext" --list-extensions | grep -qx 'skilldeck.skilldeck' ||
  { cat "$RUN/install-extension.log" >&2; die "the extension is not listed after install"; }
log "installed $(basename "$VSIX")"

# 6. Start code-server on a free loopback port.
PORT="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close();})")"
"$CODE_SERVER" --auth none --bind-addr "127.0.0.1:$PORT" --disable-telemetry --disable-update-check \
  --disable-workspace-trust --user-data-dir "$RUN/user" --extensions-dir "$RUN/ext" "$WORKSPACE" \
  >"$RUN/code-server.log" 2>&1 &
CS_PID=$!
cleanup() { kill "$CS_PID" 2>/dev/null || true; wait "$CS_PID" 2>/dev/null || true; }
trap cleanup EXIT
for _ in $(seq 1 120); do
  kill -0 "$CS_PID" 2>/dev/null || { cat "$RUN/code-server.log" >&2; die "code-server exited during start-up"; }
  curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
  sleep 0.5
done
curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 || { cat "$RUN/code-server.log" >&2; die "code-server did not answer on port $PORT within 60s"; }
log "code-server listening on 127.0.0.1:$PORT"

# 7. Drive it.
t=$SECONDS
status=0
SKILLDECK_E2E_URL="http://127.0.0.1:$PORT/?folder=$(node -e 'console.log(encodeURIComponent(process.argv[1]))' "$WORKSPACE")" \
  SKILLDECK_E2E_WORKSPACE="$WORKSPACE" SKILLDECK_E2E_OUT="$RUN" SKILLDECK_E2E_CHROMIUM="$CHROMIUM" \
  SKILLDECK_E2E_USER_DIR="$RUN/user" \
  timeout --kill-after=10 "$CHECK_TIMEOUT" node "$EXT/e2e/run.mjs" || status=$?
log "browser checks took $((SECONDS - t))s (total $((SECONDS - T0))s)"
if [ "$status" -ne 0 ]; then
  [ "$status" -eq 124 ] && log "the checks timed out after ${CHECK_TIMEOUT}s"
  log "code-server log: $RUN/code-server.log; screenshots: $RUN/*.png"
  die "end-to-end checks failed (exit $status)"
fi
log "PASS"
