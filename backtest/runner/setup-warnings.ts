import type { Kernel, StrategySlot } from '../../core/kernel/index.ts';
import { BAR_INTERVAL_MS, type BarInterval, parseSym } from '../../core/model/index.ts';
import { stringsIn } from './strategy-syms.ts';

/** Whether the replayed data held anything of a sym, read from the kernel's state after the run. */
function hasData(kernel: Kernel, sym: string): boolean {
  const s = kernel.state;
  if (s.quotes.has(sym) || s.trades.has(sym) || s.marks.has(sym) || s.books.has(sym)) return true;
  return s.closedBars.has(sym) || barIntervalsOf(kernel, sym).length > 0;
}

/** The bar intervals of a sym the replay delivered, shortest first. */
function barIntervalsOf(kernel: Kernel, sym: string): BarInterval[] {
  const out: BarInterval[] = [];
  for (const key of kernel.state.bars.keys()) {
    const [barSym, interval] = key.split('|') as [string, BarInterval];
    if (barSym === sym) out.push(interval);
  }
  return out.sort((a, b) => BAR_INTERVAL_MS[a] - BAR_INTERVAL_MS[b]);
}

/** Whether a text has the form of a venue sym (`BINANCE_PERP_BTC_USDT`, `US_EQUITY_SPY`). */
function isSym(text: string): boolean {
  try {
    parseSym(text);
    return true;
  } catch {
    return false;
  }
}

/** A strategy as far as {@link unlistedSymWarnings} reads it: its id and its params. */
export interface StrategyParamsEntry {
  readonly id: string;
  readonly params?: unknown;
}

/**
 * Syms a strategy names in its params that are not among the run's instruments: the kernel gives
 * strategies no market data of them and the risk gate denies every order on them
 * (`instrumentKnown`), so such a run neither sees nor trades them whatever the data holds. Only texts of the venue's sym form count (`{EXCHANGE}_{BUSINESS}_{BASE}_{QUOTE}`,
 * `US_EQUITY_{CODE}`). Needs no data: `keel validate` says the same before a run.
 * @param strategies - each strategy's id and params
 * @param syms - the run's instruments
 * @returns one sentence per (strategy, sym), in strategy order
 */
export function unlistedSymWarnings(
  strategies: readonly StrategyParamsEntry[],
  syms: readonly string[],
): string[] {
  const listed = syms.length === 0 ? 'none' : syms.join(', ');
  const warnings: string[] = [];
  for (const strategy of strategies) {
    for (const value of stringsIn(strategy.params, new Set())) {
      if (syms.includes(value) || !isSym(value)) continue;
      warnings.push(
        `strategy ${strategy.id} names ${value} in its params, but it is not one of the run's instruments (${listed}): the strategy receives none of its market data and the risk gate denies every order on it (instrumentKnown); list it under instruments`,
      );
    }
  }
  return warnings;
}

function unlistedWatchWarning(
  strategyId: string,
  sym: string,
  interval: BarInterval,
  syms: readonly string[],
): string {
  const listed = syms.length === 0 ? 'none' : syms.join(', ');
  return `strategy ${strategyId} watched ${sym} ${interval} bars, but ${sym} is not one of the run's instruments (${listed}): strategies receive market data of the run's instruments only; list it under instruments`;
}

/** `held no data for that sym`, or what the source held of it outside the replay window. */
function noDataOf(sym: string, heldOutside: (sym: string) => string | undefined): string {
  return heldOutside(sym) ?? 'held no data for that sym';
}

function watchWarning(
  kernel: Kernel,
  strategyId: string,
  sym: string,
  interval: BarInterval,
  source: string,
  heldOutside: (sym: string) => string | undefined,
): string {
  const head = `strategy ${strategyId} watched ${sym} ${interval} bars, but`;
  if (!hasData(kernel, sym)) return `${head} ${source} ${noDataOf(sym, heldOutside)}`;
  const intervals = barIntervalsOf(kernel, sym);
  const wanted = BAR_INTERVAL_MS[interval];
  const finer = intervals.find((i) => BAR_INTERVAL_MS[i] < wanted && wanted % BAR_INTERVAL_MS[i] === 0);
  if (finer !== undefined)
    return `${head} no such bar closed: the ${finer} bars of ${sym} in ${source} never completed one ${interval} bar`;
  if (kernel.state.trades.has(sym)) return `${head} no such bar closed in ${source}`;
  const held = intervals.length === 0 ? `no ${sym} bars` : `${sym} bars of ${intervals.join(', ')} only`;
  return `${head} no such bar closed: ${source} held ${held} and no trades or finer bars to build ${interval} bars from`;
}

/**
 * Mistakes in a run's setup that would otherwise show only as a run with no trades: a
 * strategy watching bars no data delivered (a sym the recordings lack, an interval they have no
 * bars or trades for, a sym that is not one of the run's instruments), naming in its params an
 * instrument the recordings hold nothing of, or naming a sym that is not one of the run's
 * instruments ({@link unlistedSymWarnings}), acting on quotes or trades only when the data held
 * neither, placing an emulated trailing stop whose price source (trades, marks, quotes) the
 * data never had, or building intents in a hook and never sending them.
 * Read from the kernel's state once the replay is over, so the per-event path pays nothing.
 * @param kernel - the run's kernel, after the replay
 * @param strategies - the run's strategy slots
 * @param syms - the run's instruments
 * @param source - what the market data came from, as the sentences name it (`the feed` for a
 *   paper or live session)
 * @param heldOutside - what the source held of a sym outside the replay window (see
 *   `outsideWindowText`), said instead of "held no data" when it held some there
 * @returns one sentence per mistake, in strategy order
 */
