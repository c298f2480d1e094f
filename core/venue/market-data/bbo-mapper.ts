import type { QuoteEvent } from '../../model/index.ts';
import { channelMapper } from './market-data-mapper.ts';
import {
  readData,
  readDecimal,
  readEpochMs,
  readSize,
  readSym,
  type UntrustedPush,
} from './wire-field-readers.ts';

/** Decodes BBO pushes (shape per public venue docs, `data.ts` Keel's choice) into quote events. */
export const bboMapper = channelMapper('BBO', (msg: UntrustedPush, recvTs: number): QuoteEvent => {
  const sym = readSym(msg, 'BBO');
  const data = readData(msg, 'BBO', sym);
  return {
    kind: 'quote',
    sym,
    ts: readEpochMs(data, 'ts', 'BBO', sym),
    recvTs,
    bid: readDecimal(data, 'bid', 'BBO', sym),
    bidQty: readSize(data, 'bidqty', 'BBO', sym),
    ask: readDecimal(data, 'ask', 'BBO', sym),
    askQty: readSize(data, 'askqty', 'BBO', sym),
  };
});
