-- skilldeck in Neovim 0.7 to 0.10 (init.lua). docs/editors.md; checked by scripts/editors-check.sh.
local function on_attach(_, bufnr)
  -- Completion with <C-x><C-o>, and the usual LSP keys (0.11 sets these itself). The
  -- omnifunc is set once the Markdown filetype plugin, which sets its own, has run.
  vim.schedule(function()
    vim.api.nvim_buf_set_option(bufnr, 'omnifunc', 'v:lua.vim.lsp.omnifunc')
  end)
  local opts = { buffer = bufnr }
  vim.keymap.set('n', 'K', vim.lsp.buf.hover, opts)
  vim.keymap.set('n', 'gd', vim.lsp.buf.definition, opts)
  vim.keymap.set('n', 'gr', vim.lsp.buf.references, opts)
  vim.keymap.set('n', '<leader>rn', vim.lsp.buf.rename, opts)
  vim.keymap.set('n', '<leader>ca', vim.lsp.buf.code_action, opts)
  vim.keymap.set('n', '[d', vim.diagnostic.goto_prev, opts)
  vim.keymap.set('n', ']d', vim.diagnostic.goto_next, opts)
end

local client_id
vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
  pattern = { '*/SKILL.md', '*/.dsh/skills/*.md', '*/.agents/skills/*.md' },
  callback = function(args)
    -- One server, started with the first skill file, for the folder Neovim runs in.
    if not (client_id and vim.lsp.get_client_by_id(client_id)) then
      client_id = vim.lsp.start_client({
        name = 'skilldeck',
        cmd = { 'skilldeck', 'serve' },
        root_dir = vim.fn.getcwd(),
        on_attach = on_attach,
      })
    end
    vim.lsp.buf_attach_client(args.buf, client_id)
  end,
})
