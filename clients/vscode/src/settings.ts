/**
 * The `skilldeck` settings: reading them defensively, turning them into the
 * server's initializationOptions and launch command, and deciding which
 * documents belong to the server. No `vscode` import.
 */
import { IMPORT_STRATEGIES, type ImportStrategy } from './interpreter';
import { HOSTS, PROFILES, SERVER_SETTING_KEYS, type ServerSettingKey } from './settingsSchema';

// The settings table's names (generated from the engine's settings schema by scripts/generate).
export { HOSTS, PROFILES, SERVER_SETTING_KEYS, type ServerSettingKey };
export type Profile = (typeof PROFILES)[number];
export type Host = (typeof HOSTS)[number];

/** One row of the agent picker: the agent's display name, its id beside it. */
export interface HostPick {
  label: string;
  description: string;
  host: Host;
}

/**
 * The agent picker's rows: the agents of `skilldeck.hosts` first, then the others, each
 * shown by its display name (`enumItemLabels` of the setting in package.json, held to
 * the engine's host table by tests/test_settings_schema.py).
 */
export function hostPicks(configured: unknown, manifest: unknown): HostPick[] {
  const first = Array.isArray(configured) ? configured.filter((h): h is string => typeof h === 'string') : [];
  const ordered = [...new Set([...first, ...HOSTS])].filter((h): h is Host => (HOSTS as readonly string[]).includes(h));
  const items = (manifest as { contributes?: { configuration?: { properties?: Record<string, { items?: { enum?: unknown; enumItemLabels?: unknown } }> } } } | undefined)
    ?.contributes?.configuration?.properties?.['skilldeck.hosts']?.items;
  const ids = Array.isArray(items?.enum) ? (items.enum as unknown[]) : [];
  const labels = Array.isArray(items?.enumItemLabels) ? (items.enumItemLabels as unknown[]) : [];
  return ordered.map((host) => {
    const label = labels[ids.indexOf(host)];
    return { label: typeof label === 'string' && label !== '' ? label : host, description: host, host };
  });
}

/** Severities a rule may be overridden to. */
export const RULE_LEVELS = ['error', 'warning', 'information', 'hint', 'off'] as const;
export type RuleLevel = (typeof RULE_LEVELS)[number];

export const TRACE_LEVELS = ['off', 'messages', 'verbose'] as const;
export type TraceLevel = (typeof TRACE_LEVELS)[number];

/** The server settings (section `skilldeck`), exactly the shape the server receives. */
export interface ServerSettings {
  profile: Profile;
  customSkillDirs: string[];
  dshHome: string | null;
  agentsHome: string | null;
  bundledSkillDir: string | null;
  catalogDescriptionMaxLength: number;
  includeUserRoots: boolean;
  rules: Record<string, RuleLevel>;
  hosts: Host[];
  /** `skilldeck.contextTokens`: each agent's context window in tokens (SD902, budgets). */
  contextTokens: Partial<Record<Host, number>>;
  /** `skilldeck.sources`: `[[sources]]` tables as objects; the server validates each key. */
  sources: Record<string, unknown>[];
}

/** Server settings plus the client-only ones. */
export interface ClientSettings {
  server: ServerSettings;
  pythonPath: string;
  importStrategy: ImportStrategy;
  trace: TraceLevel;
}

export const DEFAULT_SERVER_SETTINGS: ServerSettings = {
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
};

/** Reads one key below `skilldeck.` (e.g. `profile`, `server.pythonPath`). */
export type SettingGetter = (key: string) => unknown;

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

