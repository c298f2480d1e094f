import type { RecordedMessage } from '../../backtest/recording/index.ts';
import type { MarketEvent } from '../../core/model/index.ts';
import { decodeMarketMessage } from '../../core/venue/market-data/index.ts';

/**
 * The runner suites' record decoder for quoting backtests: market-data quotes and trades only (the
 * queue fill model works on them; bars would only be noise there), decode errors passed on.
 * @param record - one recorded message
 * @returns the quote or trade, the decode error, or null for anything else
 */
export function decodeQuotesAndTrades(record: RecordedMessage): MarketEvent | null | Error {
  if (record.source !== 'market-data') return null;
  const event = decodeMarketMessage(record.msg, record.recvTs);
  return event === null || event instanceof Error || event.kind === 'quote' || event.kind === 'trade'
    ? event
    : null;
}
