import type { MarketTradeEvent } from '../../model/index.ts';
import { channelMapper } from './market-data-mapper.ts';
import {
  readData,
  readDecimal,
  readEpochMs,
  readSize,
  readSym,
  type UntrustedPush,
  wrongField,
} from './wire-field-readers.ts';

/** Decodes TRADE pushes (shape Keel's choice, see wire-types.ts) into market trade events. */
export const tradeMapper = channelMapper('TRADE', (msg: UntrustedPush, recvTs: number): MarketTradeEvent => {
  const sym = readSym(msg, 'TRADE');
  const data = readData(msg, 'TRADE', sym);
  const tradeId = data.tradeId;
  if (typeof tradeId !== 'string' || tradeId.length === 0) {
    throw wrongField('TRADE', sym, 'data.tradeId', 'must be a string', tradeId);
  }
  const side = data.side;
  if (side !== 'BUY' && side !== 'SELL') {
    throw wrongField('TRADE', sym, 'data.side', 'must be BUY or SELL', side);
  }
  return {
    kind: 'trade',
    sym,
    ts: readEpochMs(data, 'ts', 'TRADE', sym),
    recvTs,
    tradeId,
    price: readDecimal(data, 'price', 'TRADE', sym),
    qty: readSize(data, 'qty', 'TRADE', sym),
    side,
  };
});
