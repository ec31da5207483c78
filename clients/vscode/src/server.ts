/**
 * The language client's lifecycle: find a Python that can run the server (interpreter.ts),
 * start the bundled server or `python -m skilldeck serve` (`skilldeck.importStrategy`),
 * say what was tried when nothing works, restart on change.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import type { Readable } from 'node:stream';
import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  State,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import {
  bundledLibs,
  cacheEntry,
  cachedChoice,
  candidateLabel,
  describeAttempts,
  describeSource,
  interpreterCacheKey,
  interpreterCandidates,
  noInterpreterMessage,
  selectInterpreter,
  serverLaunch,
  type FileStamp,
  type ImportStrategy,
  type Selection,
} from './interpreter';
import {
  isLifecycleNotice,
  RestartPolicy,
  runningMessage,
  StderrTail,
  stoppedMessage,
  stopReason,
  type CloseDecision,
  type RunningServer,
  type StopReason,
} from './lifecycle';
import { CATALOG_CHANGED_NOTIFICATION, SERVER_ERROR_NOTIFICATION, type CatalogChangedParams, type ServerErrorParams } from './protocol';
import { FailureNotices, SHOW_OUTPUT } from './server-errors';
import {
  documentSelector,
  effectiveTarget,
  initializationOptions,
  readSettings,
  userSetServerSettings,
  type ClientSettings,
  type SettingInspector,
  type SettingTarget,
} from './settings';
import { sourcesUpdateMessage, UPDATE_SOURCES_COMMAND } from './sources-update';
import { indexingUpdate, type IndexingUpdate, type StatusInput } from './status';
import { createTraceChannel } from './traceChannel';

interface PythonEnvironmentsApi {
  getActiveEnvironmentPath(resource?: vscode.Uri): { id: string; path: string };
  resolveEnvironment?(env: { id: string; path: string } | string): Promise<{ executable?: { uri?: vscode.Uri } } | undefined>;
  onDidChangeActiveEnvironmentPath?: vscode.Event<unknown>;
}

interface PythonExtensionApi {
  environments?: PythonEnvironmentsApi;
}

const SELECT_INTERPRETER = 'Select Interpreter';
const SET_PYTHON_PATH = 'Set Python Path';
const USE_BUNDLED = 'Use Bundled Server';
const RESTART = 'Restart Server';

const CONFIGURATION_TARGETS: Record<SettingTarget, vscode.ConfigurationTarget> = {
  global: vscode.ConfigurationTarget.Global,
  workspace: vscode.ConfigurationTarget.Workspace,
  workspaceFolder: vscode.ConfigurationTarget.WorkspaceFolder,
};

/**
 * The LanguageClient, minus its own notices about the connection (`couldn't create
 * connection to server`, `Restarting server failed`, ...): they still go to the output,
 * and the controller shows one notice with the server's own reason instead.
 */
class SkilldeckClient extends LanguageClient {
  override error(message: string, data?: unknown, showNotification?: boolean | 'force'): void {
    super.error(message, data, isLifecycleNotice(message) ? false : showNotification);
  }
}

/** Forward a stream's lines to `log`, each one to `also` too. */
function forwardLines(input: Readable, log: (line: string) => void, also?: (line: string) => void): void {
  readline.createInterface({ input, crlfDelay: Infinity, terminal: false, historySize: 0 }).on('line', (line) => {
    also?.(line);
    log(line);
  });
}

/** Resolves when `input` ends or closes, or after `ms` at the latest. */
function endOf(input: Readable | undefined, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = (): void => {
      clearTimeout(timer);
      resolve();
    };
    if (input === undefined || input.readableEnded || input.destroyed) {
      done();
      return;
    }
    input.once('end', done);
    input.once('close', done);
  });
}

/**
 * Open the Settings editor on `key`, on the tab that shows it: a machine-overridable
 * setting shows only on the Remote tab of a remote window (code-server, SSH, WSL,
 * containers), so there the remote settings open.
 */
export async function openSetting(key: string): Promise<void> {
  const command = vscode.env.remoteName !== undefined ? 'workbench.action.openRemoteSettings' : 'workbench.action.openSettings';
  await vscode.commands.executeCommand(command, { query: key });
}

/** The workspace-state key of the interpreter chosen last time (interpreter.ts). */
const INTERPRETER_CACHE = 'skilldeck.interpreter';

/** `fs.stat` of `file` (following links), or `undefined` when it is gone. */
async function fileStamp(file: string): Promise<FileStamp | undefined> {
  try {
    const stat = await fs.promises.stat(file);
    return { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino };
  } catch {
    return undefined;
  }
}

