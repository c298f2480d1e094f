import type { Kernel } from '../../core/kernel/index.ts';

/**
 * Warnings for trades or feed bars left out of the bars. Late ones arrived after
 * the bar they belong to had closed (another event of a later time ended its period first): the
 * strategies already had that bar, so its OHLCV lacks them. A feed whose trades trail its other
 * channels shows here. Overlapping ones are finer bars of another interval than the bar was built
 * from that began inside those and ran past them (the feed switched interval part-way through one
 * of them): the bar lacks what they held after the finer bars it was built from. Repeated ones
 * were of a period the feed had given already (not delivered or folded twice); off-grid ones
 * reached past the end of the coarser bar they began in, or were the feed's bars of the interval
 * off its grid, overlapping a bar built before; stopped ones were trades passed over after the
 * finer klines a bar was built from stopped, until it went back to trades.
 * @param kernel - the run's kernel, after the replay
 * @param source - what the market data came from, as the sentences name it (`the feed` for a
 *   paper or live session)
 * @returns one sentence per (sym, interval) and reason that left any out
 */
export function lateBarInputWarnings(kernel: Kernel, source = 'the recordings'): string[] {
  return kernel.lateBarInputs().map((late) => {
    const one = late.count === 1;
    const what =
      late.from === 'trade'
        ? `${one ? '1 trade' : `${late.count} trades`} of ${late.sym}`
        : `${late.count} ${late.from} bar${one ? '' : 's'} of ${late.sym}`;
    const first = new Date(late.firstTs).toISOString();
    if (late.reason === 'repeat') {
      const into =
        late.from === late.interval
          ? `delivered to the ${late.interval} watchers`
          : `folded into the ${late.interval} bars`;
      return `${what} in ${source} repeated ${one ? 'a bar' : 'bars'} of a period the feed had already given (the same kline twice, as from overlapping history files, or out of order; the first stamped ${first}) and ${one ? 'was' : 'were'} not ${into} again, so no period counts twice`;
    }
    if (late.reason === 'offGrid' && late.from === late.interval) {
      return `${what} in ${source} opened off the UTC grid of ${late.interval} bars (as 1h klines on the half hour; the first stamped ${first}) and overlapped ${one ? 'a bar' : 'bars'} Keel had built and delivered before the feed's bars began, so ${one ? 'it was' : 'they were'} not delivered: no two ${late.interval} bars overlap, and while the feed's bars come Keel builds none overlapping them`;
    }
    if (late.reason === 'stopped') {
      return `${what} in ${source} came after the finer klines the ${late.interval} bars were built from stopped (the first stamped ${first}) and ${one ? 'was' : 'were'} left out until the bars went back to trades, a whole kline interval after the missing kline was due: the first ${late.interval} bar built of trades after that is flagged partial`;
    }
    if (late.reason === 'offGrid') {
      return `${what} in ${source} reached past the end of the ${late.interval} bar ${one ? 'it begins' : 'they begin'} in (klines off the UTC grid, as 1h bars opening on the half hour; the first stamped ${first}) and ${one ? 'was' : 'were'} left out of the ${late.interval} bars so that no bar holds market after its end: those bars lack ${one ? 'it' : 'them'} (watch an interval whose bars the klines' opens fit)`;
    }
    if (late.reason === 'overlap') {
      return `${what} in ${source} began inside the finer bars the ${late.interval} bar ${one ? 'it belongs' : 'they belong'} to was being built from and ran past them (the first stamped ${first}), and ${one ? 'was' : 'were'} left out of the ${late.interval} bars so as not to count that part twice: the feed switched interval part-way through ${one ? 'it' : 'them'}, so the OHLCV of ${one ? 'that bar lacks what it' : 'those bars lacks what they'} held after the finer bars`;
    }
    return `${what} in ${source} arrived after the ${late.interval} bar ${one ? 'it belongs' : 'they belong'} to had closed (the first stamped ${first}) and ${one ? 'was' : 'were'} left out of the ${late.interval} bars: strategies had already seen that bar, so its OHLCV lacks ${one ? 'it' : 'them'}`;
  });
}
