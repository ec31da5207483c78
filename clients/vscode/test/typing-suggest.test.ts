import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startsFrontmatterWord } from '../src/typing-suggest';

function typed(text: string, line: number, character: number, letter: string): boolean {
  const lines = text.split('\n');
  return startsFrontmatterWord({ text: letter, replacedLength: 0, line, character }, (n) => lines[n] ?? '');
}

describe('startsFrontmatterWord (completion while typing in a skill file)', () => {
  it('opens on the first letter of a key typed at the end of the frontmatter', () => {
    assert.equal(typed('---\nname: a\nd\n---\n', 2, 0, 'd'), true);
    assert.equal(typed('---\nname: a\nd', 2, 0, 'd'), true); // not closed yet
  });

  it('opens on the first letter of a value', () => {
    assert.equal(typed('---\nuser-invocable: t\n---\n', 1, 16, 't'), true);
  });

  it('stays shut mid-word, outside the frontmatter, on line 0 and for other characters', () => {
    assert.equal(typed('---\nde\n---\n', 1, 1, 'e'), false);
    assert.equal(typed('---\nname: a\n---\nb', 3, 0, 'b'), false);
    assert.equal(typed('a', 0, 0, 'a'), false);
    assert.equal(typed('---\n-\n---\n', 1, 0, '-'), false);
    assert.equal(typed('# title\nd\n', 1, 0, 'd'), false);
    assert.equal(startsFrontmatterWord({ text: 'd', replacedLength: 3, line: 1, character: 0 }, (n) => ['---', 'd'][n] ?? ''), false);
  });
});
