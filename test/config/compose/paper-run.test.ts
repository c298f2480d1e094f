import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RecordingWriter } from '../../../backtest/recording/index.ts';
import { embeddedPaperVenues, lockstepPaperConfig } from '../../kit/embedded-paper-runs.ts';
import { signedRest } from '../../kit/paper-venue-client.ts';
import { bboRecord, TEST_HEADER, tempDir } from '../../kit/recording-files.ts';

const start = embeddedPaperVenues();
const dirs: (() => void)[] = [];
afterEach(() => {
  for (const remove of dirs.splice(0)) remove();
});

/** A three-quote recording whose header says `synthetic` as given. */
async function recordingOf(synthetic: boolean): Promise<string> {
  const { dir, remove } = tempDir();
  dirs.push(remove);
  const path = join(dir, `${synthetic ? 'generated' : 'real'}.jsonl`);
  const writer = await RecordingWriter.open(path, { ...TEST_HEADER, synthetic });
  for (let i = 0; i < 3; i++) {
    const r = bboRecord(i);
    writer.append(r.recvTs, r.source, r.msg);
  }
  writer.close();
  return path;
}

const paperOn = (path: string) => `mode: paper
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: mm, use: market-maker }
paper:
  lockstep: true
  source: { kind: recording, path: ${JSON.stringify(path)} }
`;

describe('a paper run fed from a recording', () => {
  it('is SYNTHETIC when the recording header says synthetic: the flag its summary, own recording and report take', async () => {
    const run = await start(paperOn(await recordingOf(true)));
    expect(run.synthetic).toBe(true);
  });

  it('is not labelled synthetic when the recording header says real market data', async () => {
    const run = await start(paperOn(await recordingOf(false)));
    expect(run.synthetic).toBe(false);
  });

  it('says which config and path when the recording cannot be read', async () => {
    await expect(start(paperOn('/nonexistent/keel-session.jsonl'))).rejects.toThrow(
      /paper\.yaml: paper\.source\.path: cannot read the recording \/nonexistent\/keel-session\.jsonl: ENOENT/,
    );
  });
});

describe('a paper run with paper.loans', () => {
  it('lends on the configured terms, and refuses any other asset naming the key that gives terms', async () => {
    const run = await start(
      lockstepPaperConfig(`  loans:
    assets:
      BINANCE:USDT: { hourlyRate: 0.00001, userQuota: 2000, pool: 1500 }
`),
    );
    const borrow = (coin: string, amount: string) =>
      signedRest(run.venue, 'POST', '/api/v1/trading/marginLoan/loan/borrow', {
        exchange: 'BINANCE',
        coin,
        amount,
      });
    expect((await borrow('USDT', '1000')).body.code).toBe(0);
    const pool = await borrow('USDT', '501');
    expect([pool.body.code, pool.body.message]).toEqual([406018, expect.stringContaining('pool 1500 USDT')]);
    const other = await borrow('USDC', '1');
    expect(other.body.code).toBe(406014);
    expect(other.body.message).toContain('paper.loans.assets');
    const terms = await signedRest(run.venue, 'GET', '/api/v1/trading/marginLoan/loan/config');
    // hourly 0.00001 = 0.0876 a year
    expect(terms.body.data).toEqual([
      {
        coin: 'USDT',
        exchange: 'BINANCE',
        leverage: '2',
        maxBorrowQuota: '2000',
        maintenanceMarginRate: '0.05',
        annualInterestRate: '0.0876',
      },
    ]);
  });
});
