import { BAR_INTERVAL_MS, type BarEvent, type BarInterval } from '../../model/index.ts';
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

/** Decodes KLINE pushes (shape Keel's choice, see wire-types.ts) into bar events. */
export const klineMapper = channelMapper('KLINE', (msg: UntrustedPush, recvTs: number): BarEvent => {
  const sym = readSym(msg, 'KLINE');
  const interval = msg.arg.interval;
  if (typeof interval !== 'string' || !Object.hasOwn(BAR_INTERVAL_MS, interval)) {
    throw wrongField(
      'KLINE',
      sym,
      'arg.interval',
      `must be one of ${Object.keys(BAR_INTERVAL_MS).join(', ')}`,
      interval,
    );
  }
  const data = readData(msg, 'KLINE', sym);
  const closed = data.closed;
  if (typeof closed !== 'boolean') {
    throw wrongField('KLINE', sym, 'data.closed', 'must be true or false', closed);
  }
  return {
    kind: 'bar',
    sym,
    ts: readEpochMs(data, 'ts', 'KLINE', sym),
    recvTs,
    interval: interval as BarInterval,
    openTime: readEpochMs(data, 'openTime', 'KLINE', sym),
    open: readDecimal(data, 'open', 'KLINE', sym),
    high: readDecimal(data, 'high', 'KLINE', sym),
    low: readDecimal(data, 'low', 'KLINE', sym),
    close: readDecimal(data, 'close', 'KLINE', sym),
    volume: readSize(data, 'volume', 'KLINE', sym),
    closed,
  };
});
