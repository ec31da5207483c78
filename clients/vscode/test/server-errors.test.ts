import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FailureNotices } from '../src/server-errors';

describe('FailureNotices', () => {
  it('shows a failure once per kind', () => {
    const notices = new FailureNotices();
    const failure = { kind: 'ZeroDivisionError at File "x.py", line 8', message: 'skilldeck: internal error handling a request: ZeroDivisionError' };
    assert.equal(notices.take(failure), failure.message);
    assert.equal(notices.take(failure), undefined);
    assert.equal(notices.take({ ...failure, message: 'same kind, other text' }), undefined);
    assert.equal(notices.take({ kind: 'KeyError at y', message: 'KeyError' }), 'KeyError');
  });

  it('stops after the limit so a failing handler cannot loop popups', () => {
    const notices = new FailureNotices(2);
    assert.equal(notices.take({ kind: 'a', message: 'A' }), 'A');
    assert.equal(notices.take({ kind: 'b', message: 'B' }), 'B');
    assert.equal(notices.take({ kind: 'c', message: 'C' }), undefined);
  });

  it('ignores malformed params', () => {
    const notices = new FailureNotices();
    assert.equal(notices.take(undefined), undefined);
    assert.equal(notices.take({ kind: 'a' }), undefined);
    assert.equal(notices.take({ kind: 'a', message: '  ' }), undefined);
    assert.equal(notices.take({ message: 'no kind' }), 'no kind');
    assert.equal(notices.take({ message: 'no kind' }), undefined);
  });
});
