import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { refreshDelay } from '../src/refresh-schedule';

describe('refreshDelay', () => {
  it('coalesces the first burst with the debounce', () => {
    assert.equal(refreshDelay(10_000, undefined, 200, 2000), 200);
  });

  it('waits out the minimum interval after a recent refresh', () => {
    assert.equal(refreshDelay(10_500, 10_000, 200, 2000), 1500);
    assert.equal(refreshDelay(11_900, 10_000, 200, 2000), 200);
  });

  it('is just the debounce once the last refresh is old', () => {
    assert.equal(refreshDelay(60_000, 10_000, 200, 2000), 200);
  });
});
