import type { TickerEvent } from '../../model/index.ts';
import { channelMapper } from './market-data-mapper.ts';
import {
  decimalText,
  readData,
  readDecimal,
  readEpochMs,
  readSize,
  readSym,
  type UntrustedPush,
} from './wire-field-readers.ts';

/**
 * Decodes TICKER pushes (shape Keel's choice, see wire-types.ts) into ticker events. bid and ask
 * are optional; when present they must be valid.
 */
export const tickerMapper = channelMapper('TICKER', (msg: UntrustedPush, recvTs: number): TickerEvent => {
  const sym = readSym(msg, 'TICKER');
  const data = readData(msg, 'TICKER', sym);
  const event: { -readonly [K in keyof TickerEvent]: TickerEvent[K] } = {
    kind: 'ticker',
    sym,
    ts: readEpochMs(data, 'ts', 'TICKER', sym),
    recvTs,
    last: readDecimal(data, 'last', 'TICKER', sym),
    high24h: readDecimal(data, 'high24h', 'TICKER', sym),
    low24h: readDecimal(data, 'low24h', 'TICKER', sym),
    volume24h: readSize(data, 'volume24h', 'TICKER', sym),
  };
  if (data.bid !== undefined) event.bid = decimalText(data.bid, 'data.bid', 'TICKER', sym);
  if (data.ask !== undefined) event.ask = decimalText(data.ask, 'data.ask', 'TICKER', sym);
  return event;
});
