/** What a secret prints as, everywhere. */
export const REDACTED = '[redacted]';

/**
 * Node's `util.inspect.custom`, which is this registered symbol: named here rather than imported
 * from `node:util`, so the model (the strategy API's types) needs no Node types, as a plugin's
 * own folder has none.
 */
const inspectCustom = Symbol.for('nodejs.util.inspect.custom');

/**
 * A credential read from the environment (the venue's API key and secret, a strategy param
 * declared with `secretParam()`). It prints, logs and serialises as `[redacted]` (toString,
 * toJSON, util.inspect), so a config, a result's params or a log line can hold it whole without
 * leaking it; only {@link Secret.reveal} gives the value, where it is used.
 */
export class Secret {
  readonly #value: string;

  /**
   * @param value - the credential
   */
  constructor(value: string) {
    this.#value = value;
  }

  /**
   * The credential itself, for signing only.
   * @returns the secret text
   */
  reveal(): string {
    return this.#value;
  }

  /** @returns `[redacted]` */
  toString(): string {
    return REDACTED;
  }

  /** @returns `[redacted]`, so JSON.stringify never writes the value */
  toJSON(): string {
    return REDACTED;
  }

  /** @returns `[redacted]` for console.log and util.inspect */
  [inspectCustom](): string {
    return REDACTED;
  }
}
