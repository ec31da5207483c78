#!/usr/bin/env bash
# End-to-end test of the VS Code extension in a real VS Code (code-server 4.100.3 = VS Code
# 1.100.3 for the web), driven by headless Chromium through playwright-core.
#
#   scripts/e2e-vscode.sh              # everything: deps, code-server, .vsix, run, checks
#
# Environment (all optional):
#   SKILLDECK_E2E_PYTHON     interpreter with skilldeck installed, for the second run
#                            (importStrategy fromEnvironment; default: $REPO/.venv/bin/python)
#   SKILLDECK_E2E_ONLY       a regular expression: run only the matching browser checks
#                            (each one passes alone as in the full run)
#   SKILLDECK_E2E_WORKSPACE  folder to open (default: $REPO/examples/workspace)
#   SKILLDECK_E2E_DIR        scratch dir: code-server install, profiles, logs, screenshots
#                            (default: $REPO/.e2e, gitignored)
#   SKILLDECK_E2E_TIMEOUT    seconds the browser checks may take (default: 420)
#   SKILLDECK_E2E_VSIX       use this .vsix instead of building one
#   SKILLDECK_E2E_RUNS       which runs (default: "bundled from-environment")
#
# Two runs, as a new user and as a developer would install it:
#   1. bundled: a bare virtual environment (no skilldeck, nothing installed) first on PATH,
#      no skilldeck setting about the interpreter: the extension must find that python3
#      and run the server bundled in the .vsix. Every browser check runs.
#   2. fromEnvironment: `skilldeck.importStrategy` = fromEnvironment with
#      $SKILLDECK_E2E_PYTHON's folder first on PATH: the installed skilldeck must run.
#      The start-up checks, the Problems check and the check of a skill root created
#      after the start run (this server watches the roots itself, with watchfiles).
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

# 5. The interpreter a new user has: a bare virtual environment, nothing installed in it.
BARE="$E2E_DIR/bare-venv"
if [ ! -x "$BARE/bin/python3" ]; then
  rm -rf "$BARE"
  "$PYTHON" -m venv --without-pip "$BARE" || die "could not create a bare virtual environment in $BARE"
fi
! "$BARE/bin/python3" -c 'import skilldeck' 2>/dev/null || die "skilldeck is importable in the bare venv $BARE"
BARE_REAL="$("$BARE/bin/python3" -c 'import sys; print(sys.executable)')"
ENV_REAL="$(dirname "$PYTHON")"

CS_PID=""
cleanup() { if [ -n "$CS_PID" ]; then kill "$CS_PID" 2>/dev/null || true; wait "$CS_PID" 2>/dev/null || true; fi; }
trap cleanup EXIT

