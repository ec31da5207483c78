import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { budgetBar, catalogTarget, formatTokens, hostPreviewContent, previewContent, previewError, previewPath, previewTitle } from '../src/preview';
import type { HostCatalogResult } from '../src/protocol';
import { statusView } from '../src/status';
import { exampleCatalog } from './fixtures';

describe('preview', () => {
  it('renders a header and then the catalog text verbatim', () => {
    assert.equal(
      previewContent(exampleCatalog()),
      [
        '# Skill catalog: my workspace - 1 skill, ~1,234 tokens',
        '# Skills: release-notes',
        '# Read-only preview, refreshed when skills change. The model sees everything below the line.',
        '# ' + '-'.repeat(70),
        '',
        '<available_skills>',
        '<skill>',
        '<name>release-notes</name>',
        '<description>Write release notes from merged PRs.</description>',
        '</skill>',
        '</available_skills>',
        '',
      ].join('\n'),
    );
  });

  it('warns about incomplete discovery and explains an empty catalog', () => {
    const text = previewContent({ ...exampleCatalog(), text: '  \n', entries: [], skillCount: 0, tokenEstimate: 0, complete: false });
    assert.match(text, /^# Skill catalog: my workspace - 0 skills, ~0 tokens \(incomplete\)\n# Warning: discovery is incomplete/);
    assert.match(text, /\(empty: no model-invocable skills, so the model sees no catalog\)\n$/);
    assert.doesNotMatch(text, /# Skills:/);
  });

  it('titles and paths use the decoded folder name', () => {
    assert.equal(previewTitle(exampleCatalog()), 'Skill catalog: my workspace - 1 skill, ~1,234 tokens');
    assert.equal(previewPath('file:///w/examples/my%20workspace/'), '/my workspace catalog');
    assert.equal(previewPath('file:///'), '/workspace catalog');
  });

  it('formats token counts', () => {
    assert.equal(formatTokens(0), '~0 tokens');
    assert.equal(formatTokens(999.6), '~1,000 tokens');
    assert.equal(formatTokens(1234567), '~1,234,567 tokens');
  });

  it('shows server errors in the document', () => {
    assert.equal(
      previewError('file:///w/ws', 'not running'),
      '# Skill catalog: ws\n# The skilldeck language server could not produce the catalog.\n\nnot running\n',
    );
  });
});

describe('statusView', () => {
  it('shows the count and token estimate when complete', () => {
    assert.deepEqual(statusView({ state: 'ready', skillCount: 3, tokenEstimate: 210, complete: true }), {
      text: '$(book) 3 skills · ~210 tokens',
      tooltip: 'Skilldeck: 3 skills in the catalog, ~210 tokens. Click to preview the catalog.',
      level: 'normal',
    });
  });

  it('warns when discovery is incomplete', () => {
    const view = statusView({ state: 'ready', skillCount: 1, tokenEstimate: 40, complete: false });
    assert.equal(view.text, '$(warning) 1 skill (incomplete)');
    assert.equal(view.level, 'warning');
    assert.match(view.tooltip, /Discovery is incomplete/);
  });

  it('shows starting and stopped states', () => {
    assert.equal(statusView({ state: 'starting' }).text, '$(sync~spin) Skills');
    assert.deepEqual(statusView({ state: 'stopped', reason: 'no python' }), {
      text: '$(error) Skills',
      tooltip: 'Skilldeck: server not running. no python',
      level: 'error',
    });
  });
});

/** A `skilldeck/hostCatalog` answer: Codex over its 8,000-character budget. */
function codexListing(): HostCatalogResult {
  return {
    host: 'codex',
    label: 'Codex',
    docs: 'https://developers.openai.com/codex/skills',
    folderUri: 'file:///w/examples/my%20workspace',
    complete: true,
    budget: {
      host: 'codex',
      contextTokens: null,
      budgetChars: 8000,
      totalChars: 9000,
      tokenEstimate: 2250,
      entries: [
        { name: 'alpha', state: 'cut', shownChars: 10 },
        { name: 'beta', state: 'full', shownChars: 4 },
        { name: 'gamma', state: 'name-only', shownChars: 0 },
        { name: 'zeta', state: 'left-out', shownChars: 0 },
      ],
    },
    entries: [
      { name: 'alpha', state: 'cut', text: 'Long te...' },
      { name: 'beta', state: 'full', text: 'Fine' },
      { name: 'gamma', state: 'name-only', text: null },
    ],
  };
}

describe('host listing preview', () => {
  it('draws the budget bar, capped at its width when over', () => {
    assert.equal(budgetBar(2000, 8000), '[#####---------------] 25% of 8,000 characters');
    assert.equal(budgetBar(9000, 8000), '[####################] 113% of 8,000 characters (over budget)');
    assert.equal(budgetBar(0, 0), '[####################] 100% of 0 characters');
  });

  it('renders the header, the counts and the listing as the agent shows it', () => {
    assert.equal(
      hostPreviewContent(codexListing()),
      [
        '# Codex skill listing: my workspace - 4 entries, ~2,250 tokens',
        '# Budget: [####################] 113% of 8,000 characters (over budget) (context window unknown)',
        '# 1 full, 1 cut, 1 name only, 1 left out',
        '# Rules: https://developers.openai.com/codex/skills (docs/hosts.md)',
        '# ' + '-'.repeat(70),
        '',
        '- alpha: Long te...',
        '- beta: Fine',
        '- gamma',
        '',
        '# Left out: zeta',
        '',
      ].join('\n'),
    );
  });

  it('draws a budget counted in tokens (Codex) as tokens', () => {
    const tokens: HostCatalogResult = {
      ...codexListing(),
      budget: { ...codexListing().budget, budgetChars: null, budgetTokens: 5440, totalTokens: 1360 },
    };
    assert.match(hostPreviewContent(tokens), /# Budget: \[#####-+\] 25% of 5,440 tokens \(context window unknown\)\n/);
  });

  it('says when no budget is documented and when nothing is listed', () => {
    const none: HostCatalogResult = {
      ...codexListing(),
      label: 'OpenCode',
      complete: false,
      budget: { ...codexListing().budget, budgetChars: null, totalChars: 1234, entries: [] },
      entries: [],
    };
    const text = hostPreviewContent(none);
    assert.match(text, /# Warning: discovery is incomplete/);
    assert.match(text, /# Budget: none documented; 1,234 characters\n/);
    assert.match(text, /\(empty: OpenCode lists no skill of this workspace\)\n$/);
  });
});

describe('catalogTarget (issue #41.3: a file outside the workspace leaves the status alone)', () => {
  const a = 'file:///work/a';
  const b = 'file:///work/b';

  it("is the active file's workspace folder", () => {
    assert.deepEqual(catalogTarget({ uri: `${b}/.dsh/skills/x/SKILL.md`, scheme: 'file', folder: b }, a, a), { target: b });
  });

  it("keeps the folder shown last for a file outside every folder, and names that file", () => {
    const settings = 'file:///root/.local/share/code-server/User/settings.json';
    assert.deepEqual(catalogTarget({ uri: settings, scheme: 'file', folder: undefined }, b, a), { target: b, outside: settings });
    assert.deepEqual(catalogTarget({ uri: settings, scheme: 'file', folder: undefined }, undefined, a), { target: a, outside: settings });
    assert.deepEqual(catalogTarget({ uri: settings, scheme: 'file', folder: undefined }, undefined, undefined), { target: undefined, outside: settings });
  });

  it('keeps the folder shown last for an editor that is no file (output, preview), else the first folder', () => {
    assert.deepEqual(catalogTarget({ uri: 'output:x', scheme: 'output', folder: undefined }, b, a), { target: b });
    assert.deepEqual(catalogTarget(undefined, undefined, a), { target: a });
  });
});
