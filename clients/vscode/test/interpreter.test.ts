import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  describeAttempts,
  interpreterCandidates,
  noInterpreterMessage,
  probeCandidate,
  selectInterpreter,
  serverLaunch,
  type Candidate,
} from '../src/interpreter';

describe('interpreterCandidates', () => {
  it('tries the Python extension, the setting, then python3 and python on PATH', () => {
    const found = interpreterCandidates({ pythonExtension: '/envs/a/bin/python', setting: ' /opt/py/bin/python ', platform: 'linux' });
    assert.deepEqual(
      found.map((c) => [c.command, c.source]),
      [
        ['/envs/a/bin/python', 'python-extension'],
        ['/opt/py/bin/python', 'setting'],
        ['python3', 'path'],
        ['python', 'path'],
      ],
    );
  });

  it('skips blank inputs and duplicates; Windows tries the py launcher', () => {
    const found = interpreterCandidates({ pythonExtension: '  ', setting: 'python', platform: 'win32' });
    assert.deepEqual(
      found.map((c) => [c.command, c.prefix, c.source]),
      [
        ['python', [], 'setting'],
        ['py', ['-3'], 'path'],
      ],
    );
  });
});

function fakePython(script: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'skilldeck-py-'));
  const path = join(dir, 'python');
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, 0o755);
  return path;
}

function candidate(command: string, source: Candidate['source'] = 'path'): Candidate {
  return { command, prefix: [], source };
}

describe('probeCandidate (a real process)', () => {
  it('accepts a Python 3.10+ for the bundled server without importing skilldeck', async () => {
    const python = fakePython('case "$2" in *"import skilldeck"*) exit 9;; esac; echo \'{"executable": "/real/python3.12", "version": [3, 12, 1]}\'');
    const result = await probeCandidate(candidate(python), 'useBundled');
    assert.deepEqual(result, { ok: true, info: { executable: '/real/python3.12', version: [3, 12, 1], skilldeck: undefined } });
  });

  it('refuses a Python older than 3.10, saying its version', async () => {
    const python = fakePython('echo \'{"executable": "/usr/bin/python3.8", "version": [3, 8, 10]}\'');
    const result = await probeCandidate(candidate(python), 'useBundled');
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.detail, 'Python 3.8.10, needs 3.10+');
  });

  it('with fromEnvironment, refuses an interpreter where skilldeck does not import', async () => {
    const python = fakePython(
      `cat <<'JSON'\n${JSON.stringify({ executable: '/venv/bin/python', version: [3, 11, 7], skilldeck: null, error: "ModuleNotFoundError: No module named 'skilldeck'" })}\nJSON`,
    );
    const result = await probeCandidate(candidate(python), 'fromEnvironment');
    assert.equal(!result.ok && result.reason, 'not-installed');
    assert.equal(!result.ok && result.detail, "skilldeck does not import (ModuleNotFoundError: No module named 'skilldeck')");
  });

  it('reports an interpreter that does not exist as not found', async () => {
    const result = await probeCandidate(candidate('/nonexistent/bin/python-skilldeck'), 'useBundled');
    assert.deepEqual(result, { ok: false, reason: 'not-found', detail: 'not found' });
  });

  it('runs the real probe on a real python3 when there is one', async (t) => {
    const result = await probeCandidate(candidate('python3'), 'useBundled');
    if (!result.ok && result.reason === 'not-found') {
      t.skip('no python3 on PATH');
      return;
    }
    assert.equal(result.ok, true);
  });
});

describe('selectInterpreter and the message when nothing works', () => {
  it('takes the first candidate that passes and names every path tried before it', async () => {
    const old = fakePython('echo \'{"executable": "/usr/bin/python3.8", "version": [3, 8, 10]}\'');
    const good = fakePython('echo \'{"executable": "/opt/py/bin/python3.11", "version": [3, 11, 2]}\'');
    const selection = await selectInterpreter(
      [candidate('/missing/python', 'python-extension'), candidate(old, 'setting'), candidate(good)],
      'useBundled',
    );
    assert.equal(selection.chosen?.candidate.command, good);
    assert.deepEqual(describeAttempts(selection.attempts), [
      "/missing/python (the Python extension's interpreter): not found",
      `${old} = /usr/bin/python3.8 (skilldeck.server.pythonPath): Python 3.8.10, needs 3.10+`,
    ]);
  });

  it('says what was tried, and no install command', async () => {
    const selection = await selectInterpreter([candidate('/missing/python3'), candidate('/missing/python')], 'useBundled');
    assert.equal(selection.chosen, undefined);
    const message = noInterpreterMessage('useBundled', selection.attempts);
    assert.equal(
      message,
      'Skilldeck: the language server needs Python 3.10 or newer, and none was found. ' +
        'Tried: /missing/python3 (PATH): not found; /missing/python (PATH): not found. ' +
        'Select an interpreter or set skilldeck.server.pythonPath to one.',
    );
    assert.doesNotMatch(message, /pip install/);
  });
});

describe('serverLaunch', () => {
  it('runs the bundled launcher with useBundled and python -m skilldeck serve with fromEnvironment', () => {
    const py: Candidate = { command: 'py', prefix: ['-3'], source: 'path' };
    assert.deepEqual(serverLaunch(py, 'useBundled', '/ext'), { command: 'py', args: ['-3', join('/ext', 'bundled', 'tool', 'launch.py'), 'serve'] });
    assert.deepEqual(serverLaunch(candidate('/venv/bin/python'), 'fromEnvironment', '/ext'), {
      command: '/venv/bin/python',
      args: ['-m', 'skilldeck', 'serve'],
    });
  });
});
