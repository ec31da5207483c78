import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allSkillNodes, buildTree, groupKey, invocationLabel, rootLocation, type TreeNode } from '../src/tree-model';
import type { SkillsResult } from '../src/protocol';
import { exampleSkills } from './fixtures';

function summary(nodes: readonly TreeNode[], depth = 0): string[] {
  return nodes.flatMap((node) => [
    `${'  '.repeat(depth)}[${node.icon}] ${node.label} — ${node.description}`,
    ...summary(node.children, depth + 1),
  ]);
}

describe('buildTree', () => {
  it('shows a provider row for skills no root holds, with no open command when there is no file', () => {
    const result: SkillsResult = {
      complete: true,
      folders: [
        {
          folderUri: 'file:///w/ws',
          roots: [
            {
              rank: 300,
              source: 'custom',
              path: '/w/ws/team',
              uri: 'file:///w/ws/team',
              provider: null,
              exists: true,
              skills: [
                {
                  name: 'gamma',
                  description: 'Team gamma.',
                  uri: 'file:///w/ws/team/gamma/SKILL.md',
                  layout: 'bundle',
                  winner: false,
                  accepted: true,
                  shadowedBy: { source: 'remote', rank: 250, uri: null, provider: 'team-server' },
                  shadows: [],
                  modelInvocable: true,
                  userInvocable: true,
                  errorCount: 0,
                  warningCount: 0,
                },
              ],
            },
            {
              rank: 250,
              source: 'remote',
              path: null,
              uri: null,
              provider: 'team-server',
              exists: true,
              skills: [
                {
                  name: 'gamma',
                  description: 'Served gamma.',
                  uri: null,
                  layout: 'provided',
                  provider: 'team-server',
                  winner: true,
                  accepted: true,
                  shadowedBy: null,
                  shadows: [{ source: 'custom', rank: 300, uri: 'file:///w/ws/team/gamma/SKILL.md', provider: null }],
                  modelInvocable: true,
                  userInvocable: true,
                  errorCount: 0,
                  warningCount: 0,
                },
              ],
            },
          ],
        },
      ],
    };
    const tree = buildTree(result);
    assert.deepEqual(summary(tree), [
      '[plug] remote — 1 skill · provider team-server',
      '  [sparkle] gamma — model + /user',
      '    [arrow-down] shadows custom — rank 300',
      '[folder] custom — 1 skill · team',
      '  [eye-closed] gamma — shadowed by remote',
      '    [arrow-up] shadowed by remote — rank 250 · team-server',
    ]);
    const [served, shadowed] = allSkillNodes(tree);
    assert.equal(served.command, null);
    assert.match(served.tooltip, /Layout: provided by team-server \(no file\)/);
    assert.equal(shadowed.children[0].command, null);
    assert.equal(shadowed.command?.args[0], 'file:///w/ws/team/gamma/SKILL.md');
  });

  it('lists roots in rank order with skills sorted by name, shadowing links and flags', () => {
    assert.deepEqual(summary(buildTree(exampleSkills())), [
      '[folder] workspace .dsh — 3 skills · .dsh/skills',
      '  [error] Broken_Skill — not loaded · 2 errors',
      '  [person] deploy — /user only',
      '  [warning] release-notes — model + /user · 1 warning',
      '    [arrow-down] shadows workspace .agents — rank 2',
      '[folder] workspace .agents — 1 skill · .agents/skills',
      '  [eye-closed] release-notes — shadowed by workspace .dsh',
      '    [arrow-up] shadowed by workspace .dsh — rank 1',
      '[folder-library] user .dsh — missing · /home/u/.dsh/skills',
    ]);
  });

  it('labels roots by source, not a numbered list, with paths relative to the workspace or ~', () => {
    const tree = buildTree(exampleSkills(), { groupThreshold: 100, home: '/home/u' });
    assert.deepEqual(
      tree.map((node) => [node.label, node.description]),
      [
        ['workspace .dsh', '3 skills · .dsh/skills'],
        ['workspace .agents', '1 skill · .agents/skills'],
        ['user .dsh', 'missing · ~/.dsh/skills'],
      ],
    );
    assert.match(tree[0].tooltip, /^workspace \.dsh \(rank 1; a lower rank wins a shared name\)\n\/w\/examples\/workspace\/\.dsh\/skills$/);
    assert.equal(rootLocation({ path: '/srv/skills', uri: 'file:///srv/skills' }, 'file:///w/ws', '/home/u'), '/srv/skills');
    assert.equal(rootLocation({ path: '/w/ws/my%20x', uri: 'file:///w/ws/my%20skills' }, 'file:///w/ws/', ''), 'my skills');
  });

  it('groups a large root by first letter and keeps small roots flat', () => {
    const result = exampleSkills();
    const root = result.folders[0].roots[1];
    const names = ['alpha', 'apple', 'beta', 'zed', '9lives', 'Broken_Skill'];
    root.skills = names.map((name, index) => ({ ...root.skills[0], name, uri: `${root.uri}/${index}/SKILL.md` }));
    const tree = buildTree(result, { groupThreshold: 5, home: '' });
    const big = tree[0];
    assert.equal(big.description, '6 skills · .dsh/skills');
    assert.deepEqual(
      big.children.map((node) => [node.kind, node.label, node.description, node.children.map((child) => child.label)]),
      [
        ['group', '#', '1 skill', ['9lives']],
        ['group', 'A', '2 skills', ['alpha', 'apple']],
        ['group', 'B', '2 skills', ['beta', 'Broken_Skill']],
        ['group', 'Z', '1 skill', ['zed']],
      ],
    );
    assert.equal(big.children[1].expanded, false);
    assert.equal(allSkillNodes(tree).length, 7);
    assert.deepEqual(
      buildTree(result, { groupThreshold: 6, home: '' })[0].children.map((node) => node.kind),
      ['skill', 'skill', 'skill', 'skill', 'skill', 'skill'],
    );
    assert.equal(buildTree(result, { groupThreshold: 0, home: '' })[0].children[0].kind, 'skill');
    assert.equal(groupKey('-x'), '#');
  });

  it('makes skills open their file and links open the other candidate', () => {
    const tree = buildTree(exampleSkills());
    const shadowed = tree[1].children[0];
    assert.equal(shadowed.contextValue, 'skill.shadowed');
    assert.deepEqual(shadowed.command, {
      id: 'vscode.open',
      title: 'Open Skill',
      args: ['file:///w/examples/workspace/.agents/skills/release-notes/SKILL.md'],
    });
    assert.deepEqual(shadowed.children[0].command?.args, ['file:///w/examples/workspace/.dsh/skills/release-notes/SKILL.md']);
    assert.match(shadowed.tooltip, /Shadowed by workspace \.dsh \(rank 1\)/);
    assert.equal(tree[0].children[0].contextValue, 'skill.rejected');
    assert.equal(tree[0].children[2].contextValue, 'skill.winner');
  });

  it('expands existing roots with skills and leaves missing roots without a resource', () => {
    const tree = buildTree(exampleSkills());
    assert.deepEqual(
      tree.map((node) => [node.expanded, node.resourceUri, node.contextValue]),
      [
        [true, 'file:///w/examples/workspace/.dsh/skills', 'root'],
        [true, 'file:///w/examples/workspace/.agents/skills', 'root'],
        [false, null, 'root.missing'],
      ],
    );
  });

  it('gives every node a unique id', () => {
    const ids: string[] = [];
    const walk = (nodes: readonly TreeNode[]): void => {
      for (const node of nodes) {
        ids.push(node.id);
        walk(node.children);
      }
    };
    walk(buildTree(exampleSkills()));
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(ids.length, 9);
  });

  it('puts an incomplete-discovery warning first', () => {
    const tree = buildTree({ ...exampleSkills(), complete: false });
    assert.equal(tree[0].label, 'Discovery incomplete');
    assert.equal(tree[0].icon, 'warning');
    assert.equal(tree.length, 4);
  });

  it('groups by workspace folder when there are several', () => {
    const one = exampleSkills().folders[0];
    const tree = buildTree({ complete: true, folders: [one, { folderUri: 'file:///w/other%20repo', roots: [] }] });
    assert.deepEqual(
      tree.map((node) => [node.kind, node.label, node.description, node.children.length]),
      [
        ['folder', 'workspace', '3 roots', 3],
        ['folder', 'other repo', '0 roots', 0],
      ],
    );
    assert.equal(allSkillNodes(tree).length, 4);
  });

  it('explains an empty answer', () => {
    assert.deepEqual(
      buildTree({ complete: true, folders: [] }).map((node) => node.label),
      ['No skill roots'],
    );
  });
});