# run_editor NAME PATH_PREFIX EXPECT_SERVER EXPECT_PYTHON EXTRA_SETTINGS ONLY
#   A fresh profile with the .vsix installed, code-server started with PATH_PREFIX first on
#   PATH, and the browser checks (ONLY: a regular expression, or empty for all).
run_editor() {
  local name="$1" path_prefix="$2" expect_server="$3" expect_python="$4" extra="$5" only="$6"
  local run="$RUN/$name"
  rm -rf "$run" && mkdir -p "$run/user/User" "$run/ext"
  # The checks edit and rename skills: they work on a copy, never on the repository's files.
  cp -a "$WORKSPACE" "$run/workspace"
  # The user roots are on (HOME is the run's own, without them: a check creates one);
  # the window title is the active file's path, which the checks read.
  cat >"$run/user/User/settings.json" <<JSON
{
  $extra
  "skilldeck.includeUserRoots": true,
  "skilldeck.trace.server": "messages",
  "skilldeck.catalogTokenBudget": 50,
  "skilldeck.hosts": ["dsh", "codex"],
  "files.autoSave": "off",
  "security.workspace.trust.enabled": false,
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "editor.hover.delay": 100,
  "window.restoreWindows": "none",
  "window.title": "\${activeEditorLong}"
}
JSON
  "$CODE_SERVER" --user-data-dir "$run/user" --extensions-dir "$run/ext" --install-extension "$VSIX" >"$run/install-extension.log" 2>&1 ||
    { cat "$run/install-extension.log" >&2; die "code-server --install-extension failed"; }
  "$CODE_SERVER" --user-data-dir "$run/user" --extensions-dir "$run/ext" --list-extensions | grep -qx 'skilldeck.skilldeck' ||
    { cat "$run/install-extension.log" >&2; die "the extension is not listed after install"; }
  log "[$name] installed $(basename "$VSIX"); PATH starts with $path_prefix"

  # Start code-server on a free loopback port, with the run's interpreter first on PATH.
  # VS Code's server gives the extension host the environment of the user's login shell
  # (bash -ilc), not its own: the interpreter goes first on PATH in the run's own HOME's
  # .profile, as a user's shell profile would put it.
  mkdir -p "$run/home"
  printf 'export PATH="%s:$PATH"\n' "$path_prefix" >"$run/home/.profile"
  local port
  port="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close();})")"
  HOME="$run/home" PATH="$path_prefix:$PATH" "$CODE_SERVER" --auth none --bind-addr "127.0.0.1:$port" --disable-telemetry --disable-update-check \
    --disable-workspace-trust --user-data-dir "$run/user" --extensions-dir "$run/ext" "$run/workspace" \
    >"$run/code-server.log" 2>&1 &
  CS_PID=$!
  for _ in $(seq 1 120); do
    kill -0 "$CS_PID" 2>/dev/null || { cat "$run/code-server.log" >&2; die "code-server exited during start-up"; }
    curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
    sleep 0.5
  done
  curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 || { cat "$run/code-server.log" >&2; die "code-server did not answer on port $port within 60s"; }
  log "[$name] code-server listening on 127.0.0.1:$port"

  local t=$SECONDS status=0
  SKILLDECK_E2E_URL="http://127.0.0.1:$port/?folder=$(node -e 'console.log(encodeURIComponent(process.argv[1]))' "$run/workspace")" \
    SKILLDECK_E2E_WORKSPACE="$run/workspace" SKILLDECK_E2E_OUT="$run" SKILLDECK_E2E_CHROMIUM="$CHROMIUM" \
    SKILLDECK_E2E_USER_DIR="$run/user" SKILLDECK_E2E_HOME="$run/home" SKILLDECK_E2E_EXPECT_SERVER="$expect_server" \
    SKILLDECK_E2E_EXPECT_PYTHON="$expect_python" SKILLDECK_E2E_ONLY="$only" \
    timeout --kill-after=10 "$CHECK_TIMEOUT" node "$EXT/e2e/run.mjs" || status=$?
  cleanup
  CS_PID=""
  log "[$name] browser checks took $((SECONDS - t))s (total $((SECONDS - T0))s)"
  if [ "$status" -ne 0 ]; then
    [ "$status" -eq 124 ] && log "[$name] the checks timed out after ${CHECK_TIMEOUT}s"
    log "[$name] code-server log: $run/code-server.log; screenshots: $run/*.png"
    die "[$name] end-to-end checks failed (exit $status)"
  fi
}

rm -rf "$RUN" && mkdir -p "$RUN"
RUNS=" ${SKILLDECK_E2E_RUNS:-bundled from-environment} "
# 6. As a new user: nothing installed, nothing set.
if [[ "$RUNS" == *" bundled "* ]]; then
  run_editor bundled "$BARE/bin" bundled "$BARE_REAL" "" "${SKILLDECK_E2E_ONLY:-}"
fi
# 7. As a developer: the installed skilldeck (importStrategy fromEnvironment).
if [[ "$RUNS" == *" from-environment "* ]]; then
  run_editor from-environment "$ENV_REAL" environment "$ENV_REAL" '"skilldeck.importStrategy": "fromEnvironment",' \
    "${SKILLDECK_E2E_ONLY:-^(diagnostic in Problems|the server runs|a skill root created)}"
fi
log "PASS"
