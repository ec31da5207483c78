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

  it('says why the Skills view lists more skill files than the catalog holds (#41.6)', () => {
    // What code-server showed on 500 real skills: 500 in the Skills view, 471 in the
    // status item, and no reason given.
    const counts = { skillFiles: 500, inCatalog: 471, fromFiles: 471, provided: 0, shadowed: 3, notLoaded: 26, notModelInvocable: 0 };
    const view = statusView({ state: 'ready', skillCount: 471, tokenEstimate: 30283, complete: true, counts });
    assert.equal(
      view.tooltip,
      'Skilldeck: 471 skills in the catalog, ~30,283 tokens. 500 skill files (the Skills view): 471 in the catalog, ' +
        '3 shadowed by a same-named skill, 26 not loaded (an error drops them). Click to preview the catalog.',
    );
    const over = statusView({ state: 'ready', skillCount: 471, tokenEstimate: 30283, complete: true, counts }, 10000);
    assert.match(over.tooltip, /catalogTokenBudget\)\. 500 skill files \(the Skills view\)/);
    // Nothing to explain: no sentence; provided skills are named.
    const same = { skillFiles: 2, inCatalog: 2, fromFiles: 2, provided: 0, shadowed: 0, notLoaded: 0, notModelInvocable: 0 };
    assert.equal(statusView({ state: 'ready', skillCount: 2, tokenEstimate: 40, complete: true, counts: same }).tooltip, 'Skilldeck: 2 skills in the catalog, ~40 tokens. Click to preview the catalog.');
    const provided = { ...same, inCatalog: 3, provided: 1 };
    assert.match(statusView({ state: 'ready', skillCount: 3, tokenEstimate: 60, complete: true, counts: provided }).tooltip, /2 skill files \(the Skills view\): 2 in the catalog; 1 more from other providers\./);
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
