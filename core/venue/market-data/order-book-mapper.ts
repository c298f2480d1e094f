import type { BookEvent, BookLevel } from '../../model/index.ts';
import { channelMapper } from './market-data-mapper.ts';
import {
  decimalText,
  readData,
  readEpochMs,
  readSym,
  sizeText,
  type UntrustedPush,
  wrongField,
} from './wire-field-readers.ts';

function readLevels(value: unknown, side: 'bids' | 'asks', sym: string): BookLevel[] {
  if (!Array.isArray(value)) {
    throw wrongField('ORDER_BOOK', sym, `data.${side}`, 'must be an array of [price, size]', value);
  }
  const levels: BookLevel[] = new Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const level: unknown = value[i];
    if (!Array.isArray(level) || level.length < 2) {
      throw wrongField('ORDER_BOOK', sym, `data.${side}[${i}]`, 'must be [price, size]', level);
    }
    levels[i] = [
      decimalText(level[0], `data.${side}[${i}][0]`, 'ORDER_BOOK', sym),
      sizeText(level[1], `data.${side}[${i}][1]`, 'ORDER_BOOK', sym),
    ];
  }
  return levels;
}

/** Decodes ORDER_BOOK snapshot pushes (shape Keel's choice, see wire-types.ts) into book events. */
export const orderBookMapper = channelMapper(
  'ORDER_BOOK',
  (msg: UntrustedPush, recvTs: number): BookEvent => {
    const sym = readSym(msg, 'ORDER_BOOK');
    const data = readData(msg, 'ORDER_BOOK', sym);
    return {
      kind: 'book',
      sym,
      ts: readEpochMs(data, 'ts', 'ORDER_BOOK', sym),
      recvTs,
      bids: readLevels(data.bids, 'bids', sym),
      asks: readLevels(data.asks, 'asks', sym),
    };
  },
);
