import type { Intent, IntentKind } from '../model/index.ts';

/** A strategy timer firing. */
export interface TimerEvent {
  readonly kind: 'timer';
  /** The id `setTimer` / `every` returned. */
  readonly id: number;
  /** The tag given when the timer was set ('' when none). */
  readonly tag: string;
  /** The time the timer was due, epoch ms (the clock reads this while it fires in a backtest). */
  readonly ts: number;
  /**
   * Earlier periods of a repeating timer folded into this firing: on a real timer (live, or a
   * paper session paced against the wall clock), when the kernel woke more than one period late
   * (the process stalled, the machine slept), the timer fires once for its latest period due
   * (`ts`) instead of once per period back to back. Always 0 on event time (a backtest, a lockstep
   * paper session), where every period fires at its own time.
   */
  readonly missed: number;
}

/**
 * Where a denial came from: the kernel's own checks (ownership, references), the risk gate, or
 * the venue refusing a non-order command (order rejections arrive as REJECTED order updates).
 */
export type DenialSource = 'kernel' | 'risk' | 'venue';

/**
 * An intent that did not go through, delivered to its strategy (`onDenied`, `ctx.denials()`)
 * instead of an exception.
 */
export interface IntentDenied {
  readonly kind: 'denied';
  readonly strategyId: string;
  readonly ref: string;
  readonly intentKind: IntentKind;
  /** The intent itself; absent for venue refusals, which only echo the reference. */
  readonly intent?: Intent;
  /**
   * The sym a command the venue refused named (the syms, space-separated, of a close of several
   * positions), as the kernel sent it; absent for one that names none, and for the kernel's and
   * the risk gate's denials, whose `intent` names it.
   */
  readonly sym?: string;
  readonly source: DenialSource;
  /**
   * The check's name: a kernel check (`kernel.ownership`, `kernel.ref`), a risk check by its own
   * name, unprefixed (`maxNotional`, `submitRate`; all are in core/risk's `RISK_CHECK_NAMES`), or
   * `venue.<code>` for a command the venue refused (`venue.400001`).
   */
  readonly check: string;
  /** A sentence saying why. */
  readonly reason: string;
  /** When it was denied, epoch ms. */
  readonly ts: number;
}

/** What a hook may return: one intent, several, or nothing. */
// biome-ignore lint/suspicious/noConfusingVoidType: void lets a hook body be a plain call such as `ctx.watchBars(...)`
export type IntentOutput = Intent | readonly Intent[] | undefined | void;
