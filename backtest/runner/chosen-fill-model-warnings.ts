import type { KernelState } from '../../core/kernel/index.ts';
import type { FillModelName } from '../sim/index.ts';

/** What the replay showed of each sym: the kernel's state after it. */
export type ReplayedMarkets = Pick<KernelState, 'quotes' | 'trades' | 'books' | 'closedBars'>;

/**
 * @param state - the kernel's state after the replay
 * @param sym - a sym
 * @returns whether the replay held quotes, trades or books of it (what non-bar models match on)
 */
function isPriced(state: ReplayedMarkets, sym: string): boolean {
  return state.quotes.has(sym) || state.trades.has(sym) || state.books.has(sym);
}

/**
 * @param state - the kernel's state after the replay
 * @param orderedSyms - syms the strategies placed orders on
 * @returns the ordered syms the replay held bars of and nothing else, sorted
 */
export function barsOnlySyms(state: ReplayedMarkets, orderedSyms: ReadonlySet<string>): string[] {
  return [...orderedSyms].filter((sym) => state.closedBars.has(sym) && !isPriced(state, sym)).sort();
}

/**
 * How a fill model warning advises the models that fit: given them (`bar`, or `queue, touch or
 * through`), the advice that ends the sentence.
 */
export type FillModelAdvice = (models: string) => string;

/**
 * The advice to set another model where the setting is: a config key reads
 * `set backtest.fillModel: bar`, a flag `set --fill-model bar`.
 * @param setting - the config key or the flag
 * @returns the advice
 */
function setTheModel(setting: string): FillModelAdvice {
  const separator = setting.startsWith('--') ? ' ' : ': ';
  return (models) => (models === 'bar' ? `set ${setting}${separator}bar` : `set ${setting} to ${models}`);
}

/**
 * Warnings about a fill model the user set that does not fit the data of a sym the strategies
 * ordered: a quote or trade model (`queue`, `touch`, `through`) on a sym with bars only, or `bar`
 * on a sym with no bars. Either way its orders rest unfilled and the run would otherwise end with
 * no fills and no word why.
 * @param chosen - the fill model the config set
 * @param state - the kernel's state after the replay (what each sym had)
 * @param orderedSyms - syms the strategies placed orders on
 * @param setting - the config key that chose the model (a paper run's is `paper.fillModel`), or
 *   the flag (`--fill-model`)
 * @param advice - what the sentence advises; default to set the setting to a model that fits
 * @returns one sentence per mismatch, empty when the model fit every ordered sym
 */
export function chosenFillModelWarnings(
  chosen: FillModelName,
  state: ReplayedMarkets,
  orderedSyms: ReadonlySet<string>,
  setting = 'backtest.fillModel',
  advice: FillModelAdvice = setTheModel(setting),
): string[] {
  if (chosen === 'bar') {
    const unbarred = [...orderedSyms]
      .filter((sym) => isPriced(state, sym) && !state.closedBars.has(sym))
      .sort();
    return unbarred.length === 0
      ? []
      : [
          `${setting} is bar, which matches orders against bars only, but ${unbarred.join(', ')} had quotes, trades or books and no bars: orders there never fill; ${advice('queue, touch or through')}`,
        ];
  }
  const barsOnly = barsOnlySyms(state, orderedSyms);
  return barsOnly.length === 0
    ? []
    : [
        `${setting} is ${chosen}, which matches resting orders against quotes, trades and books, but ${barsOnly.join(', ')} had bars only: a limit there never fills and a market order takes the last close; ${advice('bar')}`,
      ];
}
