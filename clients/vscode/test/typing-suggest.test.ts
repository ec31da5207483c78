import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { completionItems, frontmatterWordStart, opensSuggestions, wordFrom } from '../src/typing-suggest';

function typed(text: string, line: number, character: number, letter: string) {
  const lines = text.split('\n');
  return frontmatterWordStart({ text: letter, replacedLength: 0, line, character }, (n) => lines[n] ?? '');
}

describe('frontmatterWordStart (where typing may open completion in a skill file)', () => {
  it('finds the first letter of a key typed at the end of the frontmatter', () => {
    assert.deepEqual(typed('---\nname: a\nd\n---\n', 2, 0, 'd'), { kind: 'key', line: 2, start: 0 });
    assert.deepEqual(typed('---\nname: a\nd', 2, 0, 'd'), { kind: 'key', line: 2, start: 0 }); // not closed yet
  });

  it('finds the first letter of a value, and of each entry of a list value', () => {
    assert.deepEqual(typed('---\nuser-invocable: t\n---\n', 1, 16, 't'), { kind: 'value', line: 1, start: 16 });
    assert.deepEqual(typed('---\nallowed-tools: Read W\n---\n', 1, 20, 'W'), { kind: 'value', line: 1, start: 20 });
    assert.deepEqual(typed('---\nallowed-tools: Read,W\n---\n', 1, 20, 'W'), { kind: 'value', line: 1, start: 20 });
    assert.deepEqual(typed('---\nallowed-tools: [W\n---\n', 1, 16, 'W'), { kind: 'value', line: 1, start: 16 });
  });

  it('finds nothing mid-word, outside the frontmatter, on line 0 and for other characters', () => {
    assert.equal(typed('---\nde\n---\n', 1, 1, 'e'), undefined);
    assert.equal(typed('---\nname: no\n---\n', 1, 7, 'o'), undefined);
    assert.equal(typed('---\nname: a\n---\nb', 3, 0, 'b'), undefined);
    assert.equal(typed('a', 0, 0, 'a'), undefined);
    assert.equal(typed('---\n-\n---\n', 1, 0, '-'), undefined);
    assert.equal(typed('# title\nd\n', 1, 0, 'd'), undefined);
    assert.equal(typed('---\n  n\n---\n', 1, 2, 'n'), undefined); // nested: no slot
    assert.equal(frontmatterWordStart({ text: 'd', replacedLength: 3, line: 1, character: 0 }, (n) => ['---', 'd'][n] ?? ''), undefined);
  });
});

describe('wordFrom', () => {
  it('is the word typed from its start', () => {
    assert.equal(wordFrom('name: no', 6), 'no');
    assert.equal(wordFrom('allowed-tools: Read We', 20), 'We');
    assert.equal(wordFrom('allowed-tools: Read We, Bash', 20), 'We');
    assert.equal(wordFrom('name: ', 6), undefined); // deleted
  });
});

describe('opensSuggestions (issue #41.2: no empty box, no word completions, Enter ends a whole value)', () => {
  const tools = completionItems({ isIncomplete: true, items: [{ label: 'Read' }, { label: 'ReportFindings' }, { label: 'Write' }] });

  it('opens when some item starts with the word', () => {
    assert.equal(opensSuggestions(tools, 'R'), true);
    assert.equal(opensSuggestions(tools, 'Rep'), true);
  });

  it('stays shut where the server offers nothing, or nothing that starts with the word', () => {
    assert.equal(opensSuggestions(completionItems(null), 'R'), false);
    assert.equal(opensSuggestions(completionItems({ isIncomplete: true, items: [] }), 'R'), false);
    assert.equal(opensSuggestions(tools, 'x'), false);
    assert.equal(opensSuggestions(completionItems([{ label: 'notes' }]), 'm'), false);
  });

  it('stays shut on a word typed whole, even when a longer item starts with it', () => {
    assert.equal(opensSuggestions(tools, 'Read'), false);
    assert.equal(opensSuggestions(completionItems([{ label: 'notes' }]), 'notes'), false);
  });

  it("matches a near miss by its filter text (the server's `user_inv` for user-invocable)", () => {
    assert.equal(opensSuggestions(completionItems([{ label: 'user-invocable', filterText: 'user_inv' }]), 'user_inv'), true);
    assert.equal(opensSuggestions(completionItems([{ label: { label: 'name' } }]), 'n'), true);
  });
});
