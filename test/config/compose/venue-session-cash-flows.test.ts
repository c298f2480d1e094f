import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import { EXIT, runKeel } from '../../../config/cli/index.ts';
import { runConfiguredSession } from '../../../config/compose/session-run.ts';
import { formatSessionSummary } from '../../../config/compose/session-summary.ts';
import { formatConfigProblem, loadConfig } from '../../../config/loader/index.ts';
import { liveSessionRigs, SESSION_SYM } from '../../kit/live-session-rig.ts';
import { barRecord, fundingCase, type ScriptedStep } from '../../kit/perp-cash-flow-runs.ts';
import { writeRecording } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const PLUGIN = resolve('test/config/fixtures/scripted-steps-plugin.ts');
const BUY_ONCE = resolve('test/config/fixtures/buy-once-plugin.ts');
const PERP = 'BINANCE_PERP_TST_USDT';
const newDir = tempDirsRemovedAfterEach('keel-session-cash-flows-');
const newRig = liveSessionRigs();

/** A BBO of the perpetual every 30 s over `minutes`, so market orders fill at 100.01. */
function quotes(t0: number, minutes: number): RecordedMessage[] {
  return Array.from({ length: minutes * 2 }, (_, i) => ({
    recvTs: t0 + 15_000 + i * 30_000,
    source: 'market-data' as const,
    msg: {
      arg: { channel: 'BBO', sym: PERP },
      data: { bid: '99.99', bidqty: '1000', ask: '100.01', askqty: '1000', ts: t0 + 15_000 + i * 30_000 },
    },
  }));
}

/** Runs a lockstep paper session of the scripted plugin on a recording of the records given. */
async function paperSession(records: readonly RecordedMessage[], steps: readonly ScriptedStep[], extra = '') {
  const dir = newDir();
  await writeRecording(
    join(dir, 'feed.jsonl'),
    [...records].sort((a, b) => a.recvTs - b.recvTs),
  );
  const file = join(dir, 'paper.yaml');
  writeFileSync(
    file,
    `mode: paper
instruments:
  - sym: ${PERP}
    overrides: { tickSize: 0.01, lotSize: 1, makerFee: 0.001, takerFee: 0.002 }
strategies:
  - id: s
    use: ${JSON.stringify(PLUGIN)}
    params: { steps: ${JSON.stringify(steps)} }
paper:
  lockstep: true
  speed: 100000
  source: { kind: recording, path: ./feed.jsonl }
  fillModel: touch
  startingCash: { USDT: 10000 }
${extra}logging: { level: error }
metrics: { enabled: false }
report: { json: ${JSON.stringify(join(dir, 'result.json'))}, html: ${JSON.stringify(join(dir, 'report.html'))} }
`,
  );
  const loaded = loadConfig(file);
  if (!loaded.ok) throw new Error(loaded.problems.map(formatConfigProblem).join('\n'));
  const outcome = await runConfiguredSession(loaded, { handleSignals: false, durationSec: 60 });
  if (!outcome.ok) throw new Error(outcome.problems.join('\n'));
  const json = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as {
    cashFlows?: { kind: string; amount: string; asset: string; sym?: string; ts: number }[];
    metrics: { fundingPaid?: string; interestPaid?: string };
    meta: { warnings?: string[] };
  };
  return { outcome, json, html: readFileSync(join(dir, 'report.html'), 'utf8') };
}

