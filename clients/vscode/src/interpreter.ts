/**
 * Finding a Python that can run the language server, and saying exactly what was
 * tried when none can. No `vscode` import: the adapter passes in what the Python
 * extension and the settings say.
 *
 * `skilldeck.importStrategy` (the name and values of Microsoft's Python tools
 * extensions: black-formatter, isort, pylint):
 * - `useBundled` (default): the server shipped in the extension (`bundled/libs`, pure
 *   Python) runs on any Python 3.10+; nothing needs to be installed.
 * - `fromEnvironment`: the skilldeck installed in the chosen interpreter runs.
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';

/** Where a candidate interpreter came from. */
export type InterpreterSource = 'python-extension' | 'setting' | 'path';

/** `skilldeck.importStrategy`. */
export const IMPORT_STRATEGIES = ['useBundled', 'fromEnvironment'] as const;
export type ImportStrategy = (typeof IMPORT_STRATEGIES)[number];

/** One interpreter to try: `command` run with `prefix` before its own arguments (`py -3`). */
export interface Candidate {
  command: string;
  prefix: readonly string[];
  source: InterpreterSource;
}

/** What is known when choosing. Empty or whitespace-only strings count as absent. */
export interface InterpreterInputs {
  /** The active environment's executable from the Python extension, if installed. */
  pythonExtension?: string | null;
  /** The `skilldeck.server.pythonPath` setting. */
  setting?: string | null;
  /** `process.platform`: `py -3` is tried on Windows, `python3` elsewhere. */
  platform?: string;
  /** The home folder, for `~` and `${userHome}` in the setting. */
  home?: string;
  /** The first workspace folder, for `${workspaceFolder}` and relative paths in the setting. */
  workspaceFolder?: string;
}

/** The oldest Python the server supports (pyproject.toml's requires-python). */
export const MIN_PYTHON: readonly [number, number] = [3, 10];

