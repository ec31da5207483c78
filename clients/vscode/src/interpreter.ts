/**
 * Choosing the Python interpreter that runs the language server, and checking
 * that skilldeck is importable in it. No `vscode` import: the adapter passes in
 * what the Python extension and the settings say.
 */
import { execFile } from 'node:child_process';

/** Where the chosen interpreter came from. */
export type InterpreterSource = 'python-extension' | 'setting' | 'default';

/** The interpreter to run, and why it was chosen. */
export interface InterpreterChoice {
  command: string;
  source: InterpreterSource;
}

/** What is known when choosing. Empty or whitespace-only strings count as absent. */
export interface InterpreterInputs {
  /** The active environment's executable from the Python extension, if installed. */
  pythonExtension?: string | null;
  /** The `skilldeck.server.pythonPath` setting. */
  setting?: string | null;
}

/** The fallback when neither the Python extension nor the setting names an interpreter. */
export const DEFAULT_PYTHON = 'python3';

function present(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/**
 * Pick the interpreter: the Python extension's active environment when present,
 * else the `skilldeck.server.pythonPath` setting, else `python3`.
 */
export function chooseInterpreter(inputs: InterpreterInputs): InterpreterChoice {
  if (present(inputs.pythonExtension)) {
    return { command: inputs.pythonExtension.trim(), source: 'python-extension' };
  }
  if (present(inputs.setting)) {
    return { command: inputs.setting.trim(), source: 'setting' };
  }
  return { command: DEFAULT_PYTHON, source: 'default' };
}

/** A human description of where the interpreter came from, for messages. */
export function describeSource(source: InterpreterSource): string {
  switch (source) {
    case 'python-extension':
      return "the Python extension's active environment";
    case 'setting':
      return 'the skilldeck.server.pythonPath setting';
    case 'default':
      return 'the default (python3 on PATH)';
  }
}

function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_./:=@+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The shell command a user runs to install skilldeck into `python`. */
export function installCommand(python: string): string {
  return `${shellQuote(python)} -m pip install skilldeck`;
}

/** Result of probing an interpreter for skilldeck. */
export type ImportCheck =
  | { ok: true }
  | { ok: false; reason: 'not-found' | 'not-installed' | 'failed'; detail: string };

/** Arguments that make an interpreter exit 0 only when skilldeck imports. */
export const IMPORT_CHECK_ARGS: readonly string[] = ['-c', 'import skilldeck'];

/**
 * Spawn `python -c "import skilldeck"` and classify the outcome.
 * Never rejects; `timeoutMs` bounds a hung interpreter.
 */
export function checkSkilldeckImport(python: string, timeoutMs = 20000): Promise<ImportCheck> {
  return new Promise((resolve) => {
    execFile(python, [...IMPORT_CHECK_ARGS], { timeout: timeoutMs, windowsHide: true }, (error, _stdout, stderr) => {
      if (error === null) {
        resolve({ ok: true });
        return;
      }
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EACCES') {
        resolve({ ok: false, reason: 'not-found', detail: `${python}: ${error.message}` });
        return;
      }
      const text = String(stderr).trim();
      if (/ModuleNotFoundError|No module named/.test(text)) {
        resolve({ ok: false, reason: 'not-installed', detail: lastLine(text) });
        return;
      }
      resolve({ ok: false, reason: 'failed', detail: text === '' ? error.message : lastLine(text) });
    });
  });
}

function lastLine(text: string): string {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  return lines.length === 0 ? text : lines[lines.length - 1];
}

/** The notification text for a failed check. */
export function importFailureMessage(choice: InterpreterChoice, check: ImportCheck): string {
  if (check.ok) {
    return '';
  }
  const where = `${choice.command} (from ${describeSource(choice.source)})`;
  switch (check.reason) {
    case 'not-found':
      return `Skilldeck: cannot run the Python interpreter ${where}. Set skilldeck.server.pythonPath or select an interpreter.`;
    case 'not-installed':
      return `Skilldeck: the skilldeck package is not installed in ${where}. Install it with: ${installCommand(choice.command)}`;
    case 'failed':
      return `Skilldeck: importing skilldeck failed in ${where}: ${check.detail}`;
  }
}
