/**
 * A LogOutputChannel over a plain output channel, for the LSP trace: the
 * language client logs traces at `trace` level, which a real log channel at
 * its default level (info) would drop, so `skilldeck.trace.server` alone
 * would show nothing. Every line is written, prefixed with its level.
 */
import * as vscode from 'vscode';

/** Create the "Skilldeck Trace" channel. */
export function createTraceChannel(): vscode.LogOutputChannel {
  const channel = vscode.window.createOutputChannel('Skilldeck Trace');
  const levelEmitter = new vscode.EventEmitter<vscode.LogLevel>();
  const write = (level: string, message: string | Error, args: unknown[]): void => {
    const text = message instanceof Error ? (message.stack ?? message.message) : message;
    const extra = args.length === 0 ? '' : ` ${args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' ')}`;
    channel.appendLine(`${new Date().toISOString()} [${level}] ${text}${extra}`);
  };
  return {
    name: channel.name,
    logLevel: vscode.LogLevel.Trace,
    onDidChangeLogLevel: levelEmitter.event,
    trace: (message: string, ...args: unknown[]) => write('trace', message, args),
    debug: (message: string, ...args: unknown[]) => write('debug', message, args),
    info: (message: string, ...args: unknown[]) => write('info', message, args),
    warn: (message: string, ...args: unknown[]) => write('warn', message, args),
    error: (message: string | Error, ...args: unknown[]) => write('error', message, args),
    append: (value: string) => channel.append(value),
    appendLine: (value: string) => channel.appendLine(value),
    replace: (value: string) => channel.replace(value),
    clear: () => channel.clear(),
    show: (columnOrPreserve?: vscode.ViewColumn | boolean, preserveFocus?: boolean) => {
      if (typeof columnOrPreserve === 'boolean' || columnOrPreserve === undefined) {
        channel.show(columnOrPreserve);
      } else {
        channel.show(columnOrPreserve, preserveFocus);
      }
    },
    hide: () => channel.hide(),
    dispose: () => {
      levelEmitter.dispose();
      channel.dispose();
    },
  };
}
