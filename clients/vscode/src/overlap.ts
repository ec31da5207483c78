/**
 * Routing overlap (SD801 / SD802): a skilldeck diagnostic that says two skills describe
 * overlapping tasks carries the other skill as related information. This module reads
 * that shape and plans `skilldeck.openSideBySide` (open the other skill beside the
 * current one); it needs no `vscode` import and is unit-tested in node.
 */

/** The command a quick fix on an overlap diagnostic runs: `(otherUri: string)`. */
export const OPEN_SIDE_BY_SIDE_COMMAND = 'skilldeck.openSideBySide';

/** The rule codes whose related information names the competing skill. */
export const OVERLAP_CODES: ReadonlySet<string> = new Set(['SD801', 'SD802']);

/** What this module needs of a diagnostic (VS Code's and LSP JSON both fit). */
export interface DiagnosticLike {
  source?: string;
  code?: string | number | { value: string | number } | null;
  relatedInformation?: ReadonlyArray<{ location: { uri: { toString(): string } | string }; message: string }>;
}

/** One "open side by side" action: its title and the other skill's URI. */
export interface SideBySideAction {
  title: string;
  uri: string;
}

function codeOf(diagnostic: DiagnosticLike): string | undefined {
  const code = diagnostic.code;
  if (code === undefined || code === null) {
    return undefined;
  }
  return typeof code === 'object' ? String(code.value) : String(code);
}

/** The name between the first pair of backticks of a related message, if any. */
function nameIn(message: string): string | undefined {
  const match = /`([^`]+)`/.exec(message);
  return match === null ? undefined : match[1];
}

/**
 * The side-by-side actions an overlap diagnostic offers: one per related skill (the
 * server sends one), titled with its name. Any other diagnostic offers none.
 */
export function sideBySideActions(diagnostic: DiagnosticLike): SideBySideAction[] {
  const code = codeOf(diagnostic);
  if (diagnostic.source !== 'skilldeck' || code === undefined || !OVERLAP_CODES.has(code)) {
    return [];
  }
  const actions: SideBySideAction[] = [];
  for (const related of diagnostic.relatedInformation ?? []) {
    const uri = related.location.uri.toString();
    const name = nameIn(related.message);
    const title = name === undefined ? 'Open the overlapping skill side by side' : `Open \`${name}\` side by side`;
    if (!actions.some((action) => action.uri === uri)) {
      actions.push({ title, uri });
    }
  }
  return actions;
}
