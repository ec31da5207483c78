/**
 * The Skills view as plain data, built from a `skilldeck/skills` response.
 * The `vscode` adapter maps each node to a TreeItem one to one.
 */
import type { FolderInfo, RootInfo, SkillInfo, SkillRef, SkillsResult } from './protocol';

/** A command a node runs when clicked. */
export interface NodeCommand {
  id: string;
  title: string;
  args: unknown[];
}

/** One row of the Skills view. */
export interface TreeNode {
  kind: 'folder' | 'root' | 'group' | 'skill' | 'link' | 'message';
  /** Stable id (keeps expansion state across refreshes). */
  id: string;
  label: string;
  description: string;
  tooltip: string;
  /** A codicon id, e.g. `error`, `pass`. */
  icon: string;
  /** The file or folder the row stands for, if any. */
  resourceUri: string | null;
  /** `viewItem` for menus: `skill.winner`, `skill.shadowed`, `skill.rejected`, `root`, ... */
  contextValue: string;
  command: NodeCommand | null;
  expanded: boolean;
  children: TreeNode[];
}

/** How the tree is laid out (from the settings and the environment). */
export interface TreeOptions {
  /** A root with more skills than this lists them under first-letter groups (0: never). */
  groupThreshold: number;
  /** `root` (the roots in rank order) or `host` (one row per agent of `skilldeck.hosts`). */
  groupBy?: 'root' | 'host';
  /** The user's home folder: paths under it outside the workspace show as `~/...`. */
  home: string;
}

export const DEFAULT_TREE_OPTIONS: TreeOptions = { groupThreshold: 100, home: '' };

/** Command ids the model refers to (registered by the adapter). */
export const OPEN_COMMAND = 'vscode.open';
export const OPEN_WINNER_COMMAND = 'skilldeck.openWinner';

function node(partial: Partial<TreeNode> & Pick<TreeNode, 'kind' | 'id' | 'label'>): TreeNode {
  return {
    description: '',
    tooltip: '',
    icon: '',
    resourceUri: null,
    contextValue: partial.kind,
    command: null,
    expanded: false,
    children: [],
    ...partial,
  };
}

