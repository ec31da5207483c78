#!/usr/bin/env bash
# Try the language server in Neovim, headless: open a broken SKILL.md, print the
# diagnostics the server publishes, exit. (docs/editors.md; Debian 12: apt-get install neovim)
#
#   scripts/neovim-check.sh [PYTHON [LAUNCH...]]
#     PYTHON   interpreter (default: the repo's .venv/bin/python)
#     LAUNCH   what follows it (default: -m skilldeck serve); for the VS Code extension's
#              bundled server: clients/vscode/bundled/tool/launch.py serve
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="${1:-$repo/.venv/bin/python}"
shift || true
[ "$#" -gt 0 ] || set -- -m skilldeck serve
# Paths given relative to here stay right once Neovim runs in the scratch workspace.
absolute() { if [ -e "$1" ]; then printf '%s/%s' "$(cd "$(dirname "$1")" && pwd)" "$(basename "$1")"; else printf '%s' "$1"; fi; }
python="$(absolute "$python")"
args=()
for arg in "$@"; do args+=("$(absolute "$arg")"); done
set -- "${args[@]}"
command -v nvim >/dev/null || { echo "nvim not found (apt-get install neovim)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ws/.agents/skills/demo"
printf 'project-root = true\n' >"$work/ws/skilldeck.toml"
printf -- '---\nname: Demo_Skill\n---\n\nBody.\n' >"$work/ws/.agents/skills/demo/SKILL.md"
cmd="$(printf "'%s', " "$python" "$@")"
cat >"$work/init.lua" <<LUA
-- Neovim 0.7 (Debian 12) has vim.lsp.start_client; 0.11+ uses vim.lsp.config (docs/editors.md).
local root = vim.fn.getcwd()
local client_id = vim.lsp.start_client({
  name = 'skilldeck',
  cmd = { ${cmd} },
  root_dir = root,
  handlers = {
    ['textDocument/publishDiagnostics'] = function(_, result)
      if result.uri:match('SKILL%.md$') and #result.diagnostics > 0 then
        for _, d in ipairs(result.diagnostics) do
          io.stdout:write(string.format('%s:%d:%d %s %s\n', vim.uri_to_fname(result.uri):sub(#root + 2),
            d.range.start.line + 1, d.range.start.character + 1, d.code, d.message))
        end
        vim.schedule(function() vim.cmd('qall!') end)
      end
    end,
  },
})
vim.api.nvim_create_autocmd('BufReadPost', {
  pattern = '*/SKILL.md',
  callback = function(args) vim.lsp.buf_attach_client(args.buf, client_id) end,
})
vim.defer_fn(function() io.stdout:write('no diagnostics within 30 s\n'); vim.cmd('cquit!') end, 30000)
LUA
cd "$work/ws"
timeout 60 nvim --headless -u "$work/init.lua" .agents/skills/demo/SKILL.md
