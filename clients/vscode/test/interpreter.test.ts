import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cacheEntry,
  cachedChoice,
  describeAttempts,
  interpreterCacheKey,
  expandPythonPath,
  interpreterCandidates,
  probeArgs,
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
  it('runs the bundled launcher with useBundled and the environment\'s skilldeck serve with fromEnvironment', () => {
    const py: Candidate = { command: 'py', prefix: ['-3'], source: 'path' };
    assert.deepEqual(serverLaunch(py, 'useBundled', '/ext'), { command: 'py', args: ['-3', join('/ext', 'bundled', 'tool', 'launch.py'), 'serve'] });
    const launch = serverLaunch(candidate('/venv/bin/python'), 'fromEnvironment', '/ext');
    assert.equal(launch.command, '/venv/bin/python');
    assert.equal(launch.args[0], '-c');
    assert.equal(launch.args[launch.args.length - 1], 'serve');
    assert.ok(!launch.args.includes('-P'), 'Python 3.10 has no -P');
  });
});

/** A real python3 on PATH, or undefined (the tests below need one). */
function realPython(): string | undefined {
  const found = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

describe('fromEnvironment in a workspace with a module named like the stdlib (a real python3)', () => {
  const python = realPython();
  // The workspace (the server's cwd) has a logging.py and a json.py that raise; the
  // environment's "skilldeck" (on PYTHONPATH here) imports logging and prints what it got.
  const root = mkdtempSync(join(tmpdir(), 'skilldeck-shadow-'));
  const workspace = join(root, 'workspace');
  const site = join(root, 'site');
  mkdirSync(workspace);
  mkdirSync(join(site, 'skilldeck'), { recursive: true });
  writeFileSync(join(workspace, 'logging.py'), 'raise SystemExit("workspace logging.py imported")\n');
  writeFileSync(join(workspace, 'json.py'), 'raise SystemExit("workspace json.py imported")\n');
  writeFileSync(join(site, 'skilldeck', '__init__.py'), '__version__ = "9.9"\n');
  writeFileSync(
    join(site, 'skilldeck', '__main__.py'),
    'import json, logging, sys\nprint(json.dumps({"logging": logging.__file__, "argv": sys.argv[1:]}))\n',
  );
  const env = { ...process.env, PYTHONPATH: site };

  it('runs the server without the workspace on sys.path', { skip: python === undefined && 'no python3' }, () => {
    const launch = serverLaunch(candidate(python ?? 'python3'), 'fromEnvironment', '/ext');
    const out = execFileSync(launch.command, launch.args, { cwd: workspace, env, encoding: 'utf8' });
    const printed = JSON.parse(out.trim()) as { logging: string; argv: string[] };
    assert.deepEqual(printed.argv, ['serve']);
    assert.ok(!printed.logging.startsWith(workspace), printed.logging);
  });

  it('probes the interpreter the same way', { skip: python === undefined && 'no python3' }, () => {
    const out = execFileSync(python ?? 'python3', probeArgs(true), { cwd: workspace, env, encoding: 'utf8' });
    assert.equal((JSON.parse(out.trim()) as { skilldeck: string }).skilldeck, '9.9');
  });
});

describe('expandPythonPath', () => {
  const context = { home: '/home/ana', workspaceFolder: '/work/proj' };

  it('expands ~, ${userHome} and ${workspaceFolder}', () => {
    assert.equal(expandPythonPath('~/.pyenv/versions/3.12.1/bin/python', context), '/home/ana/.pyenv/versions/3.12.1/bin/python');
    assert.equal(expandPythonPath(' ${userHome}/.skilldeck/bin/python ', context), '/home/ana/.skilldeck/bin/python');
    assert.equal(expandPythonPath('${workspaceFolder}/.venv/bin/python', context), '/work/proj/.venv/bin/python');
  });

  it('resolves a relative path against the workspace folder; a bare name stays a PATH command', () => {
    assert.equal(expandPythonPath('.venv/bin/python', context), join('/work/proj', '.venv/bin/python'));
    assert.equal(expandPythonPath('./venv/bin/python3', context), join('/work/proj', 'venv/bin/python3'));
    assert.equal(expandPythonPath('python3.12', context), 'python3.12');
    assert.equal(expandPythonPath('/usr/bin/python3', context), '/usr/bin/python3');
  });

  it('leaves what it cannot fill as written', () => {
    assert.equal(expandPythonPath('${workspaceFolder}/.venv/bin/python', { home: '/home/ana' }), '${workspaceFolder}/.venv/bin/python');
    assert.equal(expandPythonPath('.venv/bin/python', {}), '.venv/bin/python');
  });

  it('is applied to the setting by interpreterCandidates', () => {
    const found = interpreterCandidates({ setting: '~/.skilldeck/bin/python', platform: 'linux', ...context });
    assert.deepEqual(found[0], { command: '/home/ana/.skilldeck/bin/python', prefix: [], source: 'setting' });
  });
});

describe('the interpreter chosen last time (issue #41.8: reopening a workspace probed again)', () => {
  const candidates = interpreterCandidates({ setting: '~/.skilldeck/bin/python', home: '/home/u', platform: 'linux' });
  const key = interpreterCacheKey(candidates, 'useBundled', '/usr/bin:/bin', '0.1.0');
  const chosen = { candidate: candidates[0], info: { executable: '/home/u/.skilldeck/bin/python', version: [3, 11, 2] as [number, number, number] } };
  const file = { size: 6_000_000, mtimeMs: 1_700_000_000_000, ino: 42 };
  const entry = JSON.parse(JSON.stringify(cacheEntry(key, chosen, file))) as unknown; // as the workspace state keeps it

  it('is used while everything it was chosen from is the same', () => {
    assert.deepEqual(cachedChoice(entry, key, { ...file }), chosen);
  });

  it('is not used once the setting, the strategy, PATH or the extension changed', () => {
    const otherSetting = interpreterCacheKey(interpreterCandidates({ setting: '/opt/py/bin/python', platform: 'linux' }), 'useBundled', '/usr/bin:/bin', '0.1.0');
    for (const other of [
      otherSetting,
      interpreterCacheKey(candidates, 'fromEnvironment', '/usr/bin:/bin', '0.1.0'),
      interpreterCacheKey(candidates, 'useBundled', '/venv/bin:/usr/bin:/bin', '0.1.0'),
      interpreterCacheKey(candidates, 'useBundled', '/usr/bin:/bin', '0.2.0'),
    ]) {
      assert.notEqual(other, key);
      assert.equal(cachedChoice(entry, other, file), undefined);
    }
  });

  it('is not used once the interpreter file is gone or replaced', () => {
    assert.equal(cachedChoice(entry, key, undefined), undefined);
    assert.equal(cachedChoice(entry, key, { ...file, mtimeMs: file.mtimeMs + 1 }), undefined);
    assert.equal(cachedChoice(entry, key, { ...file, size: 1 }), undefined);
    assert.equal(cachedChoice(entry, key, { ...file, ino: 43 }), undefined);
  });

  it('ignores what is not an entry', () => {
    for (const junk of [undefined, null, 'x', 3, {}, { key }, { key, candidate: chosen.candidate }]) {
      assert.equal(cachedChoice(junk, key, file), undefined);
    }
  });
});
