import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkSkilldeckImport, chooseInterpreter, importFailureMessage, installCommand } from '../src/interpreter';

describe('chooseInterpreter', () => {
  it('prefers the Python extension over the setting', () => {
    assert.deepEqual(chooseInterpreter({ pythonExtension: '/envs/a/bin/python', setting: '/usr/bin/python3.12' }), {
      command: '/envs/a/bin/python',
      source: 'python-extension',
    });
  });

  it('falls back to the setting when the Python extension gives nothing', () => {
    assert.deepEqual(chooseInterpreter({ pythonExtension: undefined, setting: ' /opt/py/bin/python ' }), {
      command: '/opt/py/bin/python',
      source: 'setting',
    });
    assert.deepEqual(chooseInterpreter({ pythonExtension: '   ', setting: '/opt/py/bin/python' }).source, 'setting');
  });

  it('falls back to python3 when both are absent or blank', () => {
    assert.deepEqual(chooseInterpreter({}), { command: 'python3', source: 'default' });
    assert.deepEqual(chooseInterpreter({ pythonExtension: null, setting: '' }), { command: 'python3', source: 'default' });
  });
});

describe('installCommand', () => {
  it('quotes paths with spaces', () => {
    assert.equal(installCommand('/usr/bin/python3'), '/usr/bin/python3 -m pip install skilldeck');
    assert.equal(installCommand('/My Envs/py/bin/python'), "'/My Envs/py/bin/python' -m pip install skilldeck");
  });
});

function fakePython(script: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'skilldeck-py-'));
  const path = join(dir, 'python');
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('checkSkilldeckImport', () => {
  it('passes when the interpreter exits 0 and receives -c "import skilldeck"', async () => {
    const python = fakePython('[ "$1" = "-c" ] && [ "$2" = "import skilldeck" ] && exit 0; exit 3');
    assert.deepEqual(await checkSkilldeckImport(python), { ok: true });
  });

  it('reports a missing module as not-installed with the last stderr line', async () => {
    const python = fakePython(
      'echo "Traceback (most recent call last):" >&2; echo "ModuleNotFoundError: No module named \'skilldeck\'" >&2; exit 1',
    );
    const check = await checkSkilldeckImport(python);
    assert.deepEqual(check, { ok: false, reason: 'not-installed', detail: "ModuleNotFoundError: No module named 'skilldeck'" });
    assert.equal(
      importFailureMessage({ command: python, source: 'setting' }, check),
      `Skilldeck: the skilldeck package is not installed in ${python} (from the skilldeck.server.pythonPath setting). Install it with: ${python} -m pip install skilldeck`,
    );
  });

  it('reports an interpreter that does not exist as not-found', async () => {
    const check = await checkSkilldeckImport('/nonexistent/bin/python-skilldeck');
    assert.equal(check.ok, false);
    assert.equal(check.ok === false && check.reason, 'not-found');
    assert.match(importFailureMessage({ command: '/nonexistent/bin/python-skilldeck', source: 'default' }, check), /cannot run the Python interpreter/);
  });

  it('reports other import errors as failed', async () => {
    const python = fakePython('echo "SyntaxError: invalid syntax" >&2; exit 1');
    assert.deepEqual(await checkSkilldeckImport(python), { ok: false, reason: 'failed', detail: 'SyntaxError: invalid syntax' });
  });
});
