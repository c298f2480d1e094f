import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import { keelChild } from '../../kit/keel-child-process.ts';
import { tempDir, writeRecording } from '../../kit/recording-files.ts';

const BUY_ONCE = resolve('test/config/fixtures/buy-once-plugin.ts');
const POST_ONLY_TAKER = resolve('test/config/fixtures/post-only-taker-plugin.ts');
const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 0, 7);
const MIN = 60_000;

const mark = (recvTs: number, markPrice: string): RecordedMessage => ({
  recvTs,
  source: 'market-data',
  msg: { arg: { channel: 'MARK_PRICE', sym: BTC }, data: { markPrice, ts: recvTs - 1 } },
});
const bbo = (recvTs: number, bid: string, ask: string): RecordedMessage => ({
  recvTs,
  source: 'market-data',
  msg: { arg: { channel: 'BBO', sym: BTC }, data: { bid, bidqty: '50', ask, askqty: '50', ts: recvTs } },
});

/** Long 1 BTC at 100000.1 on 5500 USDT; the mark falls to 94000 (below liquidation ~95025). */
function records(): RecordedMessage[] {
  const out: RecordedMessage[] = [mark(T0 + 1, '100000'), bbo(T0 + 1, '99999.9', '100000.1')];
  const marks = ['99000', '97000', '94000', '94000', '94000'];
  for (let minute = 1; minute <= 6; minute++) {
    const at = T0 + minute * MIN;
    const price = marks[minute - 1];
    if (price !== undefined) out.push(mark(at + 1, price));
    for (let s = 0; s < 60; s += 10) out.push(bbo(at + s * 1000 + 5, '93990.0', '93990.2'));
  }
  return out;
}

const paper = (strategy: string) => `mode: paper
instruments: [${BTC}]
strategies:
${strategy}
paper:
  lockstep: true
  speed: 1000000
  source: { kind: recording, path: feed.jsonl.gz }
  fillModel: touch
  startingCash: { USDT: 5500 }
report: { html: out/paper.html, json: out/paper.json }
logging: { level: debug }
`;

describe('what an operator reading only the log learns', () => {
  const { dir, remove } = tempDir();
  let liq: { code: number | null; stdout: string; stderr: string };
  let rej: { code: number | null; stdout: string; stderr: string };
  beforeAll(async () => {
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    await writeRecording(join(dir, 'feed.jsonl.gz'), records());
    writeFileSync(
      join(dir, 'liq.yaml'),
      paper(`  - { id: buy, use: ${BUY_ONCE}, params: { sym: ${BTC}, qty: 1 } }`),
    );
    writeFileSync(
      join(dir, 'rej.yaml'),
      paper(`  - { id: pot, use: ${POST_ONLY_TAKER}, params: { sym: ${BTC}, takers: 2, oversized: true } }`),
    );
    liq = keelChild(['run', 'liq.yaml'], { cwd: dir });
    rej = keelChild(['run', 'rej.yaml'], { cwd: dir });
  }, 120_000);
  afterAll(remove);

  it('logs a liquidation of the account when it happens (the summary reports one)', () => {
    expect(liq.stdout).toContain('LIQUIDATED');
    const lines = liq.stderr.split('\n').filter((l) => /liquidat/i.test(l));
    expect(lines.length, `stderr:\n${liq.stderr}`).toBeGreaterThan(0);
    const records = logRecords(liq.stderr);
    const triggered = records.find((r) => r.msg === 'the venue is liquidating the account');
    expect(triggered).toMatchObject({ level: 50, eventType: 'FULL_LIQUIDATION', syms: [BTC] });
    const order = records.find((r) => r.msg === 'position liquidated by the venue');
    expect(order).toMatchObject({ level: 50, sym: BTC, liquidationEventId: triggered?.liquidationEventId });
    expect(order?.fee).toMatch(/^\d/);
    const finished = records.find((r) => r.msg === 'account liquidation finished');
    expect(finished).toMatchObject({
      level: 50,
      liquidationEventId: triggered?.liquidationEventId,
      orders: 1,
    });
    expect(Object.keys(finished ?? {})).toEqual(
      expect.arrayContaining(['equityBefore', 'equityAfter', 'liquidationFees']),
    );
  });

  it('ends the log with how the session ended', () => {
    const last = logRecords(liq.stderr).at(-1);
    expect(last).toMatchObject({
      msg: 'paper session ended',
      reason: 'ended',
      fills: 2,
      startEquity: '5500',
    });
    expect(last?.result).toMatch(/paper\.json$/);
  });

  it('logs each order the venue rejected, with its clientOrderId, sym and code (the summary reports 3)', () => {
    expect(rej.stdout).toContain('the venue rejected 3 of the 4 orders placed');
    const lines = rej.stderr.split('\n').filter((l) => /reject|refus/i.test(l));
    expect(lines.length, `stderr:\n${rej.stderr}`).toBe(3);
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    // Post-only orders refused as they would take are routine (info), the margin refusal a warning.
    expect(records.map((r) => [r.level, r.code, r.sym])).toEqual([
      [30, '400001', BTC],
      [30, '400001', BTC],
      [40, '401023', BTC],
    ]);
    for (const r of records) expect(r.clientOrderId).toMatch(/^pot-/);
  });
});

/** The JSON records of a child's stderr (pino's lines). */
function logRecords(stderr: string): Record<string, unknown>[] {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