describe('invocationLabel', () => {
  it('names who may invoke the skill', () => {
    assert.equal(invocationLabel({ modelInvocable: true, userInvocable: true }), 'model + /user');
    assert.equal(invocationLabel({ modelInvocable: true, userInvocable: false }), 'model only');
    assert.equal(invocationLabel({ modelInvocable: false, userInvocable: true }), '/user only');
    assert.equal(invocationLabel({ modelInvocable: false, userInvocable: false }), 'not invocable');
  });
});

describe('buildTree grouped by host', () => {
  it('shows one row per agent with what it loads and what it does not', () => {
    const result = exampleSkills();
    const withSkills = result.folders[0].roots.filter((root) => root.skills.length > 0);
    const dshRoot = withSkills.find((root) => root.skills.length > 1) ?? withSkills[0];
    const agentsRoot = withSkills.find((root) => root !== dshRoot) ?? withSkills[0];
    dshRoot.skills[1].hosts = { dsh: { loads: true, catalog: 'full' } };
    agentsRoot.skills[0].hosts = { dsh: { loads: false, catalog: null }, codex: { loads: true, catalog: 'cut' } };
    const tree = buildTree(result, { groupThreshold: 100, home: '', groupBy: 'host' });
    assert.deepEqual(
      tree.map((node) => [node.label, node.description]),
      [
        ['dsh', '1 skill loaded · 1 not'],
        ['codex', '1 skill loaded · 0 not'],
      ],
    );
    assert.deepEqual(
      tree[0].children.map((node) => [node.label, node.description, node.icon]),
      [
        [dshRoot.skills[1].name, 'loads · catalog full', 'pass'],
        [agentsRoot.skills[0].name, 'does not load', 'circle-slash'],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    assert.equal(tree[1].children[0].description, 'loads · catalog cut');
  });

  it('falls back to roots when no agent verdicts came', () => {
    const roots = buildTree(exampleSkills());
    const hosts = buildTree(exampleSkills(), { groupThreshold: 100, home: '', groupBy: 'host' });
    assert.deepEqual(
      hosts.map((node) => node.label),
      roots.map((node) => node.label),
    );
  });
});