function present(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** Where `~`, `${userHome}`, `${workspaceFolder}` and relative paths in the setting point. */
export interface PathContext {
  home?: string;
  workspaceFolder?: string;
}

/**
 * `skilldeck.server.pythonPath` as a path: `~` / `~/...` and `${userHome}` become the home
 * folder, `${workspaceFolder}` the first workspace folder, and a relative path with a
 * folder in it (`.venv/bin/python`) is resolved against the workspace folder. A bare name
 * (`python3.12`) stays a command looked up on PATH. A variable that cannot be filled (no
 * folder open) is left as written, so the probe reports it as not found.
 */
export function expandPythonPath(value: string, context: PathContext): string {
  let result = value.trim();
  const { home, workspaceFolder } = context;
  if (home !== undefined && home !== '') {
    result = result.replace(/\$\{userHome\}/g, () => home);
    if (result === '~' || result.startsWith('~/') || result.startsWith('~\\')) {
      result = home + result.slice(1);
    }
  }
  if (workspaceFolder !== undefined && workspaceFolder !== '') {
    result = result.replace(/\$\{workspaceFolder\}/g, () => workspaceFolder);
    const hasFolder = result.includes('/') || result.includes('\\');
    if (hasFolder && !path.isAbsolute(result) && !/^[A-Za-z]:/.test(result) && !result.includes('${')) {
      result = path.join(workspaceFolder, result);
    }
  }
  return result;
}

/**
 * The interpreters to try, in order: the Python extension's active environment, the
 * `skilldeck.server.pythonPath` setting, then `python3` and `python` on PATH (`py -3`
 * and `python` on Windows). Duplicates are tried once.
 */
export function interpreterCandidates(inputs: InterpreterInputs): Candidate[] {
  const found: Candidate[] = [];
  const add = (command: string, source: InterpreterSource, prefix: readonly string[] = []): void => {
    if (!found.some((c) => c.command === command && c.prefix.join(' ') === prefix.join(' '))) {
      found.push({ command, prefix, source });
    }
  };
  if (present(inputs.pythonExtension)) {
    add(inputs.pythonExtension.trim(), 'python-extension');
  }
  if (present(inputs.setting)) {
    add(expandPythonPath(inputs.setting, { home: inputs.home, workspaceFolder: inputs.workspaceFolder }), 'setting');
  }
  if ((inputs.platform ?? process.platform) === 'win32') {
    add('py', 'path', ['-3']);
  } else {
    add('python3', 'path');
  }
  add('python', 'path');
  return found;
}

/** How a candidate is named in messages: `py -3`, `/usr/bin/python3`. */
export function candidateLabel(candidate: Candidate): string {
  return [candidate.command, ...candidate.prefix].join(' ');
}

/** A human description of where a candidate came from. */
export function describeSource(source: InterpreterSource): string {
  switch (source) {
    case 'python-extension':
      return "the Python extension's interpreter";
    case 'setting':
      return 'skilldeck.server.pythonPath';
    case 'path':
      return 'PATH';
  }
}

/** What the probe printed: the interpreter's real path and version, skilldeck's version if asked. */
export interface ProbeInfo {
  executable: string;
  version: [number, number, number];
  skilldeck?: string | null;
}

/** The outcome of trying one candidate. */
export type ProbeResult =
  | { ok: true; info: ProbeInfo }
  | { ok: false; reason: 'not-found' | 'too-old' | 'not-installed' | 'failed'; detail: string; info?: ProbeInfo };

/**
 * The statement that takes the current folder (`''`, first on `sys.path` with `-c`) off
 * `sys.path` before anything else is imported, so a workspace's `logging.py`, `json.py` or
 * `mcp/` cannot stand in for the standard library or a dependency. Python 3.11+ started
 * with `-P` / `PYTHONSAFEPATH` has no such entry, and then nothing is removed. The probe
 * and the server both run it first, so the probe imports skilldeck as the server will.
 */
export const DROP_SCRIPT_DIR = 'getattr(sys.flags, "safe_path", False) or sys.path.pop(0)';

/**
 * `python -c` code that runs `python -m skilldeck` without the current folder on
 * `sys.path` (what `-P` does on 3.11+, which 3.10 lacks); the bundled launcher is safe the
 * same way because a script's `sys.path[0]` is its own folder.
 */
export const RUN_SKILLDECK = `import sys; ${DROP_SCRIPT_DIR}; import runpy; runpy.run_module("skilldeck", run_name="__main__", alter_sys=True)`;

/**
 * The probe: prints `{"executable", "version"[, "skilldeck"]}` as JSON. With
 * `importSkilldeck` it imports skilldeck too (`null` when that fails).
 */
export function probeArgs(importSkilldeck: boolean): string[] {
  const lines = [
    'import sys',
    DROP_SCRIPT_DIR,
    'import json',
    'info = {"executable": sys.executable, "version": list(sys.version_info[:3])}',
  ];
  if (importSkilldeck) {
    lines.push(
      'try:',
      '    import skilldeck',
      '    info["skilldeck"] = getattr(skilldeck, "__version__", "?")',
      'except Exception as error:',
      '    info["skilldeck"] = None',
      '    info["error"] = "%s: %s" % (type(error).__name__, error)',
    );
  }
  lines.push('print(json.dumps(info))');
  return ['-c', lines.join('\n')];
}

function versionText(version: readonly number[]): string {
  return version.join('.');
}

/**
 * Run the probe with `candidate` and judge it for `strategy`. Never rejects;
 * `timeoutMs` bounds a hung interpreter.
 */
export function probeCandidate(candidate: Candidate, strategy: ImportStrategy, timeoutMs = 20000): Promise<ProbeResult> {
  const wantsSkilldeck = strategy === 'fromEnvironment';
  return new Promise((resolve) => {
    execFile(
      candidate.command,
      [...candidate.prefix, ...probeArgs(wantsSkilldeck)],
      { timeout: timeoutMs, windowsHide: true },
      (error, stdout, stderr) => {
        if (error !== null) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ENOENT' || code === 'EACCES') {
            resolve({ ok: false, reason: 'not-found', detail: code === 'ENOENT' ? 'not found' : 'not executable' });
            return;
          }
          resolve({ ok: false, reason: 'failed', detail: lastLine(String(stderr)) || error.message });
          return;
        }
        let parsed: (ProbeInfo & { error?: string }) | undefined;
        try {
          parsed = JSON.parse(lastLine(String(stdout))) as ProbeInfo & { error?: string };
        } catch {
          parsed = undefined;
        }
        if (parsed === undefined || !Array.isArray(parsed.version)) {
          resolve({ ok: false, reason: 'failed', detail: `not a Python interpreter (printed ${JSON.stringify(lastLine(String(stdout)))})` });
          return;
        }
        const info: ProbeInfo = { executable: parsed.executable, version: parsed.version, skilldeck: parsed.skilldeck };
        const [major, minor] = parsed.version;
        if (major < MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor < MIN_PYTHON[1])) {
          resolve({ ok: false, reason: 'too-old', detail: `Python ${versionText(parsed.version)}, needs ${versionText(MIN_PYTHON)}+`, info });
          return;
        }
        if (wantsSkilldeck && (parsed.skilldeck === null || parsed.skilldeck === undefined)) {
          resolve({ ok: false, reason: 'not-installed', detail: `skilldeck does not import (${parsed.error ?? 'no module'})`, info });
          return;
        }
        resolve({ ok: true, info });
      },
    );
  });
}

function lastLine(text: string): string {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  return lines.length === 0 ? '' : lines[lines.length - 1].trim();
}

/** One candidate tried, and what came of it. */
export interface Attempt {
  candidate: Candidate;
  result: ProbeResult;
}

/** The interpreter chosen, with every attempt before it. */
export interface Selection {
  chosen: { candidate: Candidate; info: ProbeInfo } | undefined;
  attempts: Attempt[];
}

/** Try each candidate in order; the first that passes is chosen. */
export async function selectInterpreter(
  candidates: readonly Candidate[],
  strategy: ImportStrategy,
  probe: (candidate: Candidate, strategy: ImportStrategy) => Promise<ProbeResult> = probeCandidate,
): Promise<Selection> {
  const attempts: Attempt[] = [];
  for (const candidate of candidates) {
    const result = await probe(candidate, strategy);
    attempts.push({ candidate, result });
    if (result.ok) {
      return { chosen: { candidate, info: result.info }, attempts };
    }
  }
  return { chosen: undefined, attempts };
}

