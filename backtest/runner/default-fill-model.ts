import type { BarEvent, MarketEvent } from '../../core/model/index.ts';
import type { FillModelName } from '../sim/index.ts';
import {
  barsOnlySyms,
  chosenFillModelWarnings,
  type FillModelAdvice,
  type ReplayedMarkets,
} from './chosen-fill-model-warnings.ts';

/** Events that say nothing about the price an order could get: they do not decide the fill model. */
const INFORMATIONAL = new Set<MarketEvent['kind']>([
  'ticker',
  'indexPrice',
  'openInterest',
  'gap',
  'markPrice',
]);

/**
 * Whether an event is something an order could trade against (a quote, trade or book): the first
 * one decides {@link defaultFillModelFor} for `queue`.
 * @param event - a market event
 * @returns true for a quote, trade or book
 */
export function tradableMarketEvent(event: MarketEvent): boolean {
  return event.kind !== 'bar' && !INFORMATIONAL.has(event.kind);
}

/**
 * The fill model a run gets when none is chosen: `bar` when the recordings' first events hold
 * bars and nothing an order could trade against (no quote, trade or book), else `queue`. The
 * first batch stands for the whole run; {@link defaultFillModelWarnings} says when it did not.
 * @param first - the first events of the replay (its first batch)
 * @returns the fill model's name
 */
export function defaultFillModelFor(first: readonly MarketEvent[]): FillModelName {
  let bars = false;
  for (const event of first) {
    if (event.kind === 'bar') bars = true;
    else if (tradableMarketEvent(event)) return 'queue';
  }
  return bars ? 'bar' : 'queue';
}

/**
 * Warnings about a fill model the run chose by itself that did not fit the data it met: `bar`
 * chosen from bars-only first events on recordings that then held quotes, trades or books
 * (those are matched as bars are: against the next bar), or `queue` on a sym the strategies
 * ordered that had bars only (a resting limit there never fills, a market order takes the last
 * close).
 * @param chosen - the fill model the run defaulted to
 * @param state - the kernel's state after the replay (what each sym had)
 * @param orderedSyms - syms the strategies placed orders on
 * @param setting - the config key that chooses the model (a paper run's is `paper.fillModel`)
 * @returns one sentence per mismatch, empty when the default fit
 */
export function defaultFillModelWarnings(
  chosen: FillModelName,
  state: ReplayedMarkets,
  orderedSyms: ReadonlySet<string>,
  setting = 'backtest.fillModel',
): string[] {
  if (chosen === 'bar') {
    const syms = [...new Set([...state.quotes.keys(), ...state.trades.keys(), ...state.books.keys()])].sort();
    return syms.length === 0
      ? []
      : [
          `the run chose the bar fill model because the recordings began with bars only, but they also hold quotes, trades or books of ${syms.join(', ')}, which the bar model does not match against: set ${setting} (queue, touch or through for them, bar for bars)`,
        ];
  }
  const barsOnly = barsOnlySyms(state, orderedSyms);
  return barsOnly.length === 0
    ? []
    : [
        `the run chose the ${chosen} fill model because the recordings began with quotes or trades, but ${barsOnly.join(', ')} had bars only, which that model does not match resting orders against: set ${setting}: bar`,
      ];
}

/**
 * The warnings about a run's fill model that did not fit its data: {@link defaultFillModelWarnings}
 * when the run chose the model itself, `chosenFillModelWarnings` when its config set it.
 * @param model - the fill model the run matched with
 * @param defaulted - whether the run chose it (the config set none)
 * @param state - the kernel's state after the replay (what each sym had)
 * @param orderedSyms - syms the strategies placed orders on
 * @param setting - the config key that chooses the model (a paper run's is `paper.fillModel`)
 * @returns one sentence per mismatch
 */
export function fillModelWarnings(
  model: FillModelName,
  defaulted: boolean,
  state: ReplayedMarkets,
  orderedSyms: ReadonlySet<string>,
  setting = 'backtest.fillModel',
): string[] {
  return defaulted
    ? defaultFillModelWarnings(model, state, orderedSyms, setting)
    : chosenFillModelWarnings(model, state, orderedSyms, setting);
}

/**
 * Warnings about a fill model set by hand that does not fit the first events of its source, said
 * before anything is matched (a standalone paper venue's `--fill-model`): a quote or trade model
 * (`queue`, `touch`, `through`) on a source whose first events would make a run choose `bar`
 * ({@link defaultFillModelFor}), in the words `chosenFillModelWarnings` gives after a replay,
 * every sym of those bars counted (any client may order it). A source that began with quotes,
 * trades or books says nothing here: what it holds later is known only once it is replayed.
 * @param chosen - the fill model set
 * @param first - the first events of the source, up to its first quote, trade or book
 * @param setting - what chose the model (e.g. `--fill-model`)
 * @param advice - what the sentence advises; default to set the setting to `bar`
 * @returns one sentence, empty when the model fits or the source began with more than bars
 */
export function sourceStartFillModelWarnings(
  chosen: FillModelName,
  first: readonly MarketEvent[],
  setting: string,
  advice?: FillModelAdvice,
): string[] {
  if (chosen === 'bar' || defaultFillModelFor(first) !== 'bar') return [];
  const closedBars = new Map<string, BarEvent>();
  for (const event of first) if (event.kind === 'bar') closedBars.set(event.sym, event);
  const none = new Map<string, never>();
  return chosenFillModelWarnings(
    chosen,
    { quotes: none, trades: none, books: none, closedBars },
    new Set(closedBars.keys()),
    setting,
    advice,
  );
}