function optionalPath(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function stringList(value: unknown): string[] {
  if (!Array.isArray(value)) {
    return [];
  }
  return value.filter((item): item is string => typeof item === 'string' && item.trim() !== '').map((item) => item.trim());
}

function rules(value: unknown): Record<string, RuleLevel> {
  const result: Record<string, RuleLevel> = {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return result;
  }
  for (const [key, level] of Object.entries(value as Record<string, unknown>)) {
    if (key.trim() !== '' && typeof level === 'string' && (RULE_LEVELS as readonly string[]).includes(level)) {
      result[key.trim()] = level as RuleLevel;
    }
  }
  return result;
}

function hostList(value: unknown): Host[] {
  if (!Array.isArray(value)) {
    return [...DEFAULT_SERVER_SETTINGS.hosts];
  }
  const known = value.filter((item): item is Host => typeof item === 'string' && (HOSTS as readonly string[]).includes(item));
  return [...new Set(known)];
}

function hostTokens(value: unknown): Partial<Record<Host, number>> {
  const result: Partial<Record<Host, number>> = {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return result;
  }
  for (const [key, tokens] of Object.entries(value as Record<string, unknown>)) {
    if ((HOSTS as readonly string[]).includes(key) && typeof tokens === 'number' && Number.isInteger(tokens) && tokens >= 1) {
      result[key as Host] = tokens;
    }
  }
  return result;
}

function objectList(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) {
    return [];
  }
  return value.filter((item): item is Record<string, unknown> => item !== null && typeof item === 'object' && !Array.isArray(item));
}

function maxLength(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    return DEFAULT_SERVER_SETTINGS.catalogDescriptionMaxLength;
  }
  return Math.max(3, Math.floor(value));
}

/**
 * Read and normalise all settings. Invalid values fall back to defaults, so the
 * server always receives the documented shape.
 */
export function readSettings(get: SettingGetter): ClientSettings {
  const includeUserRoots = get('includeUserRoots');
  return {
    server: {
      profile: oneOf(get('profile'), PROFILES, 'dsh'),
      customSkillDirs: stringList(get('customSkillDirs')),
      dshHome: optionalPath(get('dshHome')),
      agentsHome: optionalPath(get('agentsHome')),
      bundledSkillDir: optionalPath(get('bundledSkillDir')),
      catalogDescriptionMaxLength: maxLength(get('catalogDescriptionMaxLength')),
      includeUserRoots: typeof includeUserRoots === 'boolean' ? includeUserRoots : true,
      rules: rules(get('rules')),
      hosts: hostList(get('hosts')),
      contextTokens: hostTokens(get('contextTokens')),
      sources: objectList(get('sources')),
    },
    pythonPath: typeof get('server.pythonPath') === 'string' ? String(get('server.pythonPath')).trim() : '',
    importStrategy: oneOf(get('importStrategy'), IMPORT_STRATEGIES, 'useBundled'),
    trace: oneOf(get('trace.server'), TRACE_LEVELS, 'off'),
  };
}


/**
 * The fields of VS Code's `WorkspaceConfiguration.inspect(key)` this module reads.
 * `defaultValue` is listed so callers can pass the whole object: it is never sent.
 */
export interface SettingInspection {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
  globalLanguageValue?: unknown;
  workspaceLanguageValue?: unknown;
  workspaceFolderLanguageValue?: unknown;
}

/** `inspect(key)` for one key below `skilldeck.` (e.g. `profile`). */
export type SettingInspector = (key: string) => SettingInspection | undefined;

/** The user-set scopes, least specific first (a later one overrides an earlier one). */
const USER_SCOPES = [
  'globalValue',
  'globalLanguageValue',
  'workspaceValue',
  'workspaceLanguageValue',
  'workspaceFolderValue',
  'workspaceFolderLanguageValue',
] as const satisfies readonly (keyof SettingInspection)[];

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The value the user set for one setting, or `undefined` when only the default
 * applies. The most specific scope wins; objects (`rules`, `contextTokens`) merge key by key across
 * scopes, as VS Code merges them.
 */
export function userValue(inspection: SettingInspection | undefined): unknown {
  let result: unknown = undefined;
  for (const scope of USER_SCOPES) {
    const value = inspection?.[scope];
    if (value === undefined) {
      continue;
    }
    result = isObject(value) && isObject(result) ? { ...result, ...value } : value;
  }
  return result;
}

