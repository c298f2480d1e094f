import type { Kernel } from '../../core/kernel/index.ts';

/**
 * Warnings for trades or finer feed bars that arrived after the aggregated bar they belong to had
 * closed (another event of a later time ended its period first) and were left out of the bars: the
 * strategies already had that bar, so its OHLCV lacks them. A feed whose trades trail its other
 * channels shows here.
 * @param kernel - the run's kernel, after the replay
 * @param source - what the market data came from, as the sentences name it (`the feed` for a
 *   paper or live session)
 * @returns one sentence per (sym, interval) that left any out
 */
export function lateBarInputWarnings(kernel: Kernel, source = 'the recordings'): string[] {
  return kernel.lateBarInputs().map((late) => {
    const what =
      late.from === 'trade'
        ? `${late.count === 1 ? '1 trade' : `${late.count} trades`} of ${late.sym}`
        : `${late.count} ${late.from} bar${late.count === 1 ? '' : 's'} of ${late.sym}`;
    return `${what} in ${source} arrived after the ${late.interval} bar ${late.count === 1 ? 'it belongs' : 'they belong'} to had closed (the first stamped ${new Date(late.firstTs).toISOString()}) and ${late.count === 1 ? 'was' : 'were'} left out of the ${late.interval} bars: strategies had already seen that bar, so its OHLCV lacks ${late.count === 1 ? 'it' : 'them'}`;
  });
}
