/**
 * When the language server stops: whether the client restarts it, what the user is told,
 * and which of vscode-languageclient's own notices would only repeat that. No `vscode`
 * import; server.ts wires these into the LanguageClient's `errorHandler`.
 *
 * - A server that never got running (it exits at start: a missing dependency, a bad
 *   interpreter) is not restarted: starting it again fails the same way, and the old
 *   default handler restarted it 4 times in ~0.1 s with a notice each time.
 * - A server that was running and crashed is restarted, at most `maxRestarts` times in
 *   `windowMs` (vscode-languageclient's default: 4 in 3 minutes).
 */

/** The decision when the connection to the server closed. */
export type CloseDecision =
  | { restart: true }
  | { restart: false; why: 'start-failed' | 'too-many-crashes'; crashes: number };

/** Bounded restarts, only for a server that was running. */
export class RestartPolicy {
  private crashes: number[] = [];

  constructor(
    private readonly maxRestarts = 4,
    private readonly windowMs = 3 * 60 * 1000,
  ) {}

  /** The connection closed; `wasRunning`: the server had answered `initialize`. */
  closed(wasRunning: boolean, now: number): CloseDecision {
    if (!wasRunning) {
      return { restart: false, why: 'start-failed', crashes: this.crashes.length };
    }
    this.crashes = [...this.crashes.filter((time) => now - time < this.windowMs), now];
    if (this.crashes.length > this.maxRestarts) {
      return { restart: false, why: 'too-many-crashes', crashes: this.crashes.length };
    }
    return { restart: true };
  }

  /** A read or write on the connection failed `count` times in a row: stop after a few. */
  error(count: number | undefined): 'continue' | 'shutdown' {
    return count !== undefined && count > 3 ? 'shutdown' : 'continue';
  }
}

/** The last lines the server printed on stderr (one process at a time). */
export class StderrTail {
  private lines: string[] = [];

  constructor(private readonly keep = 20) {}

  /** A new server process: forget the previous one's lines. */
  reset(): void {
    this.lines = [];
  }

  add(line: string): void {
    if (line.trim() === '') {
      return;
    }
    this.lines.push(line.trimEnd());
    if (this.lines.length > this.keep) {
      this.lines.shift();
    }
  }

  /**
   * What explains a failure: the last line printed (a traceback ends with its
   * `ImportError: ...`), cut to `maxLength`; `undefined` when nothing was printed.
   */
  summary(maxLength = 400): string | undefined {
    if (this.lines.length === 0) {
      return undefined;
    }
    const last = this.lines[this.lines.length - 1].trim();
    return last.length > maxLength ? `${last.slice(0, maxLength - 3)}...` : last;
  }
}

/** Why the server is not running (and is not restarted). */
export type StopReason =
  | { why: 'start-failed' }
  | { why: 'start-error'; error: string }
  | { why: 'too-many-crashes'; crashes: number }
  | { why: 'stopped' };

/** The reason for a close decision that does not restart. */
export function stopReason(decision: CloseDecision | undefined): StopReason {
  if (decision === undefined || decision.restart) {
    return { why: 'stopped' };
  }
  return decision.why === 'start-failed' ? { why: 'start-failed' } : { why: 'too-many-crashes', crashes: decision.crashes };
}

/**
 * The one notice for a server that stopped and is not restarted, with the last line it
 * printed on stderr (`stderr`) when there is one: that line usually says why.
 */
export function stoppedMessage(launch: string, reason: StopReason, stderr: string | undefined): string {
  const said = stderr !== undefined ? ` The server said: ${stderr}` : '';
  switch (reason.why) {
    case 'start-failed':
      return `Skilldeck: the language server (${launch}) exited while starting.${said || ' It printed nothing; see the output.'}`;
    case 'start-error':
      return `Skilldeck: the language server (${launch}) failed to start.${said || ` ${reason.error}`}`;
    case 'too-many-crashes':
      return `Skilldeck: the language server crashed ${reason.crashes} times in 3 minutes and will not be restarted (run "Skilldeck: Restart Server" to try again).${said}`;
    case 'stopped':
      return `Skilldeck: the language server stopped and will not be restarted (run "Skilldeck: Restart Server" to try again).${said}`;
  }
}

/**
 * vscode-languageclient's own notices about the connection (`couldn't create connection
 * to server`, `Restarting server failed`, ...): the extension shows one notice of its own
 * with the reason instead, so these go to the output only.
 */
export function isLifecycleNotice(message: string): boolean {
  return /couldn't create connection to server|Restarting server failed|Server initialization failed|connection to server (got closed|is erroring)|Stopping server (failed|timed out)|server crashed \d+ times/i.test(
    message,
  );
}

/** What is known about the server that runs. */
export interface RunningServer {
  /** The interpreter as the probe saw it. */
  python: { executable: string; version: readonly number[] };
  /** How it was found: `python3 (PATH)`, `/x/bin/python (skilldeck.server.pythonPath)`. */
  found: string;
  /** Which server: the one bundled with the extension, or the environment's. */
  strategy: 'useBundled' | 'fromEnvironment';
  /** The server's own name and version (`serverInfo` of its `initialize` result). */
  serverInfo?: { name: string; version?: string };
  pid?: number;
  /** When it started (`Date.now()`). */
  since: number;
}

/**
 * The answer of "Show Server Status" while the server runs (issue #41.7: the command
 * said nothing then): which interpreter, which server, which process, since when.
 */
export function runningMessage(server: RunningServer, now: number): string {
  const version = server.python.version.join('.');
  const which = server.strategy === 'useBundled' ? 'the server bundled with the extension' : 'the skilldeck installed there';
  const info = server.serverInfo === undefined ? '' : ` (${server.serverInfo.name}${server.serverInfo.version === undefined ? '' : ` ${server.serverInfo.version}`})`;
  const pid = server.pid === undefined ? '' : `, pid ${server.pid}`;
  const seconds = Math.max(0, Math.round((now - server.since) / 1000));
  const minutes = Math.floor(seconds / 60);
  const uptime = minutes > 0 ? `${minutes} min ${seconds % 60} s` : `${seconds} s`;
  return (
    `Skilldeck: the language server is running${pid}, for ${uptime}: Python ${version} at ${server.python.executable} ` +
    `(${server.found}), ${which}${info}.`
  );
}
