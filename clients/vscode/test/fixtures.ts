import type { CatalogResult, SkillsResult } from '../src/protocol';

/** A skills answer shaped like examples/workspace: two workspace roots, one shadowed name, one broken skill, one missing user root. */
export function exampleSkills(): SkillsResult {
  const ws = 'file:///w/examples/workspace';
  return {
    complete: true,
    folders: [
      {
        folderUri: ws,
        roots: [
          {
            rank: 2,
            source: 'workspace .agents',
            path: '/w/examples/workspace/.agents/skills',
            uri: `${ws}/.agents/skills`,
            exists: true,
            skills: [
              {
                name: 'release-notes',
                description: 'Old release notes recipe.',
                uri: `${ws}/.agents/skills/release-notes/SKILL.md`,
                layout: 'bundle',
                winner: false,
                accepted: true,
                shadowedBy: { source: 'workspace .dsh', rank: 1, uri: `${ws}/.dsh/skills/release-notes/SKILL.md` },
                shadows: [],
                modelInvocable: true,
                userInvocable: true,
                errorCount: 0,
                warningCount: 0,
              },
            ],
          },
          {
            rank: 1,
            source: 'workspace .dsh',
            path: '/w/examples/workspace/.dsh/skills',
            uri: `${ws}/.dsh/skills`,
            exists: true,
            skills: [
              {
                name: 'release-notes',
                description: 'Write release notes from merged PRs.',
                uri: `${ws}/.dsh/skills/release-notes/SKILL.md`,
                layout: 'bundle',
                winner: true,
                accepted: true,
                shadowedBy: null,
                shadows: [{ source: 'workspace .agents', rank: 2, uri: `${ws}/.agents/skills/release-notes/SKILL.md` }],
                modelInvocable: true,
                userInvocable: true,
                errorCount: 0,
                warningCount: 1,
              },
              {
                name: 'Broken_Skill',
                description: '',
                uri: `${ws}/.dsh/skills/broken/SKILL.md`,
                layout: 'bundle',
                winner: false,
                accepted: false,
                shadowedBy: null,
                shadows: [],
                modelInvocable: true,
                userInvocable: true,
                errorCount: 2,
                warningCount: 0,
              },
              {
                name: 'deploy',
                description: 'Deploy by hand.',
                uri: `${ws}/.dsh/skills/deploy.md`,
                layout: 'flat',
                winner: true,
                accepted: true,
                shadowedBy: null,
                shadows: [],
                modelInvocable: false,
                userInvocable: true,
                errorCount: 0,
                warningCount: 0,
              },
            ],
          },
          { rank: 3, source: 'user .dsh', path: '/home/u/.dsh/skills', uri: 'file:///home/u/.dsh/skills', exists: false, skills: [] },
        ],
      },
    ],
  };
}

export function exampleCatalog(): CatalogResult {
  return {
    text: '<available_skills>\n<skill>\n<name>release-notes</name>\n<description>Write release notes from merged PRs.</description>\n</skill>\n</available_skills>\n',
    entries: [{ name: 'release-notes', description: 'Write release notes from merged PRs.' }],
    complete: true,
    tokenEstimate: 1234.4,
    skillCount: 1,
    folderUri: 'file:///w/examples/my%20workspace',
  };
}