/** Invocation flags as a short description: who may start the skill. */
export function invocationLabel(skill: Pick<SkillInfo, 'modelInvocable' | 'userInvocable'>): string {
  if (skill.modelInvocable && skill.userInvocable) {
    return 'model + /user';
  }
  if (skill.modelInvocable) {
    return 'model only';
  }
  if (skill.userInvocable) {
    return '/user only';
  }
  return 'not invocable';
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function refLabel(ref: SkillRef): string {
  const provider = ref.provider ? `, provider ${ref.provider}` : '';
  return `${ref.source} (rank ${ref.rank}${provider})`;
}

/** How a skill row or link opens: its file, or nothing for a skill no file holds. */
function openCommand(uri: string | null, title: string): NodeCommand | null {
  return uri === null ? null : { id: OPEN_COMMAND, title, args: [uri] };
}

function skillState(skill: SkillInfo): 'winner' | 'shadowed' | 'rejected' {
  if (!skill.accepted) {
    return 'rejected';
  }
  return skill.winner ? 'winner' : 'shadowed';
}

function skillIcon(skill: SkillInfo, state: 'winner' | 'shadowed' | 'rejected'): string {
  if (state === 'rejected' || skill.errorCount > 0) {
    return 'error';
  }
  if (state === 'shadowed') {
    return 'eye-closed';
  }
  if (skill.warningCount > 0) {
    return 'warning';
  }
  if (!skill.modelInvocable) {
    return 'person';
  }
  return 'sparkle';
}

function skillDescription(skill: SkillInfo, state: 'winner' | 'shadowed' | 'rejected'): string {
  const parts: string[] = [];
  if (state === 'shadowed') {
    parts.push(skill.shadowedBy === null ? 'shadowed' : `shadowed by ${skill.shadowedBy.source}`);
  } else if (state === 'rejected') {
    parts.push('not loaded');
  } else {
    parts.push(invocationLabel(skill));
  }
  if (skill.errorCount > 0) {
    parts.push(plural(skill.errorCount, 'error'));
  }
  if (skill.warningCount > 0) {
    parts.push(plural(skill.warningCount, 'warning'));
  }
  return parts.join(' · ');
}

function skillTooltip(skill: SkillInfo, state: 'winner' | 'shadowed' | 'rejected'): string {
  const lines = [skill.name, skill.description.trim() === '' ? '(no description)' : skill.description];
  lines.push(`Invocation: ${invocationLabel(skill)}`);
  lines.push(`Layout: ${layoutLabel(skill)}`);
  if (state === 'shadowed' && skill.shadowedBy !== null) {
    lines.push(`Shadowed by ${refLabel(skill.shadowedBy)}`);
  }
  if (state === 'rejected') {
    lines.push('Not loaded: fix the errors in this file.');
  }
  for (const ref of skill.shadows) {
    lines.push(`Shadows ${refLabel(ref)}`);
  }
  return lines.join('\n');
}

function layoutLabel(skill: SkillInfo): string {
  if (skill.layout === 'provided') {
    return `provided by ${skill.provider ?? 'another provider'}${skill.uri === null ? ' (no file)' : ''}`;
  }
  return skill.layout === 'bundle' ? 'folder with SKILL.md' : 'single file';
}

function linkNode(parentId: string, verb: 'shadowed by' | 'shadows', ref: SkillRef): TreeNode {
  const where = ref.uri ?? `provider ${ref.provider ?? ref.source} (no file)`;
  return node({
    kind: 'link',
    id: `${parentId}|${verb}|${ref.uri ?? `${ref.provider ?? ''}:${ref.source}`}`,
    label: `${verb} ${ref.source}`,
    description: ref.provider ? `rank ${ref.rank} · ${ref.provider}` : `rank ${ref.rank}`,
    tooltip: `${verb === 'shadowed by' ? 'The winning skill' : 'The shadowed skill'}: ${where}`,
    icon: verb === 'shadowed by' ? 'arrow-up' : 'arrow-down',
    resourceUri: ref.uri,
    contextValue: 'link',
    command: openCommand(ref.uri, 'Open'),
  });
}

/** One skill row with its shadowing links as children. */
export function skillNode(skill: SkillInfo, parentId: string): TreeNode {
  const state = skillState(skill);
  const id = `${parentId}|skill|${skill.uri ?? `${skill.provider ?? ''}:${skill.name}`}`;
  const children: TreeNode[] = [];
  if (state === 'shadowed' && skill.shadowedBy !== null) {
    children.push(linkNode(id, 'shadowed by', skill.shadowedBy));
  }
  for (const ref of skill.shadows) {
    children.push(linkNode(id, 'shadows', ref));
  }
  return node({
    kind: 'skill',
    id,
    label: skill.name,
    description: skillDescription(skill, state),
    tooltip: skillTooltip(skill, state),
    icon: skillIcon(skill, state),
    resourceUri: skill.uri,
    contextValue: `skill.${state}`,
    command: openCommand(skill.uri, 'Open Skill'),
    children,
  });
}

/**
 * Where a root is, for its row: relative to the workspace folder when inside it,
 * `~/...` under the home folder, else the absolute path.
 */
export function rootLocation(
  root: Pick<RootInfo, 'path' | 'uri' | 'provider'>,
  folderUri: string,
  home: string,
): string {
  if (root.path === null || root.uri === null) {
    return `provider ${root.provider ?? 'unknown'}`;
  }
  const folder = folderUri.replace(/\/+$/, '');
  if (root.uri.startsWith(`${folder}/`)) {
    const rest = root.uri.slice(folder.length + 1);
    try {
      return decodeURIComponent(rest);
    } catch {
      return rest;
    }
  }
  const base = home.replace(/[\\/]+$/, '');
  if (base !== '' && (root.path === base || root.path.startsWith(`${base}/`) || root.path.startsWith(`${base}\\`))) {
    return `~${root.path.slice(base.length)}`;
  }
  return root.path;
}

/** The group a skill name files under: its first letter, upper-cased, or `#`. */
export function groupKey(name: string): string {
  const first = name.charAt(0).toUpperCase();
  return /[A-Z]/.test(first) ? first : '#';
}

function groupedSkills(skills: readonly SkillInfo[], id: string): TreeNode[] {
  const groups = new Map<string, SkillInfo[]>();
  for (const skill of skills) {
    const key = groupKey(skill.name);
    groups.set(key, [...(groups.get(key) ?? []), skill]);
  }
  return [...groups.keys()]
    .sort((a, b) => (a === '#' ? -1 : b === '#' ? 1 : a.localeCompare(b)))
    .map((key) => {
      const members = groups.get(key) ?? [];
      const groupId = `${id}|group|${key}`;
      const first = members[0]?.name ?? '';
      const last = members[members.length - 1]?.name ?? '';
      return node({
        kind: 'group',
        id: groupId,
        label: key,
        description: plural(members.length, 'skill'),
        tooltip: members.length === 1 ? first : `${first} … ${last}`,
        icon: 'list-tree',
        contextValue: 'group',
        children: members.map((skill) => skillNode(skill, groupId)),
      });
    });
}

/**
 * One root row (source, skill count, location) with its skills sorted by name;
 * more than `options.groupThreshold` skills are grouped by first letter.
 */
export function rootNode(root: RootInfo, parentId: string, folderUri = '', options: TreeOptions = DEFAULT_TREE_OPTIONS): TreeNode {
  const id = `${parentId}|root|${root.rank}|${root.uri ?? `provider:${root.provider ?? root.source}`}`;
  const skills = [...root.skills].sort((a, b) => a.name.localeCompare(b.name) || (a.uri ?? '').localeCompare(b.uri ?? ''));
  const grouped = options.groupThreshold > 0 && skills.length > options.groupThreshold;
  const children = grouped ? groupedSkills(skills, id) : skills.map((skill) => skillNode(skill, id));
  const count = root.exists ? plural(root.skills.length, 'skill') : 'missing';
  return node({
    kind: 'root',
    id,
    label: root.source,
    description: `${count} · ${rootLocation(root, folderUri, options.home)}`,
    tooltip: `${root.source} (rank ${root.rank}; a lower rank wins a shared name)\n${root.path ?? `skills of provider ${root.provider ?? 'unknown'}`}${root.exists ? '' : '\n(directory does not exist)'}`,
    icon: root.provider ? 'plug' : root.exists ? 'folder' : 'folder-library',
    resourceUri: root.exists ? root.uri : null,
    contextValue: root.exists ? 'root' : 'root.missing',
    expanded: root.exists && root.skills.length > 0,
    children,
  });
}

function folderLabel(folderUri: string): string {
  const trimmed = folderUri.replace(/\/+$/, '');
  const last = trimmed.slice(trimmed.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last) || folderUri;
  } catch {
    return last || folderUri;
  }
}

