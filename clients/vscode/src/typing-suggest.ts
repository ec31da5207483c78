/**
 * Completion while typing in skill files. VS Code's Markdown defaults turn
 * `editor.quickSuggestions` off, and a trigger character typed at the end of a word
 * does not open completion, so in a `SKILL.md` the server's triggers never fire and
 * only Ctrl+Space works. Turning quick suggestions on for `[markdown]` would change
 * every Markdown file; instead the extension asks for suggestions itself when the first
 * letter of a frontmatter key or value is typed in a skill file (the widget then filters
 * as the user goes on typing). No `vscode` import.
 */

/** One typed change: the text inserted (nothing replaced) and where. */
export interface TypedChange {
  text: string;
  replacedLength: number;
  line: number;
  character: number;
}

const OPENING = /^\ufeff?---\s*$/;
const CLOSING = /^(---|\.\.\.)\s*$/;

/** A key's first letter at the start of a line, or a value's first letter after `key: `. */
const WORD_START = /^(?:[A-Za-z]|[A-Za-z][\w.-]*:\s+[A-Za-z])$/;

/**
 * Whether typing `change` should open the suggestions: a single letter that starts a
 * top-level key or a value, inside an open frontmatter block. `lineAt(n)` returns line
 * `n` of the document after the change.
 */
export function startsFrontmatterWord(change: TypedChange, lineAt: (line: number) => string): boolean {
  if (change.replacedLength !== 0 || !/^[A-Za-z]$/.test(change.text) || change.line === 0) {
    return false;
  }
  if (!OPENING.test(lineAt(0))) {
    return false;
  }
  for (let line = 1; line < change.line; line += 1) {
    if (CLOSING.test(lineAt(line))) {
      return false;
    }
  }
  const before = lineAt(change.line).slice(0, change.character + 1);
  return WORD_START.test(before);
}
