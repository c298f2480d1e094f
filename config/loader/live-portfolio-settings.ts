import type { LoadedConfig } from './load-config.ts';
import type { YamlPath } from './yaml-path.ts';

/**
 * The portfolio settings a live config writes that a live run ignores: it trades the account of
 * its API key (`venue.apiKey`: the key belongs to one portfolio, main or sub) and pays what the
 * venue charges, so `strategies[].portfolio` and the `feeMarkupBps` of `portfolios.subs` (read by
 * backtests and paper runs only) neither pick an account nor change a fee. `portfolios.main`
 * still applies (the default `venue.brokerClientId`).
 * @param loaded - a validated config
 * @returns one sentence per ignored setting written in the file or by `--set`, with where; none
 *   outside mode live
 */
export function livePortfolioWarnings(loaded: LoadedConfig): string[] {
  if (loaded.config.mode !== 'live') return [];
  const paths: YamlPath[] = loaded.config.strategies.map((_, index) => ['strategies', index, 'portfolio']);
  paths.push(['portfolios', 'subs']);
  return paths.flatMap((path) => {
    const written = loaded.source.lookup(path).node !== undefined;
    const where = written ? loaded.source.where(path, 'key').where : loaded.source.overrideUnder(path);
    if (where === undefined) return [];
    const what = path[0] === 'portfolios' ? 'portfolios.subs' : `strategies[${path[1]}].portfolio`;
    return [
      `${what} is ignored in mode live: a live run trades the portfolio of its API key (venue.apiKey) and pays the fees the venue charges (${where})`,
    ];
  });
}
