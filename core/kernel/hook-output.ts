import type { Intent, IntentKind } from '../model/index.ts';

/** Every intent kind of the model; `satisfies` makes the compiler flag a kind added there and missed here. */
const INTENT_KINDS: ReadonlySet<string> = new Set(
  Object.keys({
    placeOrder: true,
    modifyOrder: true,
    cancelOrder: true,
    cancelOrders: true,
    closePosition: true,
    closePositions: true,
    placeAlgoOrder: true,
    replaceAlgoOrder: true,
    cancelAlgoOrder: true,
    cancelAllAlgoOrders: true,
    borrow: true,
    repay: true,
    setPositionMode: true,
  } satisfies Record<IntentKind, true>),
);

/**
 * Whether a value is a Promise or another thenable: what an `async` hook returns.
 * @param value - anything
 * @returns true when it has a `then` method
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * What a value is, in a few words, for a sentence.
 * @param value - anything a strategy gave the kernel
 * @returns e.g. `undefined`, `the number 5`, `a Promise`, `an object without a kind`
 */
export function describeValue(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (isThenable(value)) return 'a Promise';
  switch (typeof value) {
    case 'function':
      return 'a function';
    case 'string':
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)}`;
    case 'object': {
      const kind = (value as { kind?: unknown }).kind;
      return kind === undefined
        ? 'an object without a kind'
        : `an object of kind ${JSON.stringify(kind)}, which is not an intent kind`;
    }
    default:
      return `the ${typeof value} ${String(value)}`;
  }
}

/** Undefined when the value is an intent, else what it is instead. */
function notAnIntent(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || isThenable(value)) return describeValue(value);
  const { kind, ref } = value as { kind?: unknown; ref?: unknown };
  if (typeof kind !== 'string' || !INTENT_KINDS.has(kind)) return describeValue(value);
  if (typeof ref !== 'string') return `a ${kind} intent without a string ref`;
  return undefined;
}

/**
 * Checks what a strategy hands the kernel as intents (a hook's return value, an element of the
 * `setup` stream, the argument of `ctx.submit`): one intent, an array of intents, or nothing.
 * Anything else used to reach the kernel's checks and crash the whole process there, far from
 * the strategy's code.
 * @param out - the value
 * @returns undefined when it is intents or `undefined`, else a description of the first thing
 *   that is not an intent, e.g. `an array whose element 0 is undefined` or `a Promise`
 */
export function intentOutputProblem(out: unknown): string | undefined {
  if (out === undefined) return undefined;
  if (!Array.isArray(out)) return notAnIntent(out);
  for (let i = 0; i < out.length; i++) {
    const problem = notAnIntent(out[i]);
    if (problem !== undefined) return `an array whose element ${i} is ${problem}`;
  }
  return undefined;
}

/**
 * The error of a fault for a strategy that handed the kernel something other than intents.
 * A Promise gets its own sentence: hooks are synchronous, and the kernel never waits for one.
 * @param where - the hook, `setup`, or `ctx.submit`
 * @param verb - `returned`, `emitted`, `was given`
 * @param out - the value
 * @param problem - what {@link intentOutputProblem} said of it
 * @returns the error to report
 */
export function intentOutputError(where: string, verb: string, out: unknown, problem: string): TypeError {
  if (isThenable(out)) {
    return new TypeError(
      `${where} ${verb} a Promise (an async function?): strategy hooks are synchronous, so return the intents (or nothing) without await; Keel does not wait for a Promise, and nothing done after an await reaches the venue`,
    );
  }
  return new TypeError(
    `${where} ${verb} ${problem}, not an intent: return one intent, an array of intents, or nothing (undefined); none of them was sent`,
  );
}

/** Where a strategy's output goes once checked: the kernel, on that strategy's behalf. */
export interface OutputSink {
  /**
   * Passes one intent on to the kernel's checks.
   * @param intent - the intent
   */
  submit(intent: Intent): void;
  /**
   * Halts the strategy and reports a fault.
   * @param where - the hook or stream
   * @param error - what it threw, or the error describing what it gave
   * @param how - `returned` / `emitted` when it did not throw
   */
  fault(where: string, error: unknown, how?: 'returned' | 'emitted'): void;
  /**
   * Reports what an unawaited Promise of the strategy rejected with.
   * @param where - what gave the Promise
   * @param reason - the rejection reason
   */
  rejected(where: string, reason: unknown): void;
}

/**
 * Sends what a hook returned or the setup stream emitted, or halts the strategy when it is not
 * intents: a fault like a throw (the kernel's checks would otherwise crash on it), and nothing
 * of it is sent.
 * @param sink - the strategy's way to the kernel
 * @param out - what the hook returned or the stream emitted
 * @param where - the hook or stream
 * @param verb - `returned` or `emitted`
 * @returns false when it was not intents (the strategy is halted and nothing was sent)
 */
export function acceptOutput(
  sink: OutputSink,
  out: unknown,
  where: string,
  verb: 'returned' | 'emitted',
): boolean {
  const problem = intentOutputProblem(out);
  if (problem !== undefined) {
    sink.fault(where, intentOutputError(where, verb, out, problem), verb);
    reportRejection(sink, where, out);
    return false;
  }
  sendIntents(sink, out as Intent | readonly Intent[] | undefined);
  return true;
}

/**
 * Submits checked intents, one by one, in order.
 * @param sink - the strategy's way to the kernel
 * @param out - one intent, several, or nothing
 */
export function sendIntents(sink: OutputSink, out: Intent | readonly Intent[] | undefined): void {
  if (out === undefined) return;
  if (Array.isArray(out)) {
    for (const intent of out as readonly Intent[]) sink.submit(intent);
  } else {
    sink.submit(out as Intent);
  }
}

/**
 * Halts the strategy because `where` gave something that is not what it must give.
 * @param sink - the strategy's way to the kernel
 * @param where - what gave it, e.g. `setup`
 * @param value - what it gave
 * @param expected - what it must give, e.g. `an Observable of intents or nothing`
 */
export function refuseOutput(sink: OutputSink, where: string, value: unknown, expected: string): void {
  const what = isThenable(value) ? 'a Promise (an async function?)' : describeValue(value);
  sink.fault(
    where,
    new TypeError(`${where} returned ${what}: it must return ${expected}, synchronously`),
    'returned',
  );
  reportRejection(sink, where, value);
}

/**
 * A strategy's Promise is not awaited (the strategy is already halted and reported), but what it
 * rejects with is the user's own error: it goes to the kernel's rejection channel, to be logged,
 * instead of becoming an unhandled rejection that ends the process, or vanishing.
 * @param sink - the strategy's way to the kernel
 * @param where - what gave the value
 * @param value - anything; only a thenable is watched
 */
export function reportRejection(sink: OutputSink, where: string, value: unknown): void {
  if (!isThenable(value)) return;
  Promise.resolve(value).then(undefined, (reason: unknown) => sink.rejected(where, reason));
}
