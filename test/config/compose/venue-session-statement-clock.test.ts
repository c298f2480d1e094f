import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { liveSessionRigs } from '../../kit/live-session-rig.ts';

const BORROW_ONCE = resolve('test/config/fixtures/borrow-once-plugin.ts');
// The venue's feed starts 10 minutes behind the machine and runs at real time: its clock (the time
// of the market events it released) stays 10 minutes behind for the whole session.
const newRig = liveSessionRigs({
  feedBehindMs: 10 * 60_000,
  speed: 1,
  loans: {
    assets: { 'BINANCE:USDT': { annualRate: D('0.08'), userQuota: D(1_000_000), pool: D(1_000_000) } },
  },
});

describe('a live session against a venue whose clock runs behind the machine’s', () => {
  it('reads the statements on the venue’s time: the borrow it made is in its cash flows, with no warning', async () => {
    const rig = await newRig();
    const outcome = await rig.run({
      strategies: `  - { id: loan, use: ${JSON.stringify(BORROW_ONCE)}, params: { exchange: BINANCE, coin: USDT, amount: '50' } }`,
      durationSec: 3,
    });
    const json = JSON.parse(readFileSync(outcome.outputs.json, 'utf8')) as {
      cashFlows?: { kind: string; amount: string; asset: string; ts: number }[];
      meta: { warnings?: string[] };
    };
    expect((json.meta.warnings ?? []).filter((w) => w.includes('statement'))).toEqual([]);
    expect((json.cashFlows ?? []).map((f) => `${f.kind} ${f.amount} ${f.asset}`)).toEqual(['BORROW 50 USDT']);
    expect(json.cashFlows?.[0]?.ts).toBeLessThan(Date.now() - 5 * 60_000);
  }, 60_000);
});
