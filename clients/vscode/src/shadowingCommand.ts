/**
 * `skilldeck.showShadowing`: the server's code lens on a skill's `name` line runs it
 * with `{uri, position, locations}` in LSP JSON; this opens those skills in the
 * references peek view. The checking and conversion live in `./shadowing`.
 */
import * as vscode from 'vscode';
import type { ServerController } from './server';
import { planShowShadowing, SHOW_SHADOWING_COMMAND } from './shadowing';

/** Register the command; the running language client converts LSP JSON for VS Code. */
export function registerShowShadowing(server: ServerController): vscode.Disposable {
  return vscode.commands.registerCommand(SHOW_SHADOWING_COMMAND, async (...args: unknown[]) => {
    const client = server.running;
    if (client === undefined) {
      void vscode.window.showWarningMessage('Skilldeck: the language server is not running; restart it to see shadowing skills.');
      return;
    }
    const converter = client.protocol2CodeConverter;
    const plan = planShowShadowing(args, {
      asUri: (value) => converter.asUri(value),
      asPosition: (value) => converter.asPosition(value),
      asLocation: (value) => converter.asLocation(value),
    });
    if (!plan.ok) {
      void vscode.window.showErrorMessage(plan.message);
      return;
    }
    await vscode.commands.executeCommand(plan.command, ...plan.args);
  });
}
