import type { Observable } from 'rxjs';
import type { ZodType } from 'zod';
import type {
  AlgoOrder,
  BarEvent,
  Execution,
  Intent,
  MarketTradeEvent,
  Order,
  Position,
  QuoteEvent,
  VenueStatus,
} from '../model/index.ts';
import type { StrategyContext } from './strategy-context.ts';
import type { IntentDenied, IntentOutput, TimerEvent } from './strategy-events.ts';
import { unknownSpecKey } from './strategy-spec-keys.ts';
import { strictParams } from './strict-params.ts';
import type { TrailingStop } from './trailing-stop.ts';

/**
 * Hook style: each hook receives the context (and the event) and may return intents (one, an
 * array, or nothing) or call `ctx.submit`. Order and fill hooks see only the strategy's own
 * orders; position hooks see every position. Hooks are synchronous: a hook that throws, returns
 * a Promise (an `async` hook) or returns anything else that is not intents halts its strategy
 * for the rest of the run, and the kernel reports it as a fault.
 */
export interface StrategyHooks<P, S> {
  readonly onStart?: (ctx: StrategyContext<P, S>) => IntentOutput;
  /**
   * BBO updates of every instrument of the run (the config's `instruments`), or of the syms the
   * strategy's `syms` names: filter by `quote.sym` when it trades one of several. Syms outside
   * the run's instruments never come, whatever the data holds.
   */
  readonly onQuote?: (ctx: StrategyContext<P, S>, quote: QuoteEvent) => IntentOutput;
  /** Public trades, of the same syms as `onQuote`. */
  readonly onTrade?: (ctx: StrategyContext<P, S>, trade: MarketTradeEvent) => IntentOutput;
  /**
   * Closed bars of the (sym, interval) pairs the strategy watches (`ctx.watchBars`), for syms
   * among the run's instruments.
   */
  readonly onBar?: (ctx: StrategyContext<P, S>, bar: BarEvent) => IntentOutput;
  /**
   * Updates of the strategy's own orders as the venue (or, `synthesized`, Keel's venue adapter)
   * reports them. Keel's in-flight states (PENDING_NEW, PENDING_CANCEL, PENDING_REPLACE) are not
   * delivered: they show in `ctx.openOrders()` while a request awaits the venue. An update with
   * `orderState` FILLED is the place to react to a completed order: by then the order carries
   * every fill, and `ctx.netQty` counts them even before the venue's position update arrives.
   */
  readonly onOrder?: (ctx: StrategyContext<P, S>, order: Order) => IntentOutput;
  /**
   * Each fill of the strategy's own orders, once (a fill delivered twice is dropped). When it
   * fires, `ctx.netQty` already counts it, but the order (`ctx.openOrders()`, `onOrder`) and the
   * venue's position report (`ctx.position`, `onPosition`) may not reflect it yet: the venue
   * reports the execution before the order and position updates that include it. Use it for
   * what the fill itself says (price, quantity, fee); react to a completed order in `onOrder`
   * with the FILLED state.
   */
  readonly onFill?: (ctx: StrategyContext<P, S>, fill: Execution) => IntentOutput;
  readonly onPosition?: (ctx: StrategyContext<P, S>, position: Position) => IntentOutput;
  readonly onTimer?: (ctx: StrategyContext<P, S>, timer: TimerEvent) => IntentOutput;
  /**
   * An intent that did not take effect: denied by the kernel or the risk gate, or a modify,
   * cancel or other command the venue refused (`source: 'venue'`). A new order the venue refuses
   * comes to `onOrder` as a REJECTED update instead.
   */
  readonly onDenied?: (ctx: StrategyContext<P, S>, denial: IntentDenied) => IntentOutput;
  /**
   * A status change of one of the strategy's emulated trailing stops (`ctx.order.trailingStop`):
   * PENDING when the kernel accepted it, ACTIVE when it starts trailing, TRIGGERED when the price
   * crossed it (its MARKET order, under the same reference, then goes through the risk gate:
   * a denial comes to `onDenied`, the order's updates to `onOrder`), CANCELLED. A stop the kernel
   * refuses (unknown sym, offset not > 0) comes to `onDenied` with the check `kernel.trailingStop`,
   * one the risk gate denies when it is placed (judged as that MARKET order: `maxNotional`...) with
   * the gate's check; neither is held nor reported here.
   * Moves of the stop price are not delivered: read them with `ctx.trailingStops()`. A stop of a
   * strategy halted by a fault still fires (as one held by the venue would), unheard. One still
   * open when the run ends is CANCELLED (`cancelReason: 'runEnded'`) after `onStop`, unheard.
   */
  readonly onTrailingStop?: (ctx: StrategyContext<P, S>, stop: TrailingStop) => IntentOutput;
  /**
   * The venue reported one of the strategy's algo orders (`ctx.order.algo`, and the take-profit /
   * stop-loss legs attached to its orders): NEW when the venue took it and after each replace,
   * TRIGGERED when it fired (its order then comes to `onOrder` with `algoRef` set to this algo
   * order's `clientAlgoOrderId`), CANCELLED (`cancelReason` says why when Keel can tell: `cancel`,
   * `closePosition`, `siblingTriggered`), FAILED (the venue could not place its order: that order
   * comes to `onOrder` REJECTED with the venue's reason). Each report once; a stale or repeated one
   * is not delivered. An algo order the venue refuses to place comes to `onDenied` instead.
   */
  readonly onAlgoOrder?: (ctx: StrategyContext<P, S>, algo: AlgoOrder) => IntentOutput;
  /**
   * Live and paper sessions: a venue stream's connection changed. `{ stream: 'private', state:
   * 'down' }` means orders, fills and positions may be stale: from then until `{ stream:
   * 'private', state: 'reconciled' }` (after `up`, once Keel re-read the venue's orders and
   * positions) the kernel denies new orders and modifies (`kernel.venueDisconnected`); cancels
   * still go out. `{ stream: 'market', state: 'down' }` means prices are stale (the socket dropped
   * or went silent); `up` follows when it is back and resubscribed. Never called in a backtest.
   */
  readonly onVenueStatus?: (ctx: StrategyContext<P, S>, status: VenueStatus) => IntentOutput;
  /** Last call: intents returned here (e.g. cancels) are still sent. */
  readonly onStop?: (ctx: StrategyContext<P, S>) => IntentOutput;
}

