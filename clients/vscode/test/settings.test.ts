import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DEFAULT_SERVER_SETTINGS,
  SERVER_SETTING_KEYS,
  customDirPattern,
  hostPicks,
  documentSelector,
  effectiveTarget,
  initializationOptions,
  needsRestart,
  readSettings,
  userSetServerSettings,
  userValue,
  type ServerSettingKey,
  type SettingGetter,
  type SettingInspection,
  type SettingInspector,
} from '../src/settings';
import { CLIENT_SETTING_KEYS } from '../src/settingsSchema';

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
        hosts: ['dsh'],
        contextTokens: {},
        sources: [],
      },
      pythonPath: '',
      importStrategy: 'useBundled',
      trace: 'off',
    });
  });

  it('normalises every setting into the documented shape', () => {
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
        hosts: ['codex', 'cursor', 'dsh', 'codex', 3],
        contextTokens: { codex: 5000, cursor: 100, 'claude-code': 0, copilot: 12.5, opencode: '9000' },
        sources: [{ name: 'team', type: 'git', url: 'https://git.example/team.git' }, 'team', null, ['x']],
        'server.pythonPath': '/venv/bin/python',
        importStrategy: 'fromEnvironment',
        'trace.server': 'verbose',
      }),
    );
    assert.deepEqual(settings.server, {
      profile: 'claude-code',
      customSkillDirs: ['team/skills', '/abs/skills'],
      dshHome: '/home/u/.dsh-alt',
      agentsHome: null,
      bundledSkillDir: '/opt/bundled',
      catalogDescriptionMaxLength: 120,
      includeUserRoots: false,
      rules: { SD301: 'off', 'name-mismatch': 'hint' },
      hosts: ['codex', 'dsh'],
      contextTokens: { codex: 5000 },
      sources: [{ name: 'team', type: 'git', url: 'https://git.example/team.git' }],
    });
    assert.equal(settings.pythonPath, '/venv/bin/python');
    assert.equal(settings.importStrategy, 'fromEnvironment');
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

});

/** Every way a user can set a value in VS Code (inspect() fields), never the default. */
const USER_SCOPES = [
  'globalValue',
  'globalLanguageValue',
  'workspaceValue',
  'workspaceLanguageValue',
  'workspaceFolderValue',
  'workspaceFolderLanguageValue',
] as const;

/** A user-set example value per mirrored key, and a second one to show precedence. */
const EXAMPLES: Record<ServerSettingKey, [unknown, unknown]> = {
  profile: ['agentskills', 'codex'],
  customSkillDirs: [['team/skills'], ['other']],
  dshHome: ['/h/.dsh', '/h2/.dsh'],
  agentsHome: ['/h/.agents', '/h2/.agents'],
  bundledSkillDir: ['/opt/b', '/opt/c'],
  catalogDescriptionMaxLength: [200, 120],
  includeUserRoots: [false, true],
  rules: [{ SD301: 'off' }, { SD701: 'hint' }],
  hosts: [['dsh', 'codex'], ['claude-code']],
  contextTokens: [{ codex: 5000 }, { 'claude-code': 100000 }],
  sources: [[{ name: 'team', type: 'git', url: '../team.git' }], [{ name: 'docs', type: 'mcp', command: ['skilldeck', 'mcp'] }]],
};

function inspector(table: Record<string, SettingInspection>): SettingInspector {
  return (key) => table[key];
}

/** VS Code's defaults, as package.json declares them. */
function defaults(): Record<string, SettingInspection> {
  const table: Record<string, SettingInspection> = {};
  for (const key of SERVER_SETTING_KEYS) {
    table[key] = { defaultValue: DEFAULT_SERVER_SETTINGS[key] };
  }
  return table;
}

