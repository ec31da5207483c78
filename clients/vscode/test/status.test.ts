import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatCount, indexingUpdate, statusView } from '../src/status';

describe('statusView at scale', () => {
  it('shows indexing progress with thousands separators', () => {
    assert.deepEqual(statusView({ state: 'indexing', done: 1200, total: 2006 }), {
      text: '$(sync~spin) Indexing 1,200/2,006',
      tooltip: 'Skilldeck: indexing skill files (1,200/2,006). Counts and diagnostics follow when it is done.',
      level: 'normal',
    });
  });

  it('warns above the token budget, and only above it', () => {
    const big = { state: 'ready', skillCount: 2006, tokenEstimate: 61311, complete: true } as const;
    const over = statusView(big, 20000);
    assert.equal(over.text, '$(warning) 2,006 skills · ~61,311 tokens');
    assert.equal(over.level, 'warning');
    assert.match(over.tooltip, /above the budget of ~20,000 tokens \(setting skilldeck\.catalogTokenBudget\)/);
    assert.equal(statusView(big, 61311).level, 'normal');
    assert.equal(statusView(big, 0).level, 'normal');
    assert.equal(statusView(big).text, '$(book) 2,006 skills · ~61,311 tokens');
  });

  it('formats counts', () => {
    assert.equal(formatCount(0), '0');
    assert.equal(formatCount(1234567), '1,234,567');
  });
});

describe('indexingUpdate', () => {
  it('reads the server reports of its indexing token', () => {
    assert.deepEqual(indexingUpdate('skilldeck-index-3', { kind: 'report', message: '1,200/2,006 skill files', percentage: 59 }), {
      kind: 'progress',
      input: { state: 'indexing', done: 1200, total: 2006 },
    });
    assert.deepEqual(indexingUpdate('skilldeck-index-3', { kind: 'end', message: 'Skills indexed' }), { kind: 'end' });
  });

  it('ignores other tokens, folder reports and junk', () => {
    assert.equal(indexingUpdate('other-1', { kind: 'report', message: '1/2 skill files' }), undefined);
    assert.equal(indexingUpdate(7, { kind: 'end' }), undefined);
    assert.equal(indexingUpdate('skilldeck-index-1', { kind: 'report', message: '/w/project' }), undefined);
    assert.equal(indexingUpdate('skilldeck-index-1', { kind: 'begin', title: 'Indexing skills' }), undefined);
    assert.equal(indexingUpdate('skilldeck-index-1', null), undefined);
  });
});
