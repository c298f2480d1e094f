import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { decodeSessionRecord } from '../../../config/session-decoder.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { TEST_HEADER, tempDir, writeRecording } from '../../kit/recording-files.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const T0 = TEST_HEADER.startTime;
const temp = tempDir();
afterAll(() => temp.remove());

describe('a backtest over a market recording plus a Keel recording of User Data only', () => {
  it('is not refused for a private frame of a channel Keel does not know: User Data is not replayed', async () => {
    const market = join(temp.dir, 'market.jsonl');
    const priv = join(temp.dir, 'private.jsonl');
    const trades: RecordedMessage[] = [1, 2, 3].map((s) => ({
      recvTs: T0 + s * 1000,
      source: 'market-data',
      msg: {
        arg: { channel: 'TRADE', sym: SYM },
        data: { tradeId: `t${s}`, price: '100', qty: '1', side: 'BUY', ts: T0 + s * 1000 },
      },
    }));
    await writeRecording(market, trades);
    await writeRecording(priv, [
      { recvTs: T0 + 500, source: 'private', msg: 'pong' },
      { recvTs: T0 + 600, source: 'private', msg: { event: 'login', code: 0, id: '1' } },
      { recvTs: T0 + 700, source: 'private', msg: { channel: 'notice', data: [{ text: 'maintenance' }] } },
    ]);
    const idle = defineStrategy({ name: 'idle', params: z.object({}).strict() });
    const run = runBacktest({
      recordings: [market, priv],
      decode: decodeSessionRecord,
      instruments: [anInstrument(SYM)],
      strategies: [{ id: 'i', strategy: idle, params: {} }],
      gate: new RiskGate(),
      startingCash: D(10_000),
      closeAtEnd: false,
      onRecordingDamage: () => undefined,
    });
    await expect(run).resolves.toBeDefined();
  });
});
