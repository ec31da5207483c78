import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLifecycleNotice, RestartPolicy, runningMessage, StderrTail, stoppedMessage, stopReason } from '../src/lifecycle';

describe('RestartPolicy', () => {
  it('does not restart a server that exited before it was running', () => {
    const policy = new RestartPolicy();
    for (let i = 0; i < 10; i++) {
      assert.deepEqual(policy.closed(false, i), { restart: false, why: 'start-failed', crashes: 0 });
    }
  });

  it('restarts a crashed server 4 times, then gives up', () => {
    const policy = new RestartPolicy();
    const decisions = [0, 1000, 2000, 3000, 4000].map((now) => policy.closed(true, now));
    assert.deepEqual(decisions.slice(0, 4), [{ restart: true }, { restart: true }, { restart: true }, { restart: true }]);
    assert.deepEqual(decisions[4], { restart: false, why: 'too-many-crashes', crashes: 5 });
  });

  it('forgets crashes older than the window', () => {
    const policy = new RestartPolicy(2, 60_000);
    assert.deepEqual(policy.closed(true, 0), { restart: true });
    assert.deepEqual(policy.closed(true, 50_000), { restart: true });
    assert.deepEqual(policy.closed(true, 100_000), { restart: true }); // the crash at 0 s is out
    assert.equal(policy.closed(true, 105_000).restart, false); // 50 s, 100 s, 105 s: 3 in 60 s
  });

  it('shuts down after repeated connection errors only', () => {
    const policy = new RestartPolicy();
    assert.equal(policy.error(undefined), 'continue');
    assert.equal(policy.error(1), 'continue');
    assert.equal(policy.error(3), 'continue');
    assert.equal(policy.error(4), 'shutdown');
  });
});

describe('StderrTail', () => {
  it("keeps the last process's last line, cut to a length", () => {
    const tail = new StderrTail(3);
    assert.equal(tail.summary(), undefined);
    tail.add('Traceback (most recent call last):');
    tail.add('  File "x.py", line 1, in <module>');
    tail.add('ImportError: No module named pygls   ');
    tail.add('');
    assert.equal(tail.summary(), 'ImportError: No module named pygls');
    assert.equal(tail.summary(10), 'ImportE...');
    tail.reset();
    assert.equal(tail.summary(), undefined);
  });
});

describe('stoppedMessage', () => {
  it("names the command and quotes the server's stderr", () => {
    const message = stoppedMessage('/venv/bin/python launch.py serve', { why: 'start-failed' }, 'ImportError: No module named pygls');
    assert.match(message, /\/venv\/bin\/python launch\.py serve/);
    assert.match(message, /exited while starting/);
    assert.match(message, /The server said: ImportError: No module named pygls/);
  });

  it('falls back to the error when the server printed nothing', () => {
    assert.match(stoppedMessage('py', { why: 'start-error', error: 'Error: spawn py ENOENT' }, undefined), /failed to start\. Error: spawn py ENOENT/);
    assert.match(stoppedMessage('py', { why: 'start-failed' }, undefined), /printed nothing/);
  });

  it('says a crashing server is not restarted and how to try again', () => {
    const message = stoppedMessage('py', stopReason({ restart: false, why: 'too-many-crashes', crashes: 5 }), undefined);
    assert.match(message, /crashed 5 times/);
    assert.match(message, /Restart Server/);
    assert.match(stoppedMessage('py', stopReason(undefined), 'boom'), /stopped and will not be restarted.*boom/);
  });
});

describe('isLifecycleNotice', () => {
  it("recognises the client's connection notices, not request failures", () => {
    assert.ok(isLifecycleNotice("Skilldeck client: couldn't create connection to server."));
    assert.ok(isLifecycleNotice('Restarting server failed'));
    assert.ok(isLifecycleNotice('Server initialization failed.'));
    assert.ok(isLifecycleNotice('Connection to server got closed. Server will not be restarted.'));
    assert.ok(isLifecycleNotice('The Skilldeck server crashed 5 times in the last 3 minutes. The server will not be restarted.'));
    assert.ok(!isLifecycleNotice('Request textDocument/hover failed.'));
  });
});

describe('runningMessage (issue #41.7: the status command said nothing while the server ran)', () => {
  it('names the process, the interpreter, how it was found and which server', () => {
    assert.equal(
      runningMessage(
        {
          python: { executable: '/usr/bin/python3.11', version: [3, 11, 2] },
          found: 'python3, from PATH',
          strategy: 'useBundled',
          serverInfo: { name: 'skilldeck', version: '0.1.0' },
          pid: 4242,
          since: 1000,
        },
        126_000,
      ),
      'Skilldeck: the language server is running, pid 4242, for 2 min 5 s: Python 3.11.2 at /usr/bin/python3.11 ' +
        '(python3, from PATH), the server bundled with the extension (skilldeck 0.1.0).',
    );
  });

  it('says so for the environment\'s server, without what it does not know', () => {
    assert.equal(
      runningMessage({ python: { executable: '/v/bin/python', version: [3, 12, 0] }, found: '/v/bin/python, from skilldeck.server.pythonPath', strategy: 'fromEnvironment', since: 0 }, 3_400),
      'Skilldeck: the language server is running, for 3 s: Python 3.12.0 at /v/bin/python (/v/bin/python, from skilldeck.server.pythonPath), the skilldeck installed there.',
    );
  });
});