/** Everything a strategy plugin declares. */
export interface StrategySpec<P, S> extends StrategyHooks<P, S> {
  /** Plugin name, e.g. `ma-cross`. */
  readonly name: string;
  /** One line for the README and the CLI. */
  readonly description?: string;
  /** zod schema of the parameters; the kernel parses the run's parameters with it. */
  readonly params: ZodType<P>;
  /**
   * Makes the strategy's own mutable state (`ctx.state`) once per run, synchronously. If it
   * throws, the strategy never starts: the kernel reports a fault of `state` at the run's start.
   */
  readonly state?: (params: P) => S;
  /**
   * Narrows the market data the strategy receives: the run's instruments whose quotes and trades
   * reach `onQuote`, `onTrade`, `ctx.quotes` and `ctx.trades`, e.g. `syms: (p) => [p.sym]`.
   * Default: every instrument of the run. Bars follow `ctx.watchBars` / `ctx.bars` instead.
   * Orders, fills and positions are not narrowed. The kernel calls it once, with the parsed
   * parameters, when it is made; a sym not among the run's instruments is a config error
   * (`keel validate` reports it), and a kernel given one refuses to start.
   */
  readonly syms?: (params: P) => readonly string[];
  /**
   * Reactive style: build and return the stream of intents from `ctx` streams. Called once at
   * start, before `onStart`. Keep it synchronous (no RxJS schedulers, no `interval`): use
   * `ctx.timers()` for time, so backtests stay deterministic.
   */
  readonly setup?: (ctx: StrategyContext<P, S>) => Observable<Intent> | undefined;
}

