import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseShadowingArgument, planShowShadowing, type LspLocation, type LspPosition } from '../src/shadowing';

/** Stand-ins for the language client's protocol2CodeConverter that show what they got. */
const converters = {
  asUri: (value: string) => `Uri(${value})`,
  asPosition: (value: LspPosition) => `Position(${value.line}:${value.character})`,
  asLocation: (value: LspLocation) =>
    `Location(${value.uri} ${value.range.start.line}:${value.range.start.character}-${value.range.end.line}:${value.range.end.character})`,
};

const ws = 'file:///w/examples/workspace';
/** What the server's lens on `.agents/skills/release-notes/SKILL.md` sends (winner first). */
const lensArgument = {
  uri: `${ws}/.agents/skills/release-notes/SKILL.md`,
  position: { line: 1, character: 6 },
  locations: [
    { uri: `${ws}/.dsh/skills/release-notes/SKILL.md`, range: { start: { line: 1, character: 6 }, end: { line: 1, character: 19 } } },
    { uri: 'file:///home/u/.dsh/skills/release-notes.md', range: { start: { line: 1, character: 6 }, end: { line: 1, character: 19 } } },
  ],
};

describe('planShowShadowing', () => {
  it('converts the lens argument into showReferences arguments, keeping the server order', () => {
    assert.deepEqual(planShowShadowing([lensArgument], converters), {
      ok: true,
      command: 'editor.action.showReferences',
      args: [
        `Uri(${ws}/.agents/skills/release-notes/SKILL.md)`,
        'Position(1:6)',
        [
          `Location(${ws}/.dsh/skills/release-notes/SKILL.md 1:6-1:19)`,
          'Location(file:///home/u/.dsh/skills/release-notes.md 1:6-1:19)',
        ],
      ],
    });
  });

  it('passes an empty list through (showReferences then says there are no results)', () => {
    const plan = planShowShadowing([{ ...lensArgument, locations: [] }], converters);
    assert.deepEqual(plan, { ok: true, command: 'editor.action.showReferences', args: [`Uri(${lensArgument.uri})`, 'Position(1:6)', []] });
  });

  it('refuses a malformed argument with a message saying what to do', () => {
    const plan = planShowShadowing([], converters);
    assert.deepEqual(plan, {
      ok: false,
      message:
        'Skilldeck: the shadowing code lens sent an argument this extension does not understand; ' +
        'update the skilldeck package or the extension so their versions match.',
    });
  });
});

describe('parseShadowingArgument', () => {
  it('drops unknown fields and copies only the LSP shape', () => {
    const parsed = parseShadowingArgument({ ...lensArgument, extra: true });
    assert.deepEqual(parsed, lensArgument);
  });

  it('rejects each kind of wrong shape', () => {
    const wrong: unknown[] = [
      undefined,
      null,
      'file:///x',
      [lensArgument],
      { ...lensArgument, uri: '' },
      { ...lensArgument, uri: 7 },
      { ...lensArgument, position: { line: -1, character: 0 } },
      { ...lensArgument, position: { line: 1.5, character: 0 } },
      { ...lensArgument, position: undefined },
      { ...lensArgument, locations: {} },
      { ...lensArgument, locations: [{ uri: `${ws}/a.md` }] },
      { ...lensArgument, locations: [{ uri: `${ws}/a.md`, range: { start: { line: 0, character: 0 } } }] },
      { ...lensArgument, locations: [lensArgument.locations[0], { uri: '', range: lensArgument.locations[0].range }] },
    ];
    for (const value of wrong) {
      assert.equal(parseShadowingArgument(value), undefined, JSON.stringify(value));
    }
  });
});
