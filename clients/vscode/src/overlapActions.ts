/**
 * The quick fix "Open `other` side by side" on SD801 / SD802 diagnostics, and the
 * `skilldeck.openSideBySide` command it runs. The reading of the diagnostic lives in
 * `./overlap`; this is the thin VS Code layer.
 */
import * as vscode from 'vscode';
import { OPEN_SIDE_BY_SIDE_COMMAND, sideBySideActions } from './overlap';

class SideBySideActions implements vscode.CodeActionProvider {
  provideCodeActions(
    _document: vscode.TextDocument,
    _range: vscode.Range | vscode.Selection,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const result: vscode.CodeAction[] = [];
    for (const diagnostic of context.diagnostics) {
      for (const action of sideBySideActions(diagnostic)) {
        const item = new vscode.CodeAction(action.title, vscode.CodeActionKind.QuickFix);
        item.diagnostics = [diagnostic];
        item.command = { command: OPEN_SIDE_BY_SIDE_COMMAND, title: action.title, arguments: [action.uri] };
        result.push(item);
      }
    }
    return result;
  }
}

/** Register the code actions for ``selector`` and the command that opens the other skill. */
export function registerSideBySide(selector: vscode.DocumentSelector): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.languages.registerCodeActionsProvider(selector, new SideBySideActions(), {
      providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
    }),
    vscode.commands.registerCommand(OPEN_SIDE_BY_SIDE_COMMAND, async (uri: unknown) => {
      if (typeof uri !== 'string') {
        void vscode.window.showErrorMessage('Skilldeck: no skill to open side by side.');
        return;
      }
      await vscode.window.showTextDocument(vscode.Uri.parse(uri), {
        viewColumn: vscode.ViewColumn.Beside,
        preview: false,
      });
    }),
  );
}
