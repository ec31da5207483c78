import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sideBySideActions } from '../src/overlap';

const other = 'file:///w/.dsh/skills/tdd-guide/SKILL.md';
/** An SD801 diagnostic as the language client hands it to VS Code (code with its link). */
const overlap = {
  source: 'skilldeck',
  code: { value: 'SD801', target: 'https://example.invalid/docs/rules.md#sd801-overlapping-skills' },
  message: '`tdd-workflow` and `tdd-guide` describe overlapping tasks (score 0.61; shared: tdd, test)',
  relatedInformation: [
    { location: { uri: { toString: () => other } }, message: '`tdd-guide`: the skill it overlaps (score 0.61)' },
  ],
};

describe('sideBySideActions', () => {
  it('offers to open the overlapping skill, named, beside the current one', () => {
    assert.deepEqual(sideBySideActions(overlap), [{ title: 'Open `tdd-guide` side by side', uri: other }]);
  });

  it('reads LSP JSON too (a plain string code and uri) and SD802', () => {
    const plain = {
      source: 'skilldeck',
      code: 'SD802',
      relatedInformation: [{ location: { uri: other }, message: 'no name here' }],
    };
    assert.deepEqual(sideBySideActions(plain), [{ title: 'Open the overlapping skill side by side', uri: other }]);
  });

  it('offers nothing for other rules, other sources or no related skill', () => {
    assert.deepEqual(sideBySideActions({ ...overlap, code: { value: 'SD701' } }), []);
    assert.deepEqual(sideBySideActions({ ...overlap, source: 'markdownlint' }), []);
    assert.deepEqual(sideBySideActions({ source: 'skilldeck', code: 'SD801' }), []);
    assert.deepEqual(sideBySideActions({ source: 'skilldeck', code: null }), []);
  });
});
