/**
 * Extension entry point: wires the server controller, the catalog preview,
 * the Skills view and the status bar together.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CatalogPreview, CatalogStatus } from './catalogPreview';
import { PREVIEW_SCHEME } from './preview';
import { currentSelector, currentSettings, ServerController } from './server';
import { needsRestart, SKILL_PATTERNS } from './settings';
import { registerSideBySide } from './overlapActions';
import { registerShowShadowing } from './shadowingCommand';
import { SkillsView } from './skillsView';
import type { TreeNode } from './tree-model';
import { suggestOnType } from './suggestOnType';

async function workspaceHasSkills(): Promise<boolean> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    return false;
  }
  // The usual case answers at once (a search of the workspace took a second while VS Code
  // restored a window): a skill root at the top of a folder.
  const roots = ['.dsh/skills', '.agents/skills'];
  if (folders.some((folder) => folder.uri.scheme === 'file' && roots.some((root) => fs.existsSync(path.join(folder.uri.fsPath, root))))) {
    return true;
  }
  const found = await vscode.workspace.findFiles(`{${SKILL_PATTERNS.join(',')}}`, '**/node_modules/**', 1);
  return found.length > 0;
}

function matchesSelector(document: vscode.TextDocument): boolean {
  return vscode.languages.match(currentSelector(currentSettings()), document) > 0;
}

/** Remove the compiled libraries of other versions of the extension (best effort). */
async function removeOtherPycaches(storage: string, keep: string): Promise<void> {
  try {
    for (const name of await fs.promises.readdir(storage)) {
      if (name.startsWith('pycache-') && name !== keep) {
        await fs.promises.rm(path.join(storage, name), { recursive: true, force: true });
      }
    }
  } catch {
    // No storage folder yet: nothing to remove.
  }
}

let active: ServerController | undefined;

/** Activate: start the server once the workspace or an open document has skills. */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('Skilldeck', { log: true });
  const manifest = context.extension.packageJSON as { version?: unknown } | undefined;
  const version = typeof manifest?.version === 'string' ? manifest.version : '';
  const pycache = `pycache-${version}`;
  void removeOtherPycaches(context.globalStorageUri.fsPath, pycache);
  const server = new ServerController(output, context.extensionPath, context.workspaceState, version, path.join(context.globalStorageUri.fsPath, pycache));
  active = server;
  const preview = new CatalogPreview(server);
  const status = new CatalogStatus(server, output);
  const skills = new SkillsView(server);
  context.subscriptions.push(output, server, preview, status, skills);

  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, preview),
    vscode.window.registerTreeDataProvider('skilldeck.skills', skills),
    vscode.commands.registerCommand('skilldeck.restartServer', async () => {
      output.info('Restarting the skilldeck language server.');
      await server.restart();
    }),
    vscode.commands.registerCommand('skilldeck.previewCatalog', () => preview.open()),
    vscode.commands.registerCommand('skilldeck.previewHostListing', () => preview.pickHost()),
    vscode.commands.registerCommand('skilldeck.refreshSkills', () => skills.refresh()),
    vscode.commands.registerCommand('skilldeck.openWinner', (node: TreeNode | undefined) => skills.openWinner(node)),
    vscode.commands.registerCommand('skilldeck.showOutput', () => output.show(true)),
    vscode.commands.registerCommand('skilldeck.showServerProblem', () => server.showProblem()),
    // The server's own command (skilldeck.sources.update) exists only while it runs.
    vscode.commands.registerCommand('skilldeck.updateSources', () => server.updateSources()),
    registerShowShadowing(server),
    // Only skilldeck's SD801 / SD802 diagnostics offer the action, so any Markdown file will do.
    registerSideBySide({ scheme: 'file', language: 'markdown' }),
    server.onDidChangeState((state) => {
      status.show(state);
      preview.refresh();
      skills.refresh();
    }),
    server.onDidStart(() => {
      void status.refresh();
      preview.refresh();
      skills.refresh();
    }),
    server.onDidIndex((update) => {
      if (update.kind === 'progress') {
        status.show(update.input);
      } else {
        // An index (a root appeared, settings changed) may change the roots and skills the
        // view lists without changing the catalog (an empty root created, issue #41.1).
        void status.refresh();
        skills.refresh();
      }
    }),
    server.onDidChangeCatalog((params) => {
      status.changed(params);
      preview.refresh(params.folderUri);
      skills.refresh();
    }),
    vscode.window.onDidChangeActiveTextEditor((editor) => {
      if (editor !== undefined && editor.document.uri.scheme === 'file') {
        void status.refresh();
      }
    }),
    // Completion while typing in skill files only (typing-suggest.ts says why).
    suggestOnType(server, matchesSelector),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('skilldeck.catalogTokenBudget')) {
        status.redraw();
      }
      if (
        event.affectsConfiguration('skilldeck.skillsView.groupThreshold') ||
        event.affectsConfiguration('skilldeck.skillsView.groupBy')
      ) {
        skills.refresh();
      }
      if (needsRestart((section) => event.affectsConfiguration(section))) {
        output.info('Skilldeck settings changed; restarting the server.');
        void server.restart();
      }
    }),
  );

  const customDirs = currentSettings().server.customSkillDirs.length > 0;
  if (customDirs || vscode.workspace.textDocuments.some(matchesSelector) || (await workspaceHasSkills())) {
    void server.start();
    return;
  }
  const waiting = vscode.workspace.onDidOpenTextDocument((document) => {
    if (matchesSelector(document)) {
      waiting.dispose();
      void server.start();
    }
  });
  context.subscriptions.push(waiting);
}

/** Deactivate: stop the server and wait for it to exit. */
export function deactivate(): Promise<void> | undefined {
  const server = active;
  active = undefined;
  return server?.stop();
}
