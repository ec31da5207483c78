/**
 * The status bar item's text, tooltip and severity, and reading the server's
 * indexing progress for it. No `vscode` import.
 */
import { formatTokens } from './preview';
import type { SkillCounts } from './protocol';

/** What the status bar shows. */
export type StatusInput =
  | { state: 'starting' }
  | { state: 'stopped'; reason: string }
  | { state: 'indexing'; done: number; total: number }
  | { state: 'ready'; skillCount: number; tokenEstimate: number; complete: boolean; counts?: SkillCounts };

/** The rendered status: codicon syntax in `text`. */
export interface StatusView {
  text: string;
  tooltip: string;
  level: 'normal' | 'warning' | 'error';
}

/** `1,234` independent of locale. */
export function formatCount(value: number): string {
  return Math.max(0, Math.round(value))
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function skills(count: number): string {
  return `${formatCount(count)} skill${count === 1 ? '' : 's'}`;
}

/**
 * Why the Skills view lists more skill files than the catalog holds (issue #41.6: 500 in
 * the view, 472 in the status item, and no reason given), or '' when they agree.
 */
export function countsSentence(counts: SkillCounts | undefined): string {
  if (counts === undefined) {
    return '';
  }
  const parts: string[] = [];
  const add = (value: number, what: string): void => {
    if (value > 0) {
      parts.push(`${formatCount(value)} ${what}`);
    }
  };
  add(counts.shadowed, 'shadowed by a same-named skill');
  add(counts.notLoaded, 'not loaded (an error drops them)');
  add(counts.notModelInvocable, 'kept from the model (disable-model-invocation)');
  const provided = counts.provided > 0 ? `; ${formatCount(counts.provided)} more from other providers` : '';
  if (parts.length === 0 && provided === '') {
    return '';
  }
  const files = `${formatCount(counts.skillFiles)} skill file${counts.skillFiles === 1 ? '' : 's'}`;
  return ` ${files} (the Skills view): ${formatCount(counts.fromFiles)} in the catalog${parts.length > 0 ? `, ${parts.join(', ')}` : ''}${provided}.`;
}

/**
 * Render the status bar item. `tokenBudget` (setting `skilldeck.catalogTokenBudget`,
 * 0 = none) turns a ready catalog above it into a warning.
 */
export function statusView(input: StatusInput, tokenBudget = 0): StatusView {
  switch (input.state) {
    case 'starting':
      return { text: '$(sync~spin) Skills', tooltip: 'Skilldeck: starting the language server', level: 'normal' };
    case 'stopped':
      return { text: '$(error) Skills', tooltip: `Skilldeck: server not running. ${input.reason}`, level: 'error' };
    case 'indexing': {
      const progress = `${formatCount(input.done)}/${formatCount(input.total)}`;
      return {
        text: `$(sync~spin) Indexing ${progress}`,
        tooltip: `Skilldeck: indexing skill files (${progress}). Counts and diagnostics follow when it is done.`,
        level: 'normal',
      };
    }
    case 'ready': {
      const count = skills(input.skillCount);
      const tokens = formatTokens(input.tokenEstimate);
      const why = countsSentence(input.counts);
      if (!input.complete) {
        return {
          text: `$(warning) ${count} (incomplete)`,
          tooltip: `Skilldeck: ${count} in the catalog, ${tokens}.${why} Discovery is incomplete: some roots could not be read. Click to preview the catalog.`,
          level: 'warning',
        };
      }
      if (tokenBudget > 0 && input.tokenEstimate > tokenBudget) {
        return {
          text: `$(warning) ${count} · ${tokens}`,
          tooltip:
            `Skilldeck: ${count} in the catalog, ${tokens}: above the budget of ${formatTokens(tokenBudget)} ` +
            '(setting skilldeck.catalogTokenBudget).' +
            why +
            ' The model reads the whole catalog in every session; ' +
            'consider fewer or shorter skill descriptions. Click to preview the catalog.',
          level: 'warning',
        };
      }
      return {
        text: `$(book) ${count} · ${tokens}`,
        tooltip: `Skilldeck: ${count} in the catalog, ${tokens}.${why} Click to preview the catalog.`,
        level: 'normal',
      };
    }
  }
}

/** The work-done progress tokens of the server's indexing (`skilldeck-index-<n>`). */
export const INDEX_PROGRESS_PREFIX = 'skilldeck-index-';

/** What one `$/progress` value of an indexing token means for the status item. */
export type IndexingUpdate = { kind: 'progress'; input: StatusInput } | { kind: 'end' } | undefined;

/**
 * Read one `$/progress` value: a report `1,200/2,006 skill files` becomes an
 * indexing status; `end` means the catalog numbers should be fetched again.
 * Other tokens and other reports give `undefined`.
 */
export function indexingUpdate(token: string | number, value: unknown): IndexingUpdate {
  if (typeof token !== 'string' || !token.startsWith(INDEX_PROGRESS_PREFIX) || value === null || typeof value !== 'object') {
    return undefined;
  }
  const { kind, message } = value as { kind?: unknown; message?: unknown };
  if (kind === 'end') {
    return { kind: 'end' };
  }
  if (kind !== 'report' || typeof message !== 'string') {
    return undefined;
  }
  const match = /^([\d,]+)\/([\d,]+) skill files$/.exec(message.trim());
  if (match === null) {
    return undefined;
  }
  const done = Number(match[1].replace(/,/g, ''));
  const total = Number(match[2].replace(/,/g, ''));
  return { kind: 'progress', input: { state: 'indexing', done, total } };
}
