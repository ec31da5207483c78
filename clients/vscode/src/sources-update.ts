/**
 * What `Skilldeck: Update Skill Sources` tells the user. The server answers the
 * command with each source's status; with none configured the command used to do
 * nothing visible (#31). No `vscode` import.
 */

/** The server command behind `Skilldeck: Update Skill Sources`. */
export const UPDATE_SOURCES_COMMAND = 'skilldeck.sources.update';

/** The message for the command's result, or `undefined` when progress said it all. */
export function sourcesUpdateMessage(result: unknown): string | undefined {
  const sources = result !== null && typeof result === 'object' ? (result as { sources?: unknown }).sources : undefined;
  if (Array.isArray(sources) && sources.length === 0) {
    return 'Skilldeck: no skill sources to update. Add a [[sources]] table to skilldeck.toml or the skilldeck.sources setting (docs/sources.md).';
  }
  return undefined;
}
