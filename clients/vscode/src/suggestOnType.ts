/**
 * Adapter: opens the suggestions when a word starts in a skill file's frontmatter and the
 * server has something for it (typing-suggest.ts says why and decides).
 */
import * as vscode from 'vscode';
import type { ServerController } from './server';
import { completionItems, frontmatterWordStart, opensSuggestions, wordFrom, type WordStart } from './typing-suggest';

/** LSP `CompletionTriggerKind.Invoked`: the server answers with every item, as for Ctrl+Space. */
const INVOKED = 1;

/** Listen to typing in documents `isSkillFile` accepts. */
export function suggestOnType(server: ServerController, isSkillFile: (document: vscode.TextDocument) => boolean): vscode.Disposable {
  return vscode.workspace.onDidChangeTextDocument((event) => {
    const editor = vscode.window.activeTextEditor;
    if (event.reason !== undefined || event.contentChanges.length !== 1 || editor?.document !== event.document) {
      return;
    }
    const change = event.contentChanges[0];
    const typed = { text: change.text, replacedLength: change.rangeLength, line: change.range.start.line, character: change.range.start.character };
    const start = isSkillFile(event.document) ? frontmatterWordStart(typed, (line) => event.document.lineAt(line).text) : undefined;
    if (start !== undefined) {
      void offer(server, editor, start);
    }
  });
}

/**
 * Ask the server what it offers at the cursor, then open the suggestions (as typing
 * does) if that suits the word typed so far. If the user typed on meanwhile (a busy
 * server answers after the next keystroke), ask again for the word as it is now, for as
 * long as the cursor stays in that word.
 */
async function offer(server: ServerController, editor: vscode.TextEditor, start: WordStart): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const document = editor.document;
    const version = document.version;
    if (start.line >= document.lineCount) {
      return;
    }
    const word = wordFrom(document.lineAt(start.line).text, start.start);
    if (word === undefined) {
      return;
    }
    // The language client sends the change on this same event: let it go first.
    await new Promise((resolve) => setTimeout(resolve, 0));
    let answer: unknown;
    try {
      answer = await server.request<unknown>('textDocument/completion', {
        textDocument: { uri: document.uri.toString() },
        position: { line: start.line, character: start.start + word.length },
        context: { triggerKind: INVOKED },
      });
    } catch {
      return; // not running, or the request was refused: nothing to offer
    }
    if (vscode.window.activeTextEditor !== editor || editor.document !== document || editor.selection.active.line !== start.line) {
      return;
    }
    if (document.version !== version) {
      continue;
    }
    if (opensSuggestions(completionItems(answer), word)) {
      await vscode.commands.executeCommand('editor.action.triggerSuggest', { auto: true });
    }
    return;
  }
}
