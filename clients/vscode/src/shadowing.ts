/**
 * The argument of `skilldeck.showShadowing`, the command the server's code lens on a
 * skill's `name` line runs: `{uri, position, locations}` in LSP JSON (the same-named
 * skills in other roots, winner first). This module checks that shape and turns it
 * into the three arguments of VS Code's `editor.action.showReferences` through
 * converters it is given, so it needs no `vscode` import and is unit-tested in node.
 */

/** The command id the server puts on its shadowing code lens. */
export const SHOW_SHADOWING_COMMAND = 'skilldeck.showShadowing';

/** An LSP position (0-based line, UTF-16 character). */
export interface LspPosition {
  line: number;
  character: number;
}

/** An LSP range. */
export interface LspRange {
  start: LspPosition;
  end: LspPosition;
}

/** An LSP location. */
export interface LspLocation {
  uri: string;
  range: LspRange;
}

/** The lens argument: the skill's own document and position, and the other skills. */
export interface ShadowingArgument {
  uri: string;
  position: LspPosition;
  locations: LspLocation[];
}

/** Protocol-to-editor conversions (the language client's `protocol2CodeConverter` fits). */
export interface ShadowingConverters<U, P, L> {
  asUri(value: string): U;
  asPosition(value: LspPosition): P;
  asLocation(value: LspLocation): L;
}

/** What to run: `editor.action.showReferences` with these arguments, or why not. */
export type ShadowingPlan<U, P, L> =
  | { ok: true; command: 'editor.action.showReferences'; args: [U, P, L[]] }
  | { ok: false; message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function asPosition(value: unknown): LspPosition | undefined {
  if (!isRecord(value) || !isCount(value.line) || !isCount(value.character)) {
    return undefined;
  }
  return { line: value.line, character: value.character };
}

function asLocation(value: unknown): LspLocation | undefined {
  if (!isRecord(value) || typeof value.uri !== 'string' || value.uri === '' || !isRecord(value.range)) {
    return undefined;
  }
  const start = asPosition(value.range.start);
  const end = asPosition(value.range.end);
  if (start === undefined || end === undefined) {
    return undefined;
  }
  return { uri: value.uri, range: { start, end } };
}

/** The lens argument when `value` has the documented shape; `undefined` otherwise. */
export function parseShadowingArgument(value: unknown): ShadowingArgument | undefined {
  if (!isRecord(value) || typeof value.uri !== 'string' || value.uri === '' || !Array.isArray(value.locations)) {
    return undefined;
  }
  const position = asPosition(value.position);
  if (position === undefined) {
    return undefined;
  }
  const locations: LspLocation[] = [];
  for (const item of value.locations) {
    const location = asLocation(item);
    if (location === undefined) {
      return undefined;
    }
    locations.push(location);
  }
  return { uri: value.uri, position, locations };
}

/**
 * Plan `skilldeck.showShadowing`: convert the lens argument (the first command
 * argument) for `editor.action.showReferences`, keeping the server's order.
 */
export function planShowShadowing<U, P, L>(
  args: readonly unknown[],
  converters: ShadowingConverters<U, P, L>,
): ShadowingPlan<U, P, L> {
  const argument = parseShadowingArgument(args[0]);
  if (argument === undefined) {
    return {
      ok: false,
      message:
        'Skilldeck: the shadowing code lens sent an argument this extension does not understand; ' +
        'update the skilldeck package or the extension so their versions match.',
    };
  }
  return {
    ok: true,
    command: 'editor.action.showReferences',
    args: [
      converters.asUri(argument.uri),
      converters.asPosition(argument.position),
      argument.locations.map((location) => converters.asLocation(location)),
    ],
  };
}
