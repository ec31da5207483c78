import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allSkillNodes, buildTree, invocationLabel, type TreeNode } from '../src/tree-model';
import { exampleSkills } from './fixtures';

function summary(nodes: readonly TreeNode[], depth = 0): string[] {
  return nodes.flatMap((node) => [
    `${'  '.repeat(depth)}[${node.icon}] ${node.label} — ${node.description}`,
    ...summary(node.children, depth + 1),
  ]);
}

describe('buildTree', () => {
  it('lists roots in rank order with skills sorted by name, shadowing links and flags', () => {
    assert.deepEqual(summary(buildTree(exampleSkills())), [
      '[folder] 1. workspace .dsh — 3 skills · /w/examples/workspace/.dsh/skills',
      '  [error] Broken_Skill — not loaded · 2 errors',
      '  [person] deploy — /user only',
      '  [warning] release-notes — model + /user · 1 warning',
      '    [arrow-down] shadows workspace .agents — rank 2',
      '[folder] 2. workspace .agents — 1 skill · /w/examples/workspace/.agents/skills',
      '  [eye-closed] release-notes — shadowed by workspace .dsh',
      '    [arrow-up] shadowed by workspace .dsh — rank 1',
      '[folder-library] 3. user .dsh — missing · /home/u/.dsh/skills',
    ]);
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
