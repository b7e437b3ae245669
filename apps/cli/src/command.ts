/** What `--help` prints of a sub-command: kept in a module of its own that imports nothing heavy. */
export interface CommandHelp {
  readonly name: string;
  readonly summary: string;
  /** Full usage text printed by `--help`. */
  readonly usage: string;
}

/** What every `wayfinder` sub-command provides; main.ts dispatches on `name`. */
export interface Command extends CommandHelp {
  /** Runs the command; resolves to the process exit code. Throw `UsageError` for bad arguments. */
  run(argv: string[], io: CommandIo): Promise<number>;
}

export interface CommandIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** A bad argument: main prints `wayfinder <cmd>: <message>` on one line and exits 2. */
export class UsageError extends Error {}
