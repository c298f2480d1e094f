import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConfiguredBacktest } from '../../../config/compose/backtest-run.ts';
import { strategySlots } from '../../../config/compose/strategy-plugins.ts';
import { formatConfigProblem, loadValidConfig } from '../../../config/loader/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'keel-fee-model-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PLUGIN = resolve('test/config/fixtures/buy-once-plugin.ts');
const SESSION = resolve('backtest/sessions/example-synthetic.jsonl.gz');

async function feeModelOf(fees: string, portfolio = '') {
  const file = join(dir, `c${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(
    file,
    `mode: backtest
instruments: [BINANCE_PERP_BTC_USDT]
portfolios:
  subs: [{ id: sub1, feeMarkupBps: 0 }]
strategies:
  - id: plugin
    use: ${PLUGIN}
    params: { sym: BINANCE_PERP_BTC_USDT, qty: 0.01 }
${portfolio}
backtest:
  recordings: [${SESSION}]
  startingCash: { USDT: 100000 }
  fees: ${fees}
`,
  );
  const loaded = loadValidConfig(file);
  const slots = await strategySlots(loaded);
  if (!slots.ok) throw new Error(slots.problems.map(formatConfigProblem).join('\n'));
  const result = await runConfiguredBacktest(loaded, { slots: slots.slots });
  result.dispose?.();
  return result.meta.feeModel;
}

describe('the fee model a configured backtest reports', () => {
  it("names the instruments' own schedules, and flat rates as the config's, not as the instruments'", async () => {
    const own = await feeModelOf('{ model: instrument }');
    expect(own.name).toBe('maker-taker');
    expect(own.description).toMatch(
      /^Per-instrument fees paid in the quote asset\. BINANCE_PERP_BTC_USDT: maker/,
    );
    const flat = await feeModelOf('{ model: flat, makerBps: 1, takerBps: 2.5 }');
    expect(flat.name).toBe('flat maker-taker');
    expect(flat.description).toBe(
      'Flat maker/taker rates for every instrument paid in the quote asset. BINANCE_PERP_BTC_USDT: maker 1 bps, taker 2.5 bps.',
    );
  });

  it('names the sub-portfolio the run trades in, with its markup even when that is zero', async () => {
    const flat = await feeModelOf('{ model: flat, makerBps: 1, takerBps: 2.5 }', '    portfolio: sub1');
    expect(flat.description).toBe(
      'Flat maker/taker rates for every instrument paid in the quote asset. BINANCE_PERP_BTC_USDT: maker 1 bps, taker 2.5 bps. Sub-portfolio markup 0 bps (of sub1, the portfolio the run trades in) on every rate, on top of any instrument markup.',
    );
  });
});
