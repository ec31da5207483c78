/**
 * Which `skilldeck/serverError` notices reach the user: one per kind of failure
 * for the life of the extension (a restart does not repeat a known failure), and
 * never more than a few, so a failing handler cannot turn into a loop of popups.
 * No `vscode` import.
 */
import type { ServerErrorParams } from './protocol';

/** The action the notice offers. */
export const SHOW_OUTPUT = 'Show Output';

export class FailureNotices {
  private readonly seen = new Set<string>();

  constructor(private readonly limit = 3) {}

  /** The message to show for `params`, or `undefined` when it was shown already. */
  take(params: Partial<ServerErrorParams> | undefined): string | undefined {
    const message = typeof params?.message === 'string' && params.message.trim() !== '' ? params.message : undefined;
    if (message === undefined) {
      return undefined;
    }
    const kind = typeof params?.kind === 'string' ? params.kind : message;
    if (this.seen.has(kind) || this.seen.size >= this.limit) {
      return undefined;
    }
    this.seen.add(kind);
    return message;
  }
}
