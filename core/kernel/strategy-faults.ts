import type { Observable } from 'rxjs';
import { Subject } from 'rxjs';
import type { StrategyRunner } from './strategy-runner.ts';

/**
 * A strategy hook or stream threw: the strategy is halted (no more hooks or intents), the run goes
 * on.
 */
export interface StrategyFault {
  readonly strategyId: string;
  /** The hook or stream that threw, e.g. `onQuote`. */
  readonly where: string;
  readonly error: unknown;
  readonly ts: number;
  /**
   * Set when nothing threw: the hook `returned` (the setup stream `emitted`) a value that is not
   * intents, e.g. `[undefined]` or an async hook's Promise. Absent for a throw.
   */
  readonly how?: 'returned' | 'emitted';
  /**
   * The strategy's plugin file ({@link StrategySlot.source}) when the composition root knows it:
   * the place to name when no stack frame can (a hook that returned a bad value is no longer on
   * the stack when the kernel checks it).
   */
  readonly source?: string;
}

/**
 * A Promise the kernel did not wait for (an async hook, setup or state factory, already reported
 * as a {@link StrategyFault}) rejected: the error the strategy's own async code raised. It comes a
 * microtask or more after the fault, at a time the run's events do not fix, so it is for logs and
 * consoles, never for result files.
 */
export interface StrategyRejection {
  readonly strategyId: string;
  /** What returned the Promise, e.g. `onBar`, `state`, or `ctx.submit` when it was given one. */
  readonly where: string;
  /** What the Promise rejected with. */
  readonly reason: unknown;
  /** The strategy's plugin file, when known (see {@link StrategyFault.source}). */
  readonly source?: string;
}

/** The kernel's two channels for strategies gone wrong: faults as they happen, rejections late. */
export class StrategyFaultReports {
  private readonly fault$ = new Subject<StrategyFault>();
  private readonly rejection$ = new Subject<StrategyRejection>();
  /** Strategies that threw and were halted. */
  readonly faults: Observable<StrategyFault> = this.fault$.asObservable();
  /** Rejections of the Promises of halted async strategies. */
  readonly rejections: Observable<StrategyRejection> = this.rejection$.asObservable();

  /**
   * Reports a strategy's fault (the caller halts the strategy).
   * @param runner - the strategy
   * @param where - the hook or stream
   * @param error - what it threw, or the error describing what it returned
   * @param ts - when, epoch ms
   * @param how - `returned` / `emitted` when it did not throw
   */
  fault(
    runner: StrategyRunner,
    where: string,
    error: unknown,
    ts: number,
    how?: 'returned' | 'emitted',
  ): void {
    this.fault$.next({
      strategyId: runner.id,
      where,
      error,
      ts,
      ...(how === undefined ? {} : { how }),
      ...(runner.source === undefined ? {} : { source: runner.source }),
    });
  }

  /**
   * Reports what a halted strategy's unawaited Promise rejected with.
   * @param runner - the strategy
   * @param where - what returned the Promise
   * @param reason - the rejection reason
   */
  rejected(runner: StrategyRunner, where: string, reason: unknown): void {
    this.rejection$.next({
      strategyId: runner.id,
      where,
      reason,
      ...(runner.source === undefined ? {} : { source: runner.source }),
    });
  }
}
