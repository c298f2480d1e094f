import type { StrategyIntent } from '../../model/index.ts';

/**
 * The position closes sent over REST and not answered yet, by sym and strategy. The close request
 * carries no reference, so when two strategies close one sym at once the kernel tells the venue's
 * close order as the first-sent close's only where the venue makes close orders in the order sent
 * (the paper venue, which makes a close's orders before answering it); on a live venue it cannot
 * tell and gives it to neither (`InFlightCloses` in the kernel, which names such orders in the
 * run's warnings): this book lets the client say so in its log as it happens.
 */
export class ConcurrentCloses {
  private readonly sent = new Map<StrategyIntent, readonly string[]>();

  /**
   * Records a command about to be sent; a close of a sym another strategy's unanswered close reaches
   * is reported.
   * @param command - any command (only closes are recorded)
   * @returns the syms and the other strategies closing them, empty when the close is alone or the
   *   command is no close
   */
  sending(command: StrategyIntent): readonly { sym: string; others: readonly string[] }[] {
    const syms = closedSyms(command);
    if (syms.length === 0) return [];
    const clashes: { sym: string; others: string[] }[] = [];
    for (const sym of syms) {
      const others = [...this.sent]
        .filter(([other, theirs]) => other.strategyId !== command.strategyId && theirs.includes(sym))
        .map(([other]) => other.strategyId);
      if (others.length > 0) clashes.push({ sym, others: [...new Set(others)] });
    }
    this.sent.set(command, syms);
    return clashes;
  }

  /**
   * The venue answered the command (or its reply was lost): it is no longer in flight.
   * @param command - the command sent
   */
  answered(command: StrategyIntent): void {
    this.sent.delete(command);
  }
}

function closedSyms(command: StrategyIntent): readonly string[] {
  const intent = command.intent;
  if (intent.kind === 'closePosition') return [intent.sym];
  if (intent.kind === 'closePositions') return intent.symList;
  return [];
}