/** Read the current `skilldeck` settings. */
export function currentSettings(): ClientSettings {
  const config = vscode.workspace.getConfiguration('skilldeck');
  return readSettings((key) => config.get(key));
}

/**
 * `inspect(key)` for the `skilldeck` section at `scopeUri` (default: the first
 * workspace folder), Markdown-specific values included.
 */
export function settingInspector(scopeUri?: string): SettingInspector {
  const uri = scopeUri !== undefined ? vscode.Uri.parse(scopeUri) : vscode.workspace.workspaceFolders?.[0]?.uri;
  const config = vscode.workspace.getConfiguration('skilldeck', { uri, languageId: 'markdown' });
  return (key) => config.inspect(key);
}

/** The document filters for the current settings. */
export function currentSelector(settings: ClientSettings): vscode.DocumentFilter[] {
  return documentSelector(settings.server.customSkillDirs, os.homedir());
}

/** Owns the LanguageClient; serialises start, stop and restart. */
export class ServerController implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private queue: Promise<void> = Promise.resolve();
  private pythonListener: vscode.Disposable | undefined;
  private readonly stateEmitter = new vscode.EventEmitter<StatusInput>();
  private readonly catalogEmitter = new vscode.EventEmitter<CatalogChangedParams>();
  private readonly readyEmitter = new vscode.EventEmitter<void>();
  private readonly indexingEmitter = new vscode.EventEmitter<NonNullable<IndexingUpdate>>();

  /** Fires with starting / stopped states (the ready state comes from catalog requests). */
  readonly onDidChangeState = this.stateEmitter.event;
  /** Fires on `skilldeck/catalogChanged`. */
  readonly onDidChangeCatalog = this.catalogEmitter.event;
  /** Fires each time a server is up and initialized. */
  readonly onDidStart = this.readyEmitter.event;
  /** Fires with the server's indexing progress (`1,200/2,006`) and when indexing ends. */
  readonly onDidIndex = this.indexingEmitter.event;

  private readonly trace: vscode.LogOutputChannel = createTraceChannel();
  private readonly failures = new FailureNotices();

  /** Why the server is not running, with the actions that help (the red status item shows it again). */
  private problem: { message: string; actions: string[] } | undefined;
  /** What runs, for "Show Server Status" (set once a server started). */
  private launched: Omit<RunningServer, 'pid' | 'serverInfo'> | undefined;

  constructor(
    private readonly output: vscode.LogOutputChannel,
    private readonly extensionPath: string,
    /** This workspace's state: the interpreter chosen last time. */
    private readonly workspaceState?: vscode.Memento,
    private readonly extensionVersion = '',
    /** Where the bundled server keeps its compiled libraries (`SKILLDECK_PYCACHE`, launch.py). */
    private readonly pycacheDir?: string,
  ) {}

  /** The running client, if the server is up. */
  get running(): LanguageClient | undefined {
    return this.client !== undefined && this.client.state === State.Running ? this.client : undefined;
  }

  /** Send a request to the server; rejects when it is not running. */
  async request<R>(method: string, params: unknown): Promise<R> {
    const client = this.running;
    if (client === undefined) {
      throw new Error('The skilldeck language server is not running.');
    }
    return client.sendRequest<R>(method, params);
  }

  start(): Promise<void> {
    return this.enqueue(() => this.doStart());
  }

  restart(): Promise<void> {
    return this.enqueue(async () => {
      await this.doStop();
      await this.doStart();
    });
  }

  stop(): Promise<void> {
    return this.enqueue(() => this.doStop());
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(step).catch((error: unknown) => {
      this.output.error(`Skilldeck: ${String(error)}`);
    });
    return this.queue;
  }

  private async pythonFromExtension(): Promise<string | undefined> {
    const extension = vscode.extensions.getExtension<PythonExtensionApi>('ms-python.python');
    if (extension === undefined) {
      return undefined;
    }
    try {
      const api = extension.isActive ? extension.exports : await extension.activate();
      const environments = api?.environments;
      if (environments === undefined) {
        return undefined;
      }
      if (this.pythonListener === undefined && environments.onDidChangeActiveEnvironmentPath !== undefined) {
        this.pythonListener = environments.onDidChangeActiveEnvironmentPath(() => {
          this.output.info('Python interpreter changed; restarting the skilldeck server.');
          void this.restart();
        });
      }
      const resource = vscode.workspace.workspaceFolders?.[0]?.uri;
      const active = environments.getActiveEnvironmentPath(resource);
      if (environments.resolveEnvironment !== undefined) {
        const resolved = await environments.resolveEnvironment(active);
        const executable = resolved?.executable?.uri?.fsPath;
        if (executable !== undefined && executable !== '') {
          return executable;
        }
      }
      return active.path;
    } catch (error) {
      this.output.warn(`Could not ask the Python extension for an interpreter: ${String(error)}`);
      return undefined;
    }
  }

  /** The interpreter chosen last time, if nothing it was chosen from changed (interpreter.ts). */
  private async cachedInterpreter(key: string): Promise<Selection['chosen']> {
    const entry = this.workspaceState?.get<unknown>(INTERPRETER_CACHE);
    const executable = (entry as { info?: { executable?: unknown } } | undefined)?.info?.executable;
    return cachedChoice(entry, key, typeof executable === 'string' ? await fileStamp(executable) : undefined);
  }

  private async doStart(useCache = true): Promise<void> {
    if (this.client !== undefined) {
      return;
    }
    this.problem = undefined;
    this.launched = undefined;
    this.stateEmitter.fire({ state: 'starting' });
    this.output.info('Starting the skilldeck language server: looking for a Python 3.10+.');
    const settings = currentSettings();
    let strategy: ImportStrategy = settings.importStrategy;
    if (strategy === 'useBundled' && !fs.existsSync(path.join(bundledLibs(this.extensionPath), 'skilldeck'))) {
      this.output.warn(`No bundled server in ${bundledLibs(this.extensionPath)} (a build without \`npm run package\`): using the skilldeck installed in the interpreter.`);
      strategy = 'fromEnvironment';
    }
    const candidates = interpreterCandidates({
      pythonExtension: await this.pythonFromExtension(),
      setting: settings.pythonPath,
      home: os.homedir(),
      workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    });
    const cacheKey = interpreterCacheKey(candidates, strategy, process.env.PATH ?? '', this.extensionVersion);
    const cached = useCache ? await this.cachedInterpreter(cacheKey) : undefined;
    const selection: Selection = cached !== undefined ? { chosen: cached, attempts: [] } : await selectInterpreter(candidates, strategy);
    for (const line of describeAttempts(selection.attempts)) {
      this.output.info(`Not usable: ${line}`);
    }
    if (selection.chosen === undefined) {
      const message = noInterpreterMessage(strategy, selection.attempts);
      this.output.error(message);
      this.stateEmitter.fire({ state: 'stopped', reason: message });
      void this.reportProblem(message, strategy === 'fromEnvironment' ? [SELECT_INTERPRETER, USE_BUNDLED] : [SELECT_INTERPRETER, SET_PYTHON_PATH]);
      return;
    }
    const { candidate, info } = selection.chosen;
    const launch = serverLaunch(candidate, strategy, this.extensionPath);
    this.output.info(
      `Using Python ${info.version.join('.')} at ${info.executable} (${candidateLabel(candidate)}, from ${describeSource(candidate.source)}` +
        `${cached !== undefined ? ', as last time in this workspace' : ''}); ` +
        (strategy === 'useBundled' ? 'the server bundled with the extension.' : `skilldeck ${info.skilldeck ?? '?'} installed there.`),
    );
    const launchText = `${launch.command} ${launch.args.join(' ')}`;
    const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    // What the client decides when the server goes away (lifecycle.ts): no restart for a
    // server that never got running; bounded restarts for one that crashed.
    const policy = new RestartPolicy();
    const stderr = new StderrTail();
    let stderrStream: Readable | undefined;
    let wasRunning = false;
    let started = false;
    let lastClose: CloseDecision | undefined;
    let reported = false;
    const serverOptions: ServerOptions = {
      command: launch.command,
      args: launch.args,
      transport: TransportKind.stdio,
      options: {
        ...(cwd === undefined ? {} : { cwd }),
        ...(strategy === 'useBundled' && this.pycacheDir !== undefined ? { env: { ...process.env, SKILLDECK_PYCACHE: this.pycacheDir } } : {}),
      },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: documentSelector(settings.server.customSkillDirs, os.homedir()),
      initializationOptions: initializationOptions(settingInspector()),
      middleware: {
        executeCommand: async (command, args, next) => {
          const result: unknown = await next(command, args);
          const message = command === UPDATE_SOURCES_COMMAND ? sourcesUpdateMessage(result) : undefined;
          if (message !== undefined) {
            void vscode.window.showInformationMessage(message);
          }
          return result;
        },
        handleWorkDoneProgress: (token, params, next) => {
          const update = indexingUpdate(token, params);
          if (update !== undefined) {
            this.indexingEmitter.fire(update);
          }
          next(token, params);
        },
        workspace: {
          // Answer the `skilldeck` section with the values the user set only: the
          // default answer includes VS Code's defaults, which would hide skilldeck.toml.
          configuration: async (params, token, next) => {
            const answer = await next(params, token);
            if (!Array.isArray(answer)) {
              return answer;
            }
            return params.items.map((item, index): unknown =>
              item.section === 'skilldeck' ? userSetServerSettings(settingInspector(item.scopeUri)) : answer[index],
            );
          },
        },
      },
      outputChannel: this.output,
      traceOutputChannel: this.trace,
      stdioOptions: {
        stdout: (input: Readable, channel: vscode.LogOutputChannel) => forwardLines(input, (line) => channel.info(line)),
        stderr: (input: Readable, channel: vscode.LogOutputChannel) => {
          // Each (re)start spawns a new process: keep the last lines of this one's stderr.
          stderr.reset();
          stderrStream = input;
          forwardLines(input, (line) => channel.error(line), (line) => stderr.add(line));
        },
      },
      initializationFailedHandler: () => false,
      errorHandler: {
        error: (_error, _message, count) => ({
          action: policy.error(count) === 'shutdown' ? ErrorAction.Shutdown : ErrorAction.Continue,
          handled: true,
        }),
        closed: () => {
          lastClose = policy.closed(wasRunning, Date.now());
          wasRunning = false;
          return { action: lastClose.restart ? CloseAction.Restart : CloseAction.DoNotRestart, handled: true };
        },
      },
    };
    const client = new SkilldeckClient('skilldeck', 'Skilldeck', serverOptions, clientOptions);
    this.client = client;
    client.onDidChangeState(({ newState }) => {
      if (this.client !== client) {
        return; // stopped on purpose (restart, settings change, deactivate)
      }
      if (newState === State.Running) {
        wasRunning = true;
        if (started) {
          this.output.info('skilldeck language server restarted.');
          this.readyEmitter.fire();
        }
      } else if (newState === State.Starting) {
        lastClose = undefined;
        reported = false;
        if (started) {
          this.stateEmitter.fire({ state: 'starting' });
        }
      } else if (started && lastClose?.restart !== true && !reported) {
        // Stopped for good after it had been running: the first start's failure is doStart's.
        reported = true;
        const reason: StopReason = newState === State.StartFailed ? { why: 'start-failed' } : stopReason(lastClose);
        void endOf(stderrStream, 1000).then(() => {
          if (this.client !== client) {
            return;
          }
          const message = stoppedMessage(launchText, reason, stderr.summary());
          this.output.error(message);
          this.stateEmitter.fire({ state: 'stopped', reason: message });
          void this.reportProblem(message, [RESTART]);
        });
      }
    });
    client.onNotification(CATALOG_CHANGED_NOTIFICATION, (params: CatalogChangedParams) => {
      this.catalogEmitter.fire(params);
    });
    client.onNotification(SERVER_ERROR_NOTIFICATION, (params: ServerErrorParams) => {
      const message = this.failures.take(params);
      if (message !== undefined) {
        void vscode.window.showErrorMessage(message, SHOW_OUTPUT).then((picked) => {
          if (picked === SHOW_OUTPUT) {
            this.output.show(true);
          }
        });
      }
    });
    try {
      await client.start();
    } catch (error) {
      // Stop and dispose it: a client left behind would restart on its own, deliver
      // catalogs nobody asked for and hold the server's commands (Restart then failed).
      this.client = undefined;
      await endOf(stderrStream, 1000);
      await this.disposeClient(client);
      if (cached !== undefined) {
        // The interpreter of last time no longer runs the server: look again.
        await this.workspaceState?.update(INTERPRETER_CACHE, undefined);
        this.output.info(`The server did not start with the interpreter chosen last time (${info.executable}); looking for one again.`);
        await this.doStart(false);
        return;
      }
      const said = stderr.summary();
      const message = stoppedMessage(launchText, said === undefined ? { why: 'start-error', error: String(error) } : { why: 'start-failed' }, said);
      this.output.error(message);
      this.stateEmitter.fire({ state: 'stopped', reason: message });
      void this.reportProblem(message, strategy === 'fromEnvironment' ? [SELECT_INTERPRETER, USE_BUNDLED] : [SELECT_INTERPRETER, SET_PYTHON_PATH]);
      return;
    }
    started = true;
    if (cached === undefined && selection.chosen !== undefined) {
      const file = await fileStamp(info.executable);
      if (file !== undefined) {
        await this.workspaceState?.update(INTERPRETER_CACHE, cacheEntry(cacheKey, selection.chosen, file));
      }
    }
    this.launched = {
      python: info,
      found: `${candidateLabel(candidate)}, from ${describeSource(candidate.source)}`,
      strategy,
      since: Date.now(),
    };
    this.output.info(`skilldeck language server started: ${launchText}`);
    await vscode.commands.executeCommand('setContext', 'skilldeck.active', true);
    this.readyEmitter.fire();
  }

  private async doStop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client !== undefined) {
      await this.disposeClient(client);
    }
  }

  /**
   * Stop `client` (its server process ends) and dispose it (its commands and features
   * go). Never rejects: a client that failed to start cannot be stopped cleanly, and a
   * restart must go on regardless.
   */
  private async disposeClient(client: LanguageClient): Promise<void> {
    try {
      if (client.state === State.Running) {
        await client.stop(5000);
      }
    } catch (error) {
      this.output.warn(`Stopping the skilldeck server: ${String(error)}`);
    }
    try {
      await client.dispose(2000);
    } catch {
      // A client that is not running rejects stop(); dispose() has terminated its process.
    }
  }

  /** `Skilldeck: Update Skill Sources`: the server's command, or why it cannot run. */
  async updateSources(): Promise<void> {
    if (this.running === undefined) {
      const picked = await vscode.window.showWarningMessage(
        'Skilldeck: the language server is not running, so skill sources cannot be updated.',
        RESTART,
        SHOW_OUTPUT,
      );
      if (picked === RESTART) {
        await this.restart();
      } else if (picked === SHOW_OUTPUT) {
        this.output.show(true);
      }
      return;
    }
    // The client registered the server's command; its middleware shows the result.
    await vscode.commands.executeCommand(UPDATE_SOURCES_COMMAND);
  }

  /**
   * "Show Server Status": why the server is not running, with the actions that help (the
   * red status item's command), or, while it runs, which interpreter and process.
   */
  async showProblem(): Promise<void> {
    const client = this.running;
    if (client !== undefined && this.launched !== undefined) {
      const message = runningMessage({ ...this.launched, pid: client.serverProcess?.pid, serverInfo: client.initializeResult?.serverInfo }, Date.now());
      this.output.info(message);
      const picked = await vscode.window.showInformationMessage(message, SHOW_OUTPUT, RESTART);
      if (picked === SHOW_OUTPUT) {
        this.output.show(true);
      } else if (picked === RESTART) {
        await this.restart();
      }
      return;
    }
    if (this.problem === undefined) {
      this.output.show(true);
      return;
    }
    await this.reportProblem(this.problem.message, this.problem.actions);
  }

  private async reportProblem(message: string, wanted: readonly string[]): Promise<void> {
    const hasPython = vscode.extensions.getExtension('ms-python.python') !== undefined;
    const actions = [...wanted.filter((action) => action !== SELECT_INTERPRETER || hasPython), SHOW_OUTPUT];
    this.problem = { message, actions };
    const picked = await vscode.window.showErrorMessage(message, ...actions);
    if (picked === SELECT_INTERPRETER) {
      await vscode.commands.executeCommand('python.setInterpreter');
    } else if (picked === SET_PYTHON_PATH) {
      await openSetting('skilldeck.server.pythonPath');
    } else if (picked === USE_BUNDLED) {
      // Write where the current value comes from: a global value would stay hidden under a
      // workspace or folder `fromEnvironment` (machine-overridable).
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const config = vscode.workspace.getConfiguration('skilldeck', folder);
      const target = effectiveTarget(config.inspect('importStrategy'));
      await config.update('importStrategy', 'useBundled', CONFIGURATION_TARGETS[target]);
    } else if (picked === RESTART) {
      await this.restart();
    } else if (picked === SHOW_OUTPUT) {
      this.output.show(true);
    }
  }

  dispose(): void {
    void this.stop();
    this.pythonListener?.dispose();
    this.trace.dispose();
    this.stateEmitter.dispose();
    this.catalogEmitter.dispose();
    this.readyEmitter.dispose();
    this.indexingEmitter.dispose();
  }
}
