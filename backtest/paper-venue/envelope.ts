import type { UserEvent } from '../../core/model/index.ts';
import { SIM_ERRORS, type SimErrorName } from '../sim/index.ts';

/** The spec's success envelope `{ code: 0, message: "success", data }`. */
export interface SuccessEnvelope<T> {
  readonly code: 0;
  readonly message: 'success';
  readonly data: T;
}

/** An error envelope `{ code, message, data: null }`. */
export interface ErrorEnvelope {
  readonly code: number;
  readonly message: string;
  readonly data: null;
}

/**
 * Wraps reply data in the spec's success envelope (the paper venue follows the spec, not the
 * public venue's `200000` / "Success").
 * @param data - the reply payload
 * @returns the envelope
 */
export function success<T>(data: T): SuccessEnvelope<T> {
  return { code: 0, message: 'success', data };
}

/**
 * A refusal the paper venue answers with an error envelope. `httpStatus` is 200 for venue
 * business errors (Keel's choice: the spec does not show the mapping of codes to HTTP status),
 * 401 for authentication failures, 429 when rate-limited and 5xx for injected faults.
 */
export class PaperApiError extends Error {
  override readonly name = 'PaperApiError';
  /** The envelope code. */
  readonly code: number;
  /** The HTTP status the REST reply carries. */
  readonly httpStatus: number;
  /** A rate-limit refusal's wait, whole seconds: the REST reply's `Retry-After`. */
  readonly retryAfterSeconds: number | undefined;

  /**
   * @param code - the envelope code
   * @param message - a sentence saying what was wrong and where
   * @param httpStatus - the REST status, default 200
   * @param retryAfterSeconds - for a rate-limit refusal, when to retry (the `Retry-After` header)
   */
  constructor(code: number, message: string, httpStatus = 200, retryAfterSeconds?: number) {
    super(message);
    this.code = code;
    this.httpStatus = httpStatus;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** @returns the error envelope of this refusal */
  envelope(): ErrorEnvelope {
    return { code: this.code, message: this.message, data: null };
  }
}

/**
 * A refusal with one of the simulated venue's codes (the same table the sim rejects orders with).
 * @param name - the sim error
 * @param detail - what exactly was wrong
 * @returns the error
 */
export function simError(name: SimErrorName, detail?: string): PaperApiError {
  const entry = SIM_ERRORS[name];
  return new PaperApiError(entry.code, detail === undefined ? entry.message : `${entry.message}: ${detail}`);
}

/**
 * Bad request parameters (400001, per public venue docs), naming the field.
 * @param where - the request and field, e.g. `POST /api/v1/trading/order body.sym`
 * @param problem - what is wrong with it
 * @returns the error
 */
export function badParameter(where: string, problem: string): PaperApiError {
  return new PaperApiError(SIM_ERRORS.BAD_PARAMETERS.code, `bad parameters: ${where} ${problem}`);
}

/**
 * Reads the code out of a sim rejection reason `"<code> <message>[: detail]"`.
 * @param reason - the rejected order's reason, or a commandRejected message
 * @param fallbackCode - the code when the reason carries none
 * @returns the error to answer
 */
export function errorFromReason(
  reason: string,
  fallbackCode: number = SIM_ERRORS.BAD_PARAMETERS.code,
): PaperApiError {
  const match = /^(\d+) (.*)$/s.exec(reason);
  return match
    ? new PaperApiError(Number(match[1]), match[2] ?? reason)
    : new PaperApiError(fallbackCode, reason);
}

/**
 * The sim's refusal of a command, if it refused: a CommandRejectedEvent carrying the command's ref.
 * @param ref - the command's caller reference
 * @param events - what the command produced
 * @returns the error to answer, or undefined when the command was accepted
 */
export function refusalOf(ref: string, events: readonly UserEvent[]): PaperApiError | undefined {
  const rejection = events.find((e) => e.kind === 'commandRejected' && e.ref === ref);
  return rejection?.kind === 'commandRejected' ? errorFromReason(rejection.message) : undefined;
}

/**
 * Throws the sim's refusal of a command, if it refused.
 * @param ref - the command's caller reference
 * @param events - what the command produced
 * @throws PaperApiError with the sim's code
 */
export function throwIfRefused(ref: string, events: readonly UserEvent[]): void {
  const error = refusalOf(ref, events);
  if (error) throw error;
}