describe('a paper session’s funding, interest and loans, from the venue’s statement', () => {
  it('lists the FUNDING_FEE a held perpetual paid, with the hand-computed amounts, in the result, metrics, summary and report', async () => {
    // Long 10 over the 00:05 funding (mark 102, +0.1 %: 10 x 102 x 0.001 = 1.02 paid), short 10
    // over the 00:10 one (mark 104, -0.2 %: the short pays 10 x 104 x 0.002 = 2.08).
    const { records, steps } = fundingCase();
    const t0 = (records[0] as RecordedMessage).recvTs - 30_000;
    const { outcome, json, html } = await paperSession([...records, ...quotes(t0, 12)], steps);
    expect([...outcome.result.fills].map((f) => `${f.side} ${f.quantity.toFixed()}`)).toEqual([
      'BUY 10',
      'SELL 20',
    ]);
    expect(json.cashFlows).toEqual([
      { ts: t0 + 5 * 60_000, kind: 'FUNDING_FEE', asset: 'USDT', amount: '-1.02', sym: PERP },
      { ts: t0 + 10 * 60_000, kind: 'FUNDING_FEE', asset: 'USDT', amount: '-2.08', sym: PERP },
    ]);
    expect(json.metrics.fundingPaid).toBe('3.1');
    expect(json.metrics.interestPaid).toBe('0');
    expect(json.meta.warnings ?? []).toEqual([]);
    expect(html).toContain('Funding Paid');
    expect(formatSessionSummary(outcome, false)).toContain(', funding 3.10 USDT');
  }, 60_000);

  it('records the perpetual’s mark prices, so a backtest of its recording settles the same funding', async () => {
    const { records, steps } = fundingCase();
    const t0 = (records[0] as RecordedMessage).recvTs - 30_000;
    const recording = join(newDir(), 'session.jsonl');
    const { json } = await paperSession(
      [...records, ...quotes(t0, 12)],
      steps,
      `recording: { path: ${recording} }\n`,
    );
    const marks = readFileSync(recording, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"channel":"MARK_PRICE"') && line.includes('"markPrice"'));
    expect(marks).toHaveLength(5);
    expect(marks[1]).toContain('"markPrice":"102","ts":1736121870000,"fundingRate":"0.001"');

    const dir = newDir();
    const config = join(dir, 'replay.yaml');
    writeFileSync(
      config,
      `mode: backtest
name: replay
instruments:
  - sym: ${PERP}
    overrides: { tickSize: 0.01, lotSize: 1, makerFee: 0.001, takerFee: 0.002 }
strategies:
  - { id: s, use: ${JSON.stringify(PLUGIN)}, params: { steps: ${JSON.stringify(steps)} } }
backtest:
  recordings: [${JSON.stringify(recording)}]
  startingCash: { USDT: 10000 }
  fillModel: touch
  latency: { fixedMs: 0, jitterMs: 0 }
  closeAtEnd: false
  eventCache: false
logging: { level: error }
report: { json: ${JSON.stringify(join(dir, 'result.json'))}, html: ${JSON.stringify(join(dir, 'report.html'))} }
`,
    );
    const quiet = { write: () => true };
    expect(await runKeel(['backtest', config], { stdout: quiet, stderr: quiet })).toBe(EXIT.OK);
    const replayed = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as typeof json;
    const funding = (flows: typeof json.cashFlows) =>
      (flows ?? []).filter((f) => f.kind === 'FUNDING_FEE').map((f) => `${f.ts} ${f.amount}`);
    expect(funding(replayed.cashFlows)).toEqual(funding(json.cashFlows));
    expect(funding(replayed.cashFlows)).toEqual([`${t0 + 5 * 60_000} -1.02`, `${t0 + 10 * 60_000} -2.08`]);
  }, 60_000);

  it('lists the DEDUCT_INTEREST of a borrow held over an hour, and the borrow and repay', async () => {
    // 1000 USDT at 8.76 % a year: 1000 x 0.0876 / 8760 = 0.01 for the one whole hour held, and the
    // 400 repaid 5 minutes into the second hour pay that hour (any hour started): 0.004.
    const flat = ['100', '101', '99', '100'];
    const bars = Array.from({ length: 70 }, (_, i) => barRecord(i, flat));
    const t0 = (bars[0] as RecordedMessage).recvTs - 60_000;
    const { outcome, json } = await paperSession(
      bars,
      [
        { bar: 0, borrow: 1000 },
        { bar: 65, repay: 400 },
      ],
      "  loans: { assets: { 'BINANCE:USDT': { annualRate: 0.0876, userQuota: 5000 } } }\n",
    );
    const flows = (json.cashFlows ?? []).map((f) => `${f.kind} ${f.amount} ${f.asset}`);
    expect(flows).toEqual([
      'BORROW 1000 USDT',
      'DEDUCT_INTEREST -0.01 USDT',
      // The hour the repay ends is charged first, at the repay's ms: listed first, as a backtest does.
      'DEDUCT_INTEREST -0.004 USDT',
      'REPAY -400 USDT',
    ]);
    const interest = (json.cashFlows ?? []).find((f) => f.kind === 'DEDUCT_INTEREST');
    // Charged once the hour from the borrow (after bar 0 closed, at t0 + 1 min) had passed.
    expect(interest?.ts).toBeGreaterThanOrEqual(t0 + 61 * 60_000);
    expect(json.metrics.interestPaid).toBe('0.014');
    expect(formatSessionSummary(outcome, false)).toContain(
      '  loans: borrowed 1000.00 USDT, repaid 400.00 USDT, 600.00 USDT owed at the end',
    );
  }, 60_000);
});

describe('a paper session whose loan a liquidation repaid', () => {
  it('lists the liquidation’s REPAY and owes nothing at the end, as a backtest of it says', async () => {
    // Borrow 2000 USDT and buy 100 at about 100; the price falls to 1: the liquidation closes the
    // position and repays the loan from the USDT balance (about 12 000 - 9 900 left).
    const prices = [
      ...Array(4).fill(['100', '101', '99', '100']),
      ...Array(6).fill(['1', '1.01', '0.99', '1']),
    ];
    const bars = prices.map((ohlc, i) => barRecord(i, ohlc));
    const { outcome, json } = await paperSession(
      bars,
      [
        { bar: 0, borrow: 2000 },
        { bar: 1, qty: 100 },
      ],
      "  loans: { assets: { 'BINANCE:USDT': { annualRate: 0.0876, userQuota: 5000 } } }\n",
    );
    expect(outcome.result.liquidations?.length ?? 0).toBeGreaterThan(0);
    const loanFlows = (json.cashFlows ?? [])
      .filter((f) => f.kind === 'BORROW' || f.kind === 'REPAY')
      .map((f) => `${f.kind} ${f.amount}`);
    expect(loanFlows).toEqual(['BORROW 2000', 'REPAY -2000']);
    expect(formatSessionSummary(outcome, false)).toContain(
      '  loans: borrowed 2000.00 USDT, repaid 2000.00 USDT, 0.00 USDT owed at the end',
    );
  }, 60_000);
});

describe('a live session whose statement fetch fails', () => {
  it('still writes its result and report, says the funding and interest are missing, and claims no zero', async () => {
    const rig = await newRig();
    // More failures than the REST client's retries: every attempt at the trading statement fails.
    for (let i = 0; i < 20; i++)
      rig.venue.faults.failNextRest({ kind: 'status', status: 503, path: '/api/v1/trading/statement' });
    const outcome = await rig.run({
      strategies: `  - { id: buy, use: ${JSON.stringify(BUY_ONCE)}, params: { sym: ${SESSION_SYM}, qty: 0.01 } }`,
      durationSec: 1.5,
    });
    expect(outcome.exitCode).toBe(0);
    const json = JSON.parse(readFileSync(outcome.outputs.json, 'utf8')) as {
      cashFlows?: unknown[];
      fills: unknown[];
      metrics: { fundingPaid?: string };
      meta: { warnings?: string[] };
    };
    expect(json.fills).toHaveLength(1);
    expect(json.cashFlows).toBeUndefined();
    expect(json.metrics.fundingPaid).toBeUndefined();
    const warning = (json.meta.warnings ?? []).find((w) => w.includes('trading statement'));
    expect(warning).toMatch(
      /^The venue's trading statement could not be fetched \(.+\): funding and interest paid are left out of this result/,
    );
    expect(formatSessionSummary(outcome, false)).toContain(`  ⚠ ${warning}`);
    expect(readFileSync(outcome.outputs.html, 'utf8')).not.toContain('Funding Paid');
  }, 60_000);
});
