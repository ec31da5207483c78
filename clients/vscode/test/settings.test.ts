import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  customDirPattern,
  documentSelector,
  initializationOptions,
  needsRestart,
  readSettings,
  serverLaunch,
  type SettingGetter,
} from '../src/settings';

function getter(values: Record<string, unknown>): SettingGetter {
  return (key) => values[key];
}

describe('readSettings', () => {
  it('gives the documented defaults when nothing is set', () => {
    const settings = readSettings(getter({}));
    assert.deepEqual(settings, {
      server: {
        profile: 'dsh',
        customSkillDirs: [],
        dshHome: null,
        agentsHome: null,
        bundledSkillDir: null,
        catalogDescriptionMaxLength: 500,
        includeUserRoots: true,
        rules: {},
      },
      pythonPath: '',
      trace: 'off',
    });
  });

  it('maps every setting into initializationOptions with the server shape', () => {
    const settings = readSettings(
      getter({
        profile: 'claude-code',
        customSkillDirs: ['team/skills', '', 7, '/abs/skills'],
        dshHome: '/home/u/.dsh-alt',
        agentsHome: '  ',
        bundledSkillDir: '/opt/bundled',
        catalogDescriptionMaxLength: 120.7,
        includeUserRoots: false,
        rules: { SD301: 'off', 'name-mismatch': 'hint', SD999: 'loud', '': 'error' },
        'server.pythonPath': '/venv/bin/python',
        'trace.server': 'verbose',
      }),
    );
    assert.deepEqual(initializationOptions(settings), {
      profile: 'claude-code',
      customSkillDirs: ['team/skills', '/abs/skills'],
      dshHome: '/home/u/.dsh-alt',
      agentsHome: null,
      bundledSkillDir: '/opt/bundled',
      catalogDescriptionMaxLength: 120,
      includeUserRoots: false,
      rules: { SD301: 'off', 'name-mismatch': 'hint' },
    });
    assert.equal(settings.pythonPath, '/venv/bin/python');
    assert.equal(settings.trace, 'verbose');
  });

  it('replaces invalid values with defaults and clamps the description length', () => {
    const settings = readSettings(
      getter({ profile: 'vim', catalogDescriptionMaxLength: 1, includeUserRoots: 'yes', rules: ['SD301'], 'trace.server': 'all' }),
    );
    assert.equal(settings.server.profile, 'dsh');
    assert.equal(settings.server.catalogDescriptionMaxLength, 3);
    assert.equal(settings.server.includeUserRoots, true);
    assert.deepEqual(settings.server.rules, {});
    assert.equal(settings.trace, 'off');
    assert.equal(readSettings(getter({ catalogDescriptionMaxLength: Number.NaN })).server.catalogDescriptionMaxLength, 500);
  });

  it('returns a copy the caller cannot use to mutate the settings', () => {
    const settings = readSettings(getter({ customSkillDirs: ['a'] }));
    const options = initializationOptions(settings);
    options.customSkillDirs.push('b');
    assert.deepEqual(settings.server.customSkillDirs, ['a']);
  });
});

describe('serverLaunch', () => {
  it('runs python -m skilldeck serve', () => {
    assert.deepEqual(serverLaunch('/venv/bin/python'), { command: '/venv/bin/python', args: ['-m', 'skilldeck', 'serve'] });
  });
});

describe('needsRestart', () => {
  it('restarts for interpreter and server settings but not for the trace level', () => {
    assert.equal(needsRestart((section) => section === 'skilldeck.server.pythonPath'), true);
    assert.equal(needsRestart((section) => section === 'skilldeck.rules'), true);
    assert.equal(needsRestart((section) => section === 'skilldeck.profile'), true);
    assert.equal(needsRestart((section) => section === 'skilldeck.trace.server'), false);
    assert.equal(needsRestart((section) => section === 'editor.fontSize'), false);
  });
});

describe('documentSelector', () => {
  it('selects only skill files, never all Markdown', () => {
    assert.deepEqual(documentSelector([], '/home/u'), [
      { scheme: 'file', language: 'markdown', pattern: '**/.dsh/skills/**' },
      { scheme: 'file', language: 'markdown', pattern: '**/.agents/skills/**' },
      { scheme: 'file', language: 'markdown', pattern: '**/SKILL.md' },
    ]);
    for (const filter of documentSelector(['docs', '~/x'], '/home/u')) {
      assert.notEqual(filter.pattern, '**/*.md');
      assert.notEqual(filter.pattern, '**');
    }
  });

  it('adds one pattern per custom dir: absolute, home-relative and workspace-relative', () => {
    const patterns = documentSelector(['/srv/skills/', '~/my-skills', './team/skills', 'C:\\skills', '/srv/skills', '.'], '/home/u').map(
      (filter) => filter.pattern,
    );
    assert.deepEqual(patterns.slice(3), ['/srv/skills/**', '/home/u/my-skills/**', '**/team/skills/**', 'C:/skills/**']);
  });

  it('ignores empty dirs', () => {
    assert.equal(customDirPattern('  ', '/home/u'), null);
    assert.equal(customDirPattern('~', '/home/u'), '/home/u/**');
  });
});
