import type { IndexPriceEvent } from '../../model/index.ts';
import { channelMapper } from './market-data-mapper.ts';
import { readData, readDecimal, readEpochMs, readSym, type UntrustedPush } from './wire-field-readers.ts';

/** Decodes INDEX_PRICE pushes (shape Keel's choice, see wire-types.ts) into index-price events. */
export const indexPriceMapper = channelMapper(
  'INDEX_PRICE',
  (msg: UntrustedPush, recvTs: number): IndexPriceEvent => {
    const sym = readSym(msg, 'INDEX_PRICE');
    const data = readData(msg, 'INDEX_PRICE', sym);
    return {
      kind: 'indexPrice',
      sym,
      ts: readEpochMs(data, 'ts', 'INDEX_PRICE', sym),
      recvTs,
      indexPrice: readDecimal(data, 'indexPrice', 'INDEX_PRICE', sym),
    };
  },
);
