import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatTokens, previewContent, previewError, previewPath, previewTitle } from '../src/preview';
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