/** `/usr/bin/python3 (PATH): Python 3.8.10, needs 3.10+` for each failed attempt. */
export function describeAttempts(attempts: readonly Attempt[]): string[] {
  return attempts
    .filter((attempt) => !attempt.result.ok)
    .map(({ candidate, result }) => {
      const real = result.info?.executable;
      const label = candidateLabel(candidate);
      const where = real !== undefined && real !== '' && real !== label ? `${label} = ${real}` : label;
      return `${where} (${describeSource(candidate.source)}): ${result.ok ? 'ok' : result.detail}`;
    });
}

/** The notification when no candidate passed: what was tried, and what to do. */
export function noInterpreterMessage(strategy: ImportStrategy, attempts: readonly Attempt[]): string {
  const tried = describeAttempts(attempts).join('; ');
  if (strategy === 'fromEnvironment') {
    return (
      'Skilldeck: no interpreter with skilldeck installed was found (skilldeck.importStrategy is "fromEnvironment"). ' +
      `Tried: ${tried}. Select an interpreter that has skilldeck, or set skilldeck.importStrategy to "useBundled" to run the server shipped with the extension.`
    );
  }
  return (
    `Skilldeck: the language server needs Python ${versionText(MIN_PYTHON)} or newer, and none was found. ` +
    `Tried: ${tried}. Select an interpreter or set skilldeck.server.pythonPath to one.`
  );
}

/** Where the bundled server's libraries live inside the installed extension. */
export function bundledLibs(extensionPath: string): string {
  return path.join(extensionPath, 'bundled', 'libs');
}

/** The script that puts `bundled/libs` first on `sys.path` and runs `python -m skilldeck`. */
export function bundledLauncher(extensionPath: string): string {
  return path.join(extensionPath, 'bundled', 'tool', 'launch.py');
}

/** How to launch the server process. */
export interface ServerLaunch {
  command: string;
  args: string[];
}

/**
 * The server command: the environment's skilldeck run as `python -m skilldeck serve` would
 * run it but without the workspace (the server's cwd) on `sys.path` (RUN_SKILLDECK), or
 * the same module through the bundled launcher (`bundled/libs` first on `sys.path`).
 */
export function serverLaunch(candidate: Candidate, strategy: ImportStrategy, extensionPath: string): ServerLaunch {
  const serve = strategy === 'useBundled' ? [bundledLauncher(extensionPath), 'serve'] : ['-c', RUN_SKILLDECK, 'serve'];
  return { command: candidate.command, args: [...candidate.prefix, ...serve] };
}

/**
 * The interpreter chosen last time in this workspace, so that reopening it starts the
 * server without probing again (issue #41.8: the probes ran while VS Code restored the
 * window, and took seconds). It is used only while everything it was chosen from is
 * the same (`key`) and the interpreter file is unchanged (`file`); a server that then
 * fails to start clears it and the interpreters are probed again.
 */
export interface CachedInterpreter {
  key: string;
  candidate: Candidate;
  info: ProbeInfo;
  /** `fs.stat` of `info.executable` (following links) when it was chosen. */
  file: FileStamp;
}

/** What identifies a file's content without reading it. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ino: number;
}

/**
 * What a choice depends on: the candidates in order (the Python extension's interpreter,
 * the setting), the strategy, `PATH` (where `python3` is found) and the extension's
 * version (a new bundled server may need a newer Python).
 */
export function interpreterCacheKey(candidates: readonly Candidate[], strategy: ImportStrategy, pathVariable: string, extensionVersion: string): string {
  return JSON.stringify({ candidates: candidates.map((c) => [c.command, ...c.prefix]), strategy, path: pathVariable, extensionVersion });
}

/** The cache entry for a choice just made. */
export function cacheEntry(key: string, chosen: { candidate: Candidate; info: ProbeInfo }, file: FileStamp): CachedInterpreter {
  return { key, candidate: chosen.candidate, info: chosen.info, file: { size: file.size, mtimeMs: file.mtimeMs, ino: file.ino } };
}

/**
 * The cached choice if it still holds: the same key, and the interpreter file as it
 * was (`file`: its stat now, `undefined` when it is gone).
 */
export function cachedChoice(cached: unknown, key: string, file: FileStamp | undefined): { candidate: Candidate; info: ProbeInfo } | undefined {
  if (cached === null || typeof cached !== 'object' || file === undefined) {
    return undefined;
  }
  const entry = cached as Partial<CachedInterpreter>;
  if (entry.key !== key || entry.candidate === undefined || entry.info === undefined || entry.file === undefined) {
    return undefined;
  }
  const same = entry.file.size === file.size && entry.file.mtimeMs === file.mtimeMs && entry.file.ino === file.ino;
  return same ? { candidate: entry.candidate, info: entry.info } : undefined;
}