export function setupWarnings(
  kernel: Kernel,
  strategies: readonly StrategySlot[],
  syms: readonly string[],
  source = 'the recordings',
  heldOutside: (sym: string) => string | undefined = () => undefined,
): string[] {
  const watched = kernel.watchedBars();
  const delivered = kernel.state.bars;
  const warnings: string[] = [];
  for (const slot of strategies) {
    const warnedSyms = new Set<string>();
    const named = stringsIn(slot.params, new Set());
    for (const w of watched) {
      if (w.strategyId !== slot.id) continue;
      if (!syms.includes(w.sym)) {
        // A sym named in the params has its own sentence (unlistedSymWarnings).
        if (!named.has(w.sym)) warnings.push(unlistedWatchWarning(slot.id, w.sym, w.interval, syms));
        continue;
      }
      if (delivered.has(`${w.sym}|${w.interval}`)) continue;
      warnings.push(watchWarning(kernel, slot.id, w.sym, w.interval, source, heldOutside));
      warnedSyms.add(w.sym);
    }
    for (const value of named) {
      if (!syms.includes(value) || warnedSyms.has(value) || hasData(kernel, value)) continue;
      warnings.push(
        `strategy ${slot.id} names ${value} in its params, but ${source} ${noDataOf(value, heldOutside)}`,
      );
    }
    warnings.push(...unlistedSymWarnings([slot], syms));
    warnings.push(...unfedHookWarnings(kernel, slot, syms, source));
    warnings.push(...unfedTrailingStopWarnings(kernel, slot.id, source));
    warnings.push(...unsentIntentWarnings(kernel, slot.id));
  }
  return warnings;
}

/**
 * Intents a strategy's hook built with `ctx.order` and neither returned nor gave to `ctx.submit`
 * (the factory only builds: `ctx.order.market(...)` as a statement does nothing), one sentence
 * per hook kind with the counts, not one per event.
 */
function unsentIntentWarnings(kernel: Kernel, strategyId: string): string[] {
  return kernel
    .unsentIntents()
    .filter((unsent) => unsent.strategyId === strategyId)
    .map(
      ({ where, calls, intents }) =>
        `strategy ${strategyId}'s ${where} built ${intents} intent${intents === 1 ? '' : 's'} with ctx.order (in ${calls} call${calls === 1 ? '' : 's'}) that it neither returned nor gave to ctx.submit by the time it returned, so ${intents === 1 ? 'it was' : 'they were'} never sent: ctx.order only builds an intent; return it (or an array of them) or pass it to ctx.submit`,
    );
}

/**
 * A strategy whose only market hooks are `onQuote` / `onTrade` on data holding neither quotes nor
 * trades of any of the run's instruments (e.g. a quoting strategy on bars imported from a CSV):
 * those hooks never ran, and the run ends with no trades and no other sign why. Said of the hooks
 * only: the strategy may still have acted from `onStart` or a timer.
 */
function unfedHookWarnings(
  kernel: Kernel,
  slot: StrategySlot,
  syms: readonly string[],
  source: string,
): string[] {
  const { onQuote, onTrade, onBar } = slot.strategy;
  if (onBar !== undefined || (onQuote === undefined && onTrade === undefined) || syms.length === 0) return [];
  const s = kernel.state;
  const fed = syms.some(
    (sym) => (onQuote !== undefined && s.quotes.has(sym)) || (onTrade !== undefined && s.trades.has(sym)),
  );
  if (fed) return [];
  const hooks = [onQuote === undefined ? [] : ['onQuote'], onTrade === undefined ? [] : ['onTrade']].flat();
  const kinds = [onQuote === undefined ? [] : ['quotes'], onTrade === undefined ? [] : ['trades']].flat();
  const bars = syms.some((sym) => barIntervalsOf(kernel, sym).length > 0 || s.closedBars.has(sym));
  return [
    `strategy ${slot.id}'s market hooks are ${hooks.join(' and ')} only, but ${source} held no ${kinds.join(' or ')} for ${syms.join(', ')}: ${hooks.join(' and ')} never ran${bars ? '; the data holds bars, which a strategy watches with ctx.watchBars and onBar' : ''}`,
  ];
}

/** The price each trigger source of an emulated trailing stop trails, as a sentence names it. */
const TRAILED = { last: 'trades or closed bars', mark: 'mark prices', bidAsk: 'BBO quotes' } as const;

/**
 * Emulated trailing stops that never started trailing because their price source never came
 * (e.g. `triggerOn: mark` on a recording without mark prices): such a stop protects nothing, silently.
 */
function unfedTrailingStopWarnings(kernel: Kernel, strategyId: string, source: string): string[] {
  const s = kernel.state;
  const warnings: string[] = [];
  for (const stop of [...kernel.openTrailingStops(), ...kernel.trailingStopsEndedByStop()]) {
    if (stop.strategyId !== strategyId || stop.status !== 'PENDING') continue;
    const fed =
      stop.triggerOn === 'last'
        ? s.trades.has(stop.sym) || s.closedBars.has(stop.sym)
        : (stop.triggerOn === 'mark' ? s.marks : s.quotes).has(stop.sym);
    if (fed) continue;
    warnings.push(
      `strategy ${strategyId}'s trailing stop ${stop.ref} on ${stop.sym} never started trailing: it trails ${TRAILED[stop.triggerOn]} (triggerOn: ${stop.triggerOn}) and ${source} held none for that sym`,
    );
  }
  return warnings;
}
