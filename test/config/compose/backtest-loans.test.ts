import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runConfiguredBacktest } from '../../../config/compose/backtest-run.ts';
import { configLoanAdvice, loanOptionsOf } from '../../../config/compose/sim-models.ts';
import { strategySlots } from '../../../config/compose/strategy-plugins.ts';
import { formatConfigProblem, loadConfig } from '../../../config/loader/index.ts';

const HOUR = 3_600_000;
const T0 = Date.UTC(2025, 0, 6);
const SYM = 'BINANCE_PERP_TST_USDT';
const dir = mkdtempSync(join(tmpdir(), 'keel-loans-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A recording of one quote every half hour for 3.5 hours, the price never moving. */
function writeRecording(): string {
  const header = {
    format: 'keel-session',
    formatVersion: 1,
    venue: 'test',
    symbols: [SYM],
    startTime: T0,
    synthetic: false,
  };
  const quotes = Array.from({ length: 8 }, (_, i) => {
    const ts = T0 + i * (HOUR / 2) + 1;
    const data = { bid: '99.9', bidqty: '5', ask: '100', askqty: '5', ts };
    return { recvTs: ts, source: 'market-data', msg: { arg: { channel: 'BBO', sym: SYM }, data } };
  });
  const file = join(dir, 'rec.jsonl');
  writeFileSync(file, `${[header, ...quotes].map((line) => JSON.stringify(line)).join('\n')}\n`);
  return file;
}

function writeConfig(name: string, loans: string): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    `mode: backtest
instruments:
  - sym: ${SYM}
    overrides: { tickSize: 0.1, lotSize: 1, makerFee: 0, takerFee: 0 }
strategies:
  - id: b
    use: ${resolve('test/config/fixtures/borrow-once-plugin.ts')}
    params: { exchange: BINANCE, coin: USDT, amount: "1000" }
backtest:
  recordings: [${writeRecording()}]
  startingCash: { USDT: 10000 }
  latency: { fixedMs: 0, jitterMs: 0 }
  eventCache: false
${loans}`,
  );
  return file;
}

async function run(file: string) {
  const loaded = loadConfig(file);
  if (!loaded.ok) throw new Error(loaded.problems.map(formatConfigProblem).join('\n'));
  const slots = await strategySlots(loaded);
  if (!slots.ok) throw new Error(slots.problems.map(formatConfigProblem).join('\n'));
  return runConfiguredBacktest(loaded, { slots: slots.slots });
}

describe('backtest loans from YAML', () => {
  it('lends on the terms of backtest.loans and charges the hourly interest by hand', async () => {
    const file = writeConfig(
      'hourly',
      `  loans:
    assets:
      BINANCE:USDT: { hourlyRate: 0.0001, userQuota: 5000 }
`,
    );
    const result = await run(file);
    try {
      // Borrowed 1000 at the first quote (T0 + 1 ms, no latency); the last quote comes 3.5 h
      // later: 3 whole hours x 1000 x 0.0001 = 0.3 of interest (the half hour is not charged),
      // net equity 10000 - 0.3.
      expect(result.metrics.equityFinal.toFixed()).toBe('9999.7');
    } finally {
      result.dispose?.();
    }
  });

  it('lends nothing without backtest.loans, and warns that the borrow was refused and which key gives terms', async () => {
    const result = await run(writeConfig('none', ''));
    try {
      expect(result.metrics.equityFinal.toFixed()).toBe('10000');
      expect(result.meta.warnings).toEqual([
        expect.stringMatching(
          /^the venue refused 1 borrow or repay command; the first: borrow b-\d+: 406014 .*no loan terms for BINANCE:USDT; give them in the config under backtest\.loans\.assets/,
        ),
      ]);
    } finally {
      result.dispose?.();
    }
  });

  it('lets the loan-carry example borrow on the example session: no borrow is refused', async () => {
    const result = await run('config/examples/loan-carry-backtest.yaml');
    try {
      expect((result.meta.warnings ?? []).filter((w) => w.includes('borrow or repay'))).toEqual([]);
      expect(result.orders.length).toBeGreaterThan(0);
    } finally {
      result.dispose?.();
    }
  }, 60_000);

  it('names the YAML path of bad loan terms', () => {
    const file = writeConfig(
      'bad',
      `  loans:
    assets:
      BINANCE:USDT: { annualRate: 0.08, hourlyRate: 0.0001, userQuota: 5000 }
      OKX:USDT: { annualRate: 1.5, userQuota: -1 }
      usdt: { annualRate: 0.08, userQuota: 100 }
    maxBorrowLtv: 0.4
`,
    );
    const loaded = loadConfig(file);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    const lines = loaded.problems.map(formatConfigProblem).map((line) => line.replace(/ \(.*\)$/, ''));
    expect(lines).toEqual([
      '✖ BINANCE:USDT.hourlyRate needs exactly one of annualRate or hourlyRate → at backtest.loans.assets.BINANCE:USDT.hourlyRate',
      '✖ OKX:USDT.annualRate must be at least 0 and below 1, e.g. 0.08 for 8 % → at backtest.loans.assets.OKX:USDT.annualRate',
      '✖ OKX:USDT.userQuota must be positive → at backtest.loans.assets.OKX:USDT.userQuota',
      '✖ assets.usdt is not a valid key: it must be EXCHANGE:COIN in upper case, e.g. BINANCE:USDT → at backtest.loans.assets.usdt',
    ]);
    // A lower maxBorrowLtv alone is valid: the warning level follows it (0.9 x 0.4).
    const lower = loadConfig(
      writeConfig(
        'lower',
        '  loans: { assets: { BINANCE:USDT: { annualRate: 0.08, userQuota: 1 } }, maxBorrowLtv: 0.4 }\n',
      ),
    );
    expect(
      lower.ok &&
        loanOptionsOf(
          lower.config.backtest?.loans,
          configLoanAdvice('backtest.loans'),
        ).ltvWarningLevel?.toFixed(),
    ).toBe('0.36');
    const ltv = loadConfig(
      writeConfig(
        'ltv',
        '  loans: { assets: { BINANCE:USDT: { annualRate: 0.08, userQuota: 1 } }, maxBorrowLtv: 0.4, ltvWarningLevel: 0.45 }\n',
      ),
    );
    expect(
      ltv.ok ? [] : ltv.problems.map(formatConfigProblem).map((line) => line.replace(/ \(.*\)$/, '')),
    ).toEqual([
      '✖ loans.ltvWarningLevel is 0.45, above maxBorrowLtv 0.4: it must not be higher → at backtest.loans.ltvWarningLevel',
    ]);
  });
});