describe('userSetServerSettings (what the server receives)', () => {
  it('mirrors every server setting of package.json, and nothing client-only', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, unknown> } };
    };
    const clientOnly: readonly string[] = CLIENT_SETTING_KEYS;
    const declared = Object.keys(manifest.contributes.configuration.properties)
      .map((key) => key.replace(/^skilldeck\./, ''))
      .filter((key) => !clientOnly.includes(key));
    assert.deepEqual([...declared].sort(), [...SERVER_SETTING_KEYS].sort());
  });

  it('sends nothing when the user set nothing (defaults never override skilldeck.toml)', () => {
    assert.deepEqual(userSetServerSettings(inspector(defaults())), {});
    assert.deepEqual(initializationOptions(inspector(defaults())), {});
    assert.deepEqual(userSetServerSettings(() => undefined), {});
  });

  for (const key of SERVER_SETTING_KEYS) {
    for (const scope of USER_SCOPES) {
      it(`sends ${key} when set in ${scope}, and only that key`, () => {
        const table = defaults();
        table[key] = { defaultValue: DEFAULT_SERVER_SETTINGS[key], [scope]: EXAMPLES[key][0] };
        assert.deepEqual(userSetServerSettings(inspector(table)), { [key]: EXAMPLES[key][0] });
        assert.deepEqual(initializationOptions(inspector(table)), { [key]: EXAMPLES[key][0] });
      });
    }

    it(`lets the most specific scope win for ${key}`, () => {
      const table = defaults();
      const [outer, inner] = EXAMPLES[key];
      table[key] = { defaultValue: DEFAULT_SERVER_SETTINGS[key], globalValue: outer, workspaceFolderValue: inner };
      // objects (rules, contextTokens) merge key by key across scopes, as VS Code merges them
      const merged = typeof outer === 'object' && !Array.isArray(outer) && typeof inner === 'object' && !Array.isArray(inner);
      const expected = merged ? { ...(outer as object), ...(inner as object) } : inner;
      assert.deepEqual(userSetServerSettings(inspector(table)), { [key]: expected });
    });
  }

  it('sends a set value equal to the default (the user chose it) but not an explicit null', () => {
    const table = defaults();
    table.catalogDescriptionMaxLength = { defaultValue: 500, workspaceValue: 500 };
    table.dshHome = { defaultValue: null, globalValue: null };
    assert.deepEqual(userSetServerSettings(inspector(table)), { catalogDescriptionMaxLength: 500 });
  });

  it('passes a bad value through for the server to name, and copies values', () => {
    const rules = { SD301: 'loud' };
    const table = defaults();
    table.rules = { workspaceValue: rules };
    const sent = userSetServerSettings(inspector(table));
    assert.deepEqual(sent, { rules: { SD301: 'loud' } });
    (sent.rules as Record<string, string>).SD301 = 'off';
    assert.equal(rules.SD301, 'loud');
  });

  it('merges rules objects across scopes like VS Code', () => {
    assert.deepEqual(userValue({ globalValue: { SD301: 'off', SD701: 'hint' }, workspaceValue: { SD701: 'error' } }), {
      SD301: 'off',
      SD701: 'error',
    });
    assert.equal(userValue({ defaultValue: 'dsh' }), undefined);
  });
});

describe('needsRestart', () => {
  it('restarts for interpreter and server settings but not for the trace level', () => {
    assert.equal(needsRestart((section) => section === 'skilldeck.server.pythonPath'), true);
    assert.equal(needsRestart((section) => section === 'skilldeck.importStrategy'), true);
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

describe('hostPicks (the agent picker)', () => {
  it("shows each agent by its display name from package.json, the configured ones first", () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as unknown;
    const picks = hostPicks(['codex', 'nope'], manifest);
    assert.deepEqual(picks[0], { label: 'Codex', description: 'codex', host: 'codex' });
    assert.deepEqual(picks[1], { label: 'DeepSeek Harness', description: 'dsh', host: 'dsh' });
    assert.equal(picks.length, 8);
    assert.deepEqual(hostPicks([], undefined)[0], { label: 'dsh', description: 'dsh', host: 'dsh' });
  });
});

describe('effectiveTarget', () => {
  it('writes where the value in effect comes from', () => {
    assert.equal(effectiveTarget({ globalValue: 'fromEnvironment', workspaceValue: 'fromEnvironment', workspaceFolderValue: 'fromEnvironment' }), 'workspaceFolder');
    assert.equal(effectiveTarget({ globalValue: 'useBundled', workspaceValue: 'fromEnvironment' }), 'workspace');
    assert.equal(effectiveTarget({ globalValue: 'fromEnvironment', defaultValue: 'useBundled' }), 'global');
    assert.equal(effectiveTarget({ defaultValue: 'useBundled' }), 'global');
    assert.equal(effectiveTarget(undefined), 'global');
  });
});
