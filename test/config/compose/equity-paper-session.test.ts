import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConfiguredSession } from '../../../config/compose/session-run.ts';
import { formatSessionSummary } from '../../../config/compose/session-summary.ts';
import { formatConfigProblem, loadConfig } from '../../../config/loader/index.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BUY_ONCE = resolve('test/config/fixtures/buy-once-plugin.ts');
const newDir = tempDirsRemovedAfterEach('keel-equity-paper-');

/** A 2-second lockstep paper session buying `qty` AAPL once at the ask, on the SYNTHETIC feed. */
async function equityPaperSession(qty: number) {
  const dir = newDir();
  const file = join(dir, 'aapl-paper.yaml');
  writeFileSync(
    file,
    `mode: paper
instruments: [US_EQUITY_AAPL]
strategies:
  - { id: buy, use: ${JSON.stringify(BUY_ONCE)}, params: { sym: US_EQUITY_AAPL, qty: ${qty} } }
paper:
  lockstep: true
  durationSec: 2
  source: { kind: synthetic, seed: 1 }
  startingCash: { USD: 100000 }
logging: { level: warn }
report: { json: ${JSON.stringify(join(dir, 'result.json'))}, html: ${JSON.stringify(join(dir, 'report.html'))} }
`,
  );
  const loaded = loadConfig(file);
  if (!loaded.ok) throw new Error(loaded.problems.map(formatConfigProblem).join('\n'));
  const outcome = await runConfiguredSession(loaded, { handleSignals: false });
  if (!outcome.ok) throw new Error(outcome.problems.join('\n'));
  return outcome;
}

describe('a paper session on a US equity', () => {
  it('trades: its PLACE_ORDERs carry the main portfolio as brokerClientId, which the paper venue accepts', async () => {
    const outcome = await equityPaperSession(1);
    expect([...outcome.result.orders].map((o) => `${o.orderState} ${o.reason ?? ''}`.trim())).toEqual([
      'FILLED',
    ]);
    expect([...outcome.fills].map((f) => `${f.side} ${f.quantity.toFixed()} ${f.sym}`)).toEqual([
      'BUY 1 US_EQUITY_AAPL',
    ]);
    expect(outcome.result.meta.warnings ?? []).toEqual([]);
  }, 30_000);

  it('says in its summary and result that the venue rejected every order, with the first reason', async () => {
    // 100 000 shares of a ~$200 stock on $100 000 of cash: the venue refuses it.
    const outcome = await equityPaperSession(100_000);
    expect([...outcome.fills]).toEqual([]);
    const warning = (outcome.result.meta.warnings ?? []).find((w) => w.includes('rejected'));
    expect(warning).toMatch(
      /^the venue rejected every order placed \(1 of 1\), so nothing could fill; the first: US_EQUITY_AAPL BUY \S+: \S/,
    );
    expect(formatSessionSummary(outcome, true)).toContain(`  ⚠ ${warning}\n`);
  }, 30_000);
});
