import type { MarkPriceEvent } from '../../model/index.ts';
import { channelMapper } from './market-data-mapper.ts';
import {
  decimalText,
  readData,
  readDecimal,
  readEpochMs,
  readSym,
  type UntrustedPush,
} from './wire-field-readers.ts';

/**
 * Decodes MARK_PRICE pushes (shape Keel's choice, see wire-types.ts) into mark-price events.
 * indexPrice, fundingRate and nextFundingTime are optional; when present they must be valid.
 */
export const markPriceMapper = channelMapper(
  'MARK_PRICE',
  (msg: UntrustedPush, recvTs: number): MarkPriceEvent => {
    const sym = readSym(msg, 'MARK_PRICE');
    const data = readData(msg, 'MARK_PRICE', sym);
    const event: {
      -readonly [K in keyof MarkPriceEvent]: MarkPriceEvent[K];
    } = {
      kind: 'markPrice',
      sym,
      ts: readEpochMs(data, 'ts', 'MARK_PRICE', sym),
      recvTs,
      markPrice: readDecimal(data, 'markPrice', 'MARK_PRICE', sym),
    };
    if (data.indexPrice !== undefined) {
      event.indexPrice = decimalText(data.indexPrice, 'data.indexPrice', 'MARK_PRICE', sym);
    }
    if (data.fundingRate !== undefined) {
      event.fundingRate = decimalText(data.fundingRate, 'data.fundingRate', 'MARK_PRICE', sym);
    }
    if (data.nextFundingTime !== undefined) {
      event.nextFundingTime = readEpochMs(data, 'nextFundingTime', 'MARK_PRICE', sym);
    }
    return event;
  },
);