function folderRoots(folder: FolderInfo, parentId: string, options: TreeOptions): TreeNode[] {
  if (options.groupBy === 'host') {
    const hosts = hostNodes(folder, parentId);
    if (hosts.length > 0) {
      return hosts;
    }
  }
  return [...folder.roots].sort((a, b) => a.rank - b.rank).map((root) => rootNode(root, parentId, folder.folderUri, options));
}

/**
 * One row per agent named in the skills' verdicts (`skilldeck.hosts`), each with the
 * skill files it looks at: loaded ones first (with their catalog state), then the ones it
 * does not load. Empty when no verdicts came (only DSH configured).
 */
export function hostNodes(folder: FolderInfo, parentId: string): TreeNode[] {
  const skills = folder.roots.flatMap((root) => root.skills);
  const hosts = [...new Set(skills.flatMap((skill) => Object.keys(skill.hosts ?? {})))];
  return hosts.map((host) => {
    const id = `${parentId}|host|${host}`;
    const seen = skills
      .filter((skill) => skill.hosts?.[host] !== undefined)
      .sort((a, b) => a.name.localeCompare(b.name) || (a.uri ?? '').localeCompare(b.uri ?? ''));
    const loaded = seen.filter((skill) => skill.hosts?.[host]?.loads);
    const children = seen.map((skill) => {
      const verdict = skill.hosts?.[host];
      const item = skillNode(skill, id);
      const catalog = verdict?.catalog ?? 'full';
      return {
        ...item,
        description: verdict?.loads ? `loads · catalog ${catalog}` : 'does not load',
        icon: verdict?.loads ? (catalog === 'full' ? 'pass' : 'warning') : 'circle-slash',
        children: [],
      };
    });
    return node({
      kind: 'root',
      id,
      label: host,
      description: `${plural(loaded.length, 'skill')} loaded · ${seen.length - loaded.length} not`,
      tooltip: `What ${host} does with the skill files it looks at (docs/hosts.md)`,
      icon: 'hubot',
      contextValue: 'host',
      expanded: true,
      children,
    });
  });
}

/**
 * The whole view. With one workspace folder the roots are top level; with
 * several, each folder is a top-level node. An incomplete discovery adds a
 * warning row first; an empty answer yields one explanatory row.
 */
export function buildTree(result: SkillsResult, options: TreeOptions = DEFAULT_TREE_OPTIONS): TreeNode[] {
  const top: TreeNode[] = [];
  if (!result.complete) {
    top.push(
      node({
        kind: 'message',
        id: 'incomplete',
        label: 'Discovery incomplete',
        description: 'some roots could not be read',
        tooltip: 'Some skill roots could not be fully scanned; the list may be missing skills. See the Skilldeck output.',
        icon: 'warning',
      }),
    );
  }
  if (result.folders.length === 1) {
    top.push(...folderRoots(result.folders[0], 'f0', options));
  } else {
    result.folders.forEach((folder, index) => {
      top.push(
        node({
          kind: 'folder',
          id: `f${index}|${folder.folderUri}`,
          label: folderLabel(folder.folderUri),
          description: plural(folder.roots.length, 'root'),
          tooltip: folder.folderUri,
          icon: 'root-folder',
          resourceUri: folder.folderUri,
          expanded: true,
          children: folderRoots(folder, `f${index}`, options),
        }),
      );
    });
  }
  if (top.length === 0 || top.every((item) => item.kind === 'message')) {
    top.push(node({ kind: 'message', id: 'empty', label: 'No skill roots', icon: 'info' }));
  }
  return top;
}

/** Every skill node, depth first (for reveal and tests). */
export function allSkillNodes(nodes: readonly TreeNode[]): TreeNode[] {
  const found: TreeNode[] = [];
  const walk = (items: readonly TreeNode[]): void => {
    for (const item of items) {
      if (item.kind === 'skill') {
        found.push(item);
      }
      walk(item.children);
    }
  };
  walk(nodes);
  return found;
}
