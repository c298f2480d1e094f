import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { importOhlcvCsv } from '../../../backtest/csv/index.ts';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const AAPL = 'US_EQUITY_AAPL';
const MSFT = 'US_EQUITY_MSFT';
const aTempDir = tempDirsRemovedAfterAll('keel-endfix-day-');
const CSV = [
  'Date,Open,High,Low,Close,Volume',
  '2026-03-03,190,192,188,191,1000000',
  '2026-03-04,191,193,189,192,1000000',
  '2026-03-05,192,194,190,193,1000000',
].join('\n');

async function recordingOf(dir: string, sym: string): Promise<string> {
  await writeFile(join(dir, `${sym}.csv`), `${CSV}\n`);
  await importOhlcvCsv({
    input: join(dir, `${sym}.csv`),
    output: join(dir, `${sym}.jsonl`),
    sym,
    zone: 'America/New_York',
  });
  return join(dir, `${sym}.jsonl`);
}

/** On Tuesday's MSFT bar places a DAY limit buy at 189.5, which Wednesday's bar (low 189) crosses. */
const dayBuyer = defineStrategy({
  name: 'day-buyer',
  params: z.object({}),
  state: () => ({ placed: false }),
  onStart: (ctx) => {
    ctx.watchBars(AAPL, '1d');
    ctx.watchBars(MSFT, '1d');
  },
  onBar: (ctx, bar) => {
    if (ctx.state.placed || bar.sym !== MSFT) return undefined;
    ctx.state.placed = true;
    return ctx.order.limit({ sym: MSFT, side: 'BUY', qty: 10, price: 189.5, ref: 'day', timeInForce: 'DAY' });
  },
});

async function run(syms: string[]): Promise<string[]> {
  const dir = aTempDir();
  const recordings = [];
  for (const sym of syms) recordings.push(await recordingOf(dir, sym));
  const spec = { tickSize: D('0.01'), lotSize: D('1'), minSize: D('1'), settleAsset: 'USD' };
  const result = await runBacktest({
    recordings,
    decode: decodeMarketRecord,
    instruments: syms.map((s) => anInstrument(s, spec)),
    strategies: [{ id: 's', strategy: dayBuyer }],
    gate: new RiskGate(),
    startingCash: D(100_000),
    closeAtEnd: false,
  });
  const orders = [...result.orders].map((o) => `${o.clientOrderId} ${o.orderState} ${o.action}`);
  result.dispose?.();
  return orders;
}

describe('a DAY order inside a daily bar, another sym in the run', () => {
  it('fills on its own bar when MSFT is the only sym', async () => {
    expect(await run([MSFT])).toEqual(['day FILLED FILL']);
  });
  it('fills the same when AAPL daily bars are in the run too', async () => {
    expect(await run([AAPL, MSFT])).toEqual(['day FILLED FILL']);
  });
  it('fills the same when the AAPL recording is listed after MSFT', async () => {
    expect(await run([MSFT, AAPL])).toEqual(['day FILLED FILL']);
  });
});
