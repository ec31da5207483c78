/**
 * Adapter: the Skills tree in the Explorer, rendered from `tree-model`.
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import { SKILLS_REQUEST, type SkillsResult } from './protocol';
import type { ServerController } from './server';
import { buildTree, DEFAULT_TREE_OPTIONS, OPEN_COMMAND, type TreeNode, type TreeOptions } from './tree-model';
import { refreshDelay } from './refresh-schedule';

function messageNode(id: string, label: string, tooltip: string): TreeNode {
  return {
    kind: 'message',
    id,
    label,
    description: '',
    tooltip,
    icon: 'info',
    resourceUri: null,
    contextValue: 'message',
    command: null,
    expanded: false,
    children: [],
  };
}

/** The tree layout from `skilldeck.skillsView.groupThreshold` / `groupBy` and the home folder. */
function treeOptions(): TreeOptions {
  const threshold = vscode.workspace.getConfiguration('skilldeck').get<unknown>('skillsView.groupThreshold');
  const groupBy = vscode.workspace.getConfiguration('skilldeck').get<unknown>('skillsView.groupBy');
  return {
    groupBy: groupBy === 'host' ? 'host' : 'root',
    groupThreshold: typeof threshold === 'number' && Number.isFinite(threshold) ? threshold : DEFAULT_TREE_OPTIONS.groupThreshold,
    home: os.homedir(),
  };
}

/** TreeDataProvider over the server's `skilldeck/skills` answer. */
export class SkillsView implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changes.event;
  private timer: NodeJS.Timeout | undefined;
  private lastRefresh: number | undefined;

  constructor(private readonly server: ServerController) {}

  /** Refresh soon: bursts coalesce, and at most once per 2 s while changes keep coming. */
  refresh(): void {
    if (this.timer !== undefined) {
      return; // the pending refresh will read the latest state
    }
    const delay = refreshDelay(Date.now(), this.lastRefresh, 200, 2000);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.lastRefresh = Date.now();
      this.changes.fire(undefined);
    }, delay);
  }

  async getChildren(element?: TreeNode): Promise<TreeNode[]> {
    if (element !== undefined) {
      return element.children;
    }
    if (this.server.running === undefined) {
      return [messageNode('stopped', 'Skilldeck server not running', 'Run "Skilldeck: Restart Server" or see the Skilldeck output.')];
    }
    try {
      return buildTree(await this.server.request<SkillsResult>(SKILLS_REQUEST, {}), treeOptions());
    } catch (error) {
      return [messageNode('error', 'Could not list skills', error instanceof Error ? error.message : String(error))];
    }
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const state =
      node.children.length === 0
        ? vscode.TreeItemCollapsibleState.None
        : node.expanded
          ? vscode.TreeItemCollapsibleState.Expanded
          : vscode.TreeItemCollapsibleState.Collapsed;
    const item = new vscode.TreeItem(node.label, state);
    item.id = node.id;
    item.description = node.description;
    item.tooltip = node.tooltip === '' ? undefined : node.tooltip;
    item.contextValue = node.contextValue;
    if (node.icon !== '') {
      const color =
        node.icon === 'error'
          ? new vscode.ThemeColor('list.errorForeground')
          : node.icon === 'warning'
            ? new vscode.ThemeColor('list.warningForeground')
            : undefined;
      item.iconPath = new vscode.ThemeIcon(node.icon, color);
    }
    if (node.command !== null) {
      const args = node.command.id === OPEN_COMMAND ? node.command.args.map((arg) => vscode.Uri.parse(String(arg))) : node.command.args;
      item.command = { command: node.command.id, title: node.command.title, arguments: args };
    }
    return item;
  }

  /** `skilldeck.openWinner`: open the skill that shadows `node`. */
  async openWinner(node: TreeNode | undefined): Promise<void> {
    const link = node?.children.find((child) => child.kind === 'link' && child.label.startsWith('shadowed by'));
    if (link?.resourceUri == null) {
      void vscode.window.showInformationMessage('Skilldeck: this skill is not shadowed.');
      return;
    }
    await vscode.commands.executeCommand(OPEN_COMMAND, vscode.Uri.parse(link.resourceUri));
  }

  dispose(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
    }
    this.changes.dispose();
  }
}
