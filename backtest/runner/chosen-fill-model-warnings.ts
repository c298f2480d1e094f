import type { KernelState } from '../../core/kernel/index.ts';
import type { FillModelName } from '../sim/index.ts';

/**
 * Warnings about a fill model the user set that does not fit the data of a sym the strategies
 * ordered: a quote or trade model (`queue`, `touch`, `through`) on a sym with bars only, or `bar`
 * on a sym with no bars. Either way its orders rest unfilled and the run would otherwise end with
 * no fills and no word why.
 * @param chosen - the fill model the config set
 * @param state - the kernel's state after the replay (what each sym had)
 * @param orderedSyms - syms the strategies placed orders on
 * @param setting - the config key that chose the model (a paper run's is `paper.fillModel`)
 * @returns one sentence per mismatch, empty when the model fit every ordered sym
 */
export function chosenFillModelWarnings(
  chosen: FillModelName,
  state: Pick<KernelState, 'quotes' | 'trades' | 'books' | 'closedBars'>,
  orderedSyms: ReadonlySet<string>,
  setting = 'backtest.fillModel',
): string[] {
  const priced = (sym: string) => state.quotes.has(sym) || state.trades.has(sym) || state.books.has(sym);
  if (chosen === 'bar') {
    const unbarred = [...orderedSyms].filter((sym) => priced(sym) && !state.closedBars.has(sym)).sort();
    return unbarred.length === 0
      ? []
      : [
          `${setting} is bar, which matches orders against bars only, but ${unbarred.join(', ')} had quotes, trades or books and no bars: orders there never fill; set ${setting} to queue, touch or through`,
        ];
  }
  const barsOnly = [...orderedSyms].filter((sym) => state.closedBars.has(sym) && !priced(sym)).sort();
  return barsOnly.length === 0
    ? []
    : [
        `${setting} is ${chosen}, which matches resting orders against quotes, trades and books, but ${barsOnly.join(', ')} had bars only: a limit there never fills and a market order takes the last close; set ${setting}: bar`,
      ];
}
