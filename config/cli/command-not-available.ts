/**
 * Thrown by a command whose implementation is not wired into this build yet. The CLI reports
 * it as `keel <command>: not available yet in this build` and exits with EXIT.NOT_AVAILABLE,
 * so nothing pretends to have run.
 */
export class CommandNotAvailableError extends Error {
  /** The command name, e.g. `backtest`. */
  readonly command: string;

  /**
   * @param command - the command name
   */
  constructor(command: string) {
    super(`keel ${command}: not available yet in this build`);
    this.name = 'CommandNotAvailableError';
    this.command = command;
  }
}