/**
 * The `skilldeck` section as the server must receive it: only the settings the user
 * set (user, workspace or folder scope, language-specific or not), never VS Code's
 * defaults, so the project's `skilldeck.toml` decides everything the user left alone.
 * Values are passed as set: the server validates them and names a bad one.
 */
export function userSetServerSettings(inspect: SettingInspector): Partial<Record<ServerSettingKey, unknown>> {
  const result: Partial<Record<ServerSettingKey, unknown>> = {};
  for (const key of SERVER_SETTING_KEYS) {
    const value = userValue(inspect(key));
    if (value !== undefined && value !== null) {
      result[key] = JSON.parse(JSON.stringify(value)) as unknown;
    }
  }
  return result;
}

/** The `initializationOptions` sent with `initialize`: the same user-set values. */
export function initializationOptions(inspect: SettingInspector): Partial<Record<ServerSettingKey, unknown>> {
  return userSetServerSettings(inspect);
}

/** Keys below `skilldeck.` whose change needs a server restart (everything but the trace level). */
export const RESTART_KEYS: readonly string[] = ['server.pythonPath', 'importStrategy', ...SERVER_SETTING_KEYS];

/** True when a configuration change (tested with `affects('skilldeck.<key>')`) needs a restart. */
export function needsRestart(affects: (section: string) => boolean): boolean {
  return RESTART_KEYS.some((key) => affects(`skilldeck.${key}`));
}

/** A `DocumentFilter` as plain data (the adapter passes it to the client unchanged). */
export interface DocumentFilterData {
  scheme: 'file';
  language: 'markdown';
  pattern: string;
}

/** The fixed skill-file patterns: never all Markdown. */
export const SKILL_PATTERNS: readonly string[] = ['**/.dsh/skills/**', '**/.agents/skills/**', '**/SKILL.md'];

function toSlashes(path: string): string {
  return path.replace(/\\/g, '/').replace(/\/+$/, '');
}

/**
 * The glob for a custom skill dir: absolute and `~/` paths anchor at that
 * directory; relative ones match under any workspace folder.
 */
export function customDirPattern(dir: string, home: string): string | null {
  let path = toSlashes(dir.trim());
  if (path === '' || path === '.') {
    return null;
  }
  if (path === '~' || path.startsWith('~/')) {
    path = toSlashes(home) + path.slice(1);
  }
  if (path.startsWith('/') || /^[A-Za-z]:\//.test(path)) {
    return `${path}/**`;
  }
  path = path.replace(/^(\.\/)+/, '');
  return `**/${path}/**`;
}

/** The document selector: skill patterns plus one per custom dir, deduplicated. */
export function documentSelector(customSkillDirs: readonly string[], home: string): DocumentFilterData[] {
  const patterns: string[] = [...SKILL_PATTERNS];
  for (const dir of customSkillDirs) {
    const pattern = customDirPattern(dir, home);
    if (pattern !== null && !patterns.includes(pattern)) {
      patterns.push(pattern);
    }
  }
  return patterns.map((pattern) => ({ scheme: 'file', language: 'markdown', pattern }));
}

/** A settings scope to write to (VS Code's `ConfigurationTarget`, without the `vscode` import). */
export type SettingTarget = 'global' | 'workspace' | 'workspaceFolder';

/**
 * Where to write a new value so that it takes effect: the most specific scope that sets
 * the key now (a global value would stay hidden under a workspace or folder one), else
 * the user (global) settings.
 */
export function effectiveTarget(inspection: SettingInspection | undefined): SettingTarget {
  if (inspection?.workspaceFolderValue !== undefined) {
    return 'workspaceFolder';
  }
  if (inspection?.workspaceValue !== undefined) {
    return 'workspace';
  }
  return 'global';
}
