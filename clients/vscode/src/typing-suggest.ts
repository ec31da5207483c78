/**
 * Completion while typing in skill files. VS Code's Markdown defaults turn
 * `editor.quickSuggestions` off, and a trigger character typed at the end of a word
 * does not open completion, so in a `SKILL.md` the server's triggers never fire and
 * only Ctrl+Space works. Turning quick suggestions on for `[markdown]` would change
 * every Markdown file; instead the extension opens the suggestions itself when a word
 * starts in a frontmatter key or value of a skill file, and only when the server has
 * something for it:
 *
 * - it asks the server first, and opens nothing where the server offers nothing (VS
 *   Code would fill an empty list with words of the document: `allowed-tools: Read` +
 *   Enter became `ReadingList`) or nothing that starts with what is typed;
 * - it opens them as typing does (`editor.action.triggerSuggest` with `auto`), so a list
 *   that filters down to nothing closes instead of standing on "No suggestions." and
 *   taking the next Enter;
 * - a word already typed whole (`Read`) opens nothing: Enter ends the line.
 *
 * No `vscode` import.
 */

/** One typed change: the text inserted (nothing replaced) and where. */
export interface TypedChange {
  text: string;
  replacedLength: number;
  line: number;
  character: number;
}

/** Where a word starts: a top-level key, or a value (or an entry of a list value). */
export interface WordStart {
  kind: 'key' | 'value';
  line: number;
  /** The column of the word's first character. */
  start: number;
}

const OPENING = /^\ufeff?---\s*$/;
const CLOSING = /^(---|\.\.\.)\s*$/;

/** A key's first letter at the start of a line. */
const KEY_START = /^[A-Za-z]$/;
/** A letter after `key:` and whitespace, or after a space, `,`, `[` or quote within the value. */
const VALUE_START = /^[A-Za-z][\w.-]*:[ \t]+(?:.*[ \t,[("'])?[A-Za-z]$/;

/**
 * Where the word starts that typing `change` began: a single letter that starts a
 * top-level key, a value or an entry of a value, inside an open frontmatter block.
 * `lineAt(n)` returns line `n` of the document after the change.
 */
export function frontmatterWordStart(change: TypedChange, lineAt: (line: number) => string): WordStart | undefined {
  if (change.replacedLength !== 0 || !/^[A-Za-z]$/.test(change.text) || change.line === 0) {
    return undefined;
  }
  if (!OPENING.test(lineAt(0))) {
    return undefined;
  }
  for (let line = 1; line < change.line; line += 1) {
    if (CLOSING.test(lineAt(line))) {
      return undefined;
    }
  }
  const before = lineAt(change.line).slice(0, change.character + 1);
  if (KEY_START.test(before)) {
    return { kind: 'key', line: change.line, start: 0 };
  }
  if (VALUE_START.test(before)) {
    return { kind: 'value', line: change.line, start: change.character };
  }
  return undefined;
}

/**
 * The word typed so far: the word characters of `lineText` from the word's start
 * (`undefined` once it was deleted). Read from the text, not from the cursor: the
 * editor's selection reaches the extension after the change that moved it.
 */
export function wordFrom(lineText: string, start: number): string | undefined {
  const match = /^[A-Za-z][\w.-]*/.exec(lineText.slice(start));
  return match === null ? undefined : match[0];
}

/** A completion item as far as the decision needs it. */
export interface OfferedItem {
  label: string | { label: string };
  filterText?: string;
}

function labelOf(item: OfferedItem): string {
  return typeof item.label === 'string' ? item.label : item.label.label;
}

/** The items of a `textDocument/completion` answer (a list, an array, or nothing). */
export function completionItems(answer: unknown): OfferedItem[] {
  const items = Array.isArray(answer) ? answer : (answer as { items?: unknown } | null | undefined)?.items;
  return Array.isArray(items) ? (items as OfferedItem[]).filter((item) => item !== null && typeof item === 'object') : [];
}

/**
 * Whether to open the suggestions for `word` given what the server offers there: some
 * item starts with it (its filter text, else its label), and no item is the word itself
 * (typed whole, Enter must end the line).
 */
export function opensSuggestions(items: readonly OfferedItem[], word: string): boolean {
  if (word === '' || items.some((item) => labelOf(item) === word)) {
    return false;
  }
  return items.some((item) => (item.filterText ?? labelOf(item)).startsWith(word));
}
