-- skilldeck in Neovim 0.11+ (init.lua). docs/editors.md; checked by scripts/editors-check.sh.
vim.lsp.config('skilldeck', {
  cmd = { 'skilldeck', 'serve' },
  filetypes = { 'markdown' },
  -- One server per project. A skill of your own (~/.agents/skills, ~/.dsh/skills) joins the
  -- server of the project you work in: a marker such as `.agents` would make $HOME the
  -- root of a second server that sees no project.
  root_dir = function(bufnr, on_dir)
    local file = vim.api.nvim_buf_get_name(bufnr)
    local home = vim.fs.normalize(vim.env.HOME or '~')
    local user_skill = file:find(home .. '/.agents/skills/', 1, true) == 1
      or file:find(home .. '/.dsh/skills/', 1, true) == 1
    local from = user_skill and vim.fn.getcwd() or bufnr
    on_dir(vim.fs.root(from, { 'skilldeck.toml', '.git' }) or vim.fn.getcwd())
  end,
})
vim.lsp.enable('skilldeck')
