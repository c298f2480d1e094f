import type { OpenInterestEvent } from '../../model/index.ts';
import { channelMapper } from './market-data-mapper.ts';
import { readData, readEpochMs, readSize, readSym, type UntrustedPush } from './wire-field-readers.ts';

/** Decodes OPEN_INTEREST pushes (shape Keel's choice, see wire-types.ts) into open-interest events. */
export const openInterestMapper = channelMapper(
  'OPEN_INTEREST',
  (msg: UntrustedPush, recvTs: number): OpenInterestEvent => {
    const sym = readSym(msg, 'OPEN_INTEREST');
    const data = readData(msg, 'OPEN_INTEREST', sym);
    return {
      kind: 'openInterest',
      sym,
      ts: readEpochMs(data, 'ts', 'OPEN_INTEREST', sym),
      recvTs,
      openInterest: readSize(data, 'openInterest', 'OPEN_INTEREST', sym),
    };
  },
);
