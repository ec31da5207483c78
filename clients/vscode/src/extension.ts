/**
 * Extension entry point: wires the server controller, the catalog preview,
 * the Skills view and the status bar together.
 */
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
  if ((vscode.workspace.workspaceFolders ?? []).length === 0) {
    return false;
  }
  const found = await vscode.workspace.findFiles(`{${SKILL_PATTERNS.join(',')}}`, '**/node_modules/**', 1);
  return found.length > 0;
}

function matchesSelector(document: vscode.TextDocument): boolean {
  return vscode.languages.match(currentSelector(currentSettings()), document) > 0;
}

let active: ServerController | undefined;

/** Activate: start the server once the workspace or an open document has skills. */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('Skilldeck', { log: true });
  const server = new ServerController(output, context.extensionPath);
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
        void status.refresh();
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
