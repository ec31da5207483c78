/**
 * The status bar item's text, tooltip and severity. No `vscode` import.
 */
import { formatTokens } from './preview';

/** What the status bar shows. */
export type StatusInput =
  | { state: 'starting' }
  | { state: 'stopped'; reason: string }
  | { state: 'ready'; skillCount: number; tokenEstimate: number; complete: boolean };

/** The rendered status: codicon syntax in `text`. */
export interface StatusView {
  text: string;
  tooltip: string;
  level: 'normal' | 'warning' | 'error';
}

/** Render the status bar item. */
export function statusView(input: StatusInput): StatusView {
  switch (input.state) {
    case 'starting':
      return { text: '$(sync~spin) Skills', tooltip: 'Skilldeck: starting the language server', level: 'normal' };
    case 'stopped':
      return { text: '$(error) Skills', tooltip: `Skilldeck: server not running. ${input.reason}`, level: 'error' };
    case 'ready': {
      const count = `${input.skillCount} skill${input.skillCount === 1 ? '' : 's'}`;
      const tokens = formatTokens(input.tokenEstimate);
      if (!input.complete) {
        return {
          text: `$(warning) ${count} (incomplete)`,
          tooltip: `Skilldeck: ${count} in the catalog, ${tokens}. Discovery is incomplete: some roots could not be read. Click to preview the catalog.`,
          level: 'warning',
        };
      }
      return {
        text: `$(book) ${count} · ${tokens}`,
        tooltip: `Skilldeck: ${count} in the catalog, ${tokens}. Click to preview the catalog.`,
        level: 'normal',
      };
    }
  }
}
