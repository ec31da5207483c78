/**
 * Adapter: the read-only catalog preview document and the status bar item.
 */
import * as vscode from 'vscode';
import { catalogTarget, hostPreviewContent, PREVIEW_LANGUAGE, previewContent, previewError, previewPath, previewTitle, PREVIEW_SCHEME, type CatalogTarget } from './preview';
import { CATALOG_REQUEST, HOST_CATALOG_REQUEST, type CatalogChangedParams, type CatalogResult, type HostCatalogResult } from './protocol';
import { hostPicks } from './settings';
import type { ServerController } from './server';
import { statusView, type StatusInput } from './status';

function sameUri(a: string, b: string): boolean {
  try {
    return vscode.Uri.parse(a).toString() === vscode.Uri.parse(b).toString();
  } catch {
    return a === b;
  }
}

/** The folder shown last (a file outside the workspace keeps it). */
let lastTarget: string | undefined;

/** The workspace folder the catalog is asked for, and a file outside every folder (preview.ts). */
export function currentCatalogTarget(): CatalogTarget {
  const document = vscode.window.activeTextEditor?.document;
  const active =
    document === undefined
      ? undefined
      : { uri: document.uri.toString(), scheme: document.uri.scheme, folder: vscode.workspace.getWorkspaceFolder(document.uri)?.uri.toString() };
  const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.toString());
  const last = lastTarget !== undefined && folders.includes(lastTarget) ? lastTarget : undefined;
  const result = catalogTarget(active, last, folders[0]);
  lastTarget = result.target;
  return result;
}

/** The workspace folder the catalog is asked for. */
export function currentTarget(): string | undefined {
  return currentCatalogTarget().target;
}

/** Provides `skilldeck-catalog:` documents and keeps them fresh. */
export class CatalogPreview implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changes.event;

  constructor(private readonly server: ServerController) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const folder = uri.query;
    const host = uri.fragment;
    try {
      if (host !== '' && host !== 'dsh') {
        // Another agent's listing and budget (the host picker); DSH's is the catalog itself.
        const result = await this.server.request<HostCatalogResult>(HOST_CATALOG_REQUEST, { uri: folder, host });
        return hostPreviewContent(result);
      }
      const result = await this.server.request<CatalogResult>(CATALOG_REQUEST, { uri: folder });
      return previewContent(result);
    } catch (error) {
      return previewError(folder, error instanceof Error ? error.message : String(error));
    }
  }

  /** Re-render open previews for `folderUri` (all of them when undefined). */
  refresh(folderUri?: string): void {
    for (const document of vscode.workspace.textDocuments) {
      if (document.uri.scheme === PREVIEW_SCHEME && (folderUri === undefined || sameUri(document.uri.query, folderUri))) {
        this.changes.fire(document.uri);
      }
    }
  }

  /** Pick an agent (`skilldeck.hosts` first), then open its listing beside the editor. */
  async pickHost(): Promise<void> {
    const configured = vscode.workspace.getConfiguration('skilldeck').get<unknown>('hosts');
    const manifest: unknown = vscode.extensions.getExtension('skilldeck.skilldeck')?.packageJSON;
    const picked = await vscode.window.showQuickPick(hostPicks(configured, manifest), {
      placeHolder: 'Preview the skill listing of which agent?',
      matchOnDescription: true,
    });
    if (picked !== undefined) {
      await this.open(picked.host);
    }
  }

  /** Open the preview (of `host`'s listing, else the catalog) beside the active editor. */
  async open(host?: string): Promise<void> {
    const target = currentTarget();
    if (target === undefined) {
      void vscode.window.showWarningMessage('Skilldeck: open a folder to preview its skill catalog.');
      return;
    }
    const path = host === undefined || host === 'dsh' ? previewPath(target) : previewPath(target).replace(/ catalog$/, ` ${host} listing`);
    const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path, query: target, fragment: host ?? '' });
    let document = await vscode.workspace.openTextDocument(uri);
    if (document.languageId !== PREVIEW_LANGUAGE) {
      // Its language carries the word wrap (configurationDefaults in package.json).
      document = await vscode.languages.setTextDocumentLanguage(document, PREVIEW_LANGUAGE);
    }
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: true });
  }

  dispose(): void {
    this.changes.dispose();
  }
}

/** The status bar item: skill count, token estimate, incomplete warning. */
export class CatalogStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('skilldeck.status', vscode.StatusBarAlignment.Right, 100);

  private last: { input: StatusInput; title?: string } | undefined;
  /** Files outside the workspace already noted in the output (once each). */
  private readonly noted = new Set<string>();

  constructor(
    private readonly server: ServerController,
    private readonly output: vscode.LogOutputChannel,
  ) {
    this.item.name = 'Skilldeck';
    this.item.command = 'skilldeck.previewCatalog';
  }

  /** Show the last state again (the token budget setting changed). */
  redraw(): void {
    if (this.last !== undefined) {
      this.show(this.last.input, this.last.title);
    }
  }

  show(input: StatusInput, title?: string): void {
    this.last = { input, title };
    const budget = vscode.workspace.getConfiguration('skilldeck').get<unknown>('catalogTokenBudget');
    const view = statusView(input, typeof budget === 'number' && Number.isFinite(budget) ? budget : 0);
    this.item.text = view.text;
    // A stopped server's item explains why (the same notice, with its actions).
    this.item.command = input.state === 'stopped' ? 'skilldeck.showServerProblem' : 'skilldeck.previewCatalog';
    this.item.tooltip = title === undefined ? view.tooltip : `${title}\n${view.tooltip}`;
    this.item.backgroundColor =
      view.level === 'normal' ? undefined : new vscode.ThemeColor(view.level === 'error' ? 'statusBarItem.errorBackground' : 'statusBarItem.warningBackground');
    this.item.show();
  }

  /** Ask the server for the current folder's catalog and show its numbers. */
  async refresh(): Promise<void> {
    const { target, outside } = currentCatalogTarget();
    if (outside !== undefined && !this.noted.has(outside)) {
      this.noted.add(outside);
      const shown = target === undefined ? 'nothing' : `the catalog of ${vscode.Uri.parse(target).fsPath}`;
      this.output.info(`${vscode.Uri.parse(outside).fsPath} is outside the workspace folders: the status item shows ${shown}.`);
    }
    if (target === undefined || this.server.running === undefined) {
      return;
    }
    try {
      const result = await this.server.request<CatalogResult>(CATALOG_REQUEST, { uri: target });
      this.show(
        { state: 'ready', skillCount: result.skillCount, tokenEstimate: result.tokenEstimate, complete: result.complete, counts: result.counts },
        previewTitle(result),
      );
    } catch (error) {
      // A request that failed is not a server that stopped (the controller reports that):
      // keep what the item shows, and say why in the output.
      this.output.warn(`Skilldeck: the catalog of ${target} could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Apply a `skilldeck/catalogChanged` when it is about the current folder. */
  changed(params: CatalogChangedParams): void {
    const target = currentTarget();
    if (target === undefined || sameUri(target, params.folderUri)) {
      this.show(
        { state: 'ready', skillCount: params.skillCount, tokenEstimate: params.tokenEstimate, complete: params.complete, counts: params.counts },
        previewTitle({ ...params }),
      );
    }
  }

  dispose(): void {
    this.item.dispose();
  }
}