/** A strategy plugin, ready to give to a kernel. */
export interface StrategyDefinition<P, S> extends StrategySpec<P, S> {
  readonly kind: 'strategy';
}

const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** Every key a strategy spec may have; `satisfies` makes the compiler flag one added to the spec and missed here. */
const SPEC_KEYS: readonly string[] = Object.keys({
  name: true,
  description: true,
  params: true,
  state: true,
  syms: true,
  setup: true,
  onStart: true,
  onQuote: true,
  onTrade: true,
  onBar: true,
  onOrder: true,
  onFill: true,
  onPosition: true,
  onTimer: true,
  onDenied: true,
  onTrailingStop: true,
  onAlgoOrder: true,
  onVenueStatus: true,
  onStop: true,
} satisfies Record<keyof StrategySpec<unknown, unknown>, true>);

/**
 * Declares a strategy plugin. Both styles work, alone or together.
 * @param spec - name, zod parameter schema, optional state factory, hooks and / or `setup`
 * @returns the frozen definition
 * @throws TypeError when the name is not kebab-case (a-z, 0-9, -) of at most 64 characters, or
 *   the spec has a key that is no hook or setting (a misspelled hook, e.g. `onbar` spread in)
 * @example Hook style: buy at the bid once the fast SMA of closes is above the slow one.
 * ```ts
 * import { defineStrategy, sma } from '../core/kernel/index.ts';
 * import { z } from 'zod';
 *
 * export default defineStrategy({
 *   name: 'sma-cross',
 *   params: z.object({ sym: z.string(), fast: z.number().int().default(10), slow: z.number().int().default(30) }),
 *   state: (p) => ({ fast: sma(p.fast), slow: sma(p.slow) }),
 *   onStart: (ctx) => ctx.watchBars(ctx.params.sym, '1m'),
 *   onBar: (ctx, bar) => {
 *     const fast = ctx.state.fast.update(bar.close);
 *     const slow = ctx.state.slow.update(bar.close);
 *     if (fast === undefined || slow === undefined || ctx.openOrders().length > 0) return;
 *     if (fast > slow && ctx.netQty(bar.sym).isZero()) {
 *       return ctx.order.limit({ sym: bar.sym, side: 'BUY', qty: 1, price: bar.close, round: true });
 *     }
 *   },
 *   onDenied: (ctx, denial) => console.warn(`${ctx.id}: ${denial.check}: ${denial.reason}`),
 * });
 * ```
 * @example Reactive style: the same signal as a stream of intents.
 * ```ts
 * export default defineStrategy({
 *   name: 'sma-cross-rx',
 *   params: z.object({ sym: z.string() }),
 *   setup: (ctx) => {
 *     const fast = sma(10);
 *     const slow = sma(30);
 *     return ctx.bars(ctx.params.sym, '1m').pipe(
 *       map((bar) => ({ bar, f: fast.update(bar.close), s: slow.update(bar.close) })),
 *       filter(({ f, s }) => f !== undefined && s !== undefined && f > s),
 *       filter(({ bar }) => ctx.openOrders().length === 0 && ctx.netQty(bar.sym).isZero()),
 *       map(({ bar }) => ctx.order.market({ sym: bar.sym, side: 'BUY', qty: 1 })),
 *     );
 *   },
 * });
 * ```
 */
export function defineStrategy<P, S = undefined>(spec: StrategySpec<P, S>): StrategyDefinition<P, S> {
  if (!NAME.test(spec.name)) {
    throw new TypeError(
      `defineStrategy: name ${JSON.stringify(spec.name)} must be kebab-case (a-z, 0-9, -), at most 64 characters`,
    );
  }
  const unknown = unknownSpecKey(spec, SPEC_KEYS);
  if (unknown !== undefined) throw new TypeError(`defineStrategy ${spec.name}: ${unknown}`);
  return Object.freeze({ ...spec, params: strictParams(spec.params), kind: 'strategy' as const });
}
