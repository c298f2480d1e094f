import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedMessage } from '../../../../backtest/recording/index.ts';
import { type VenueOptions, venueCommand } from '../../../../config/cli/commands/venue-command.ts';
import { VENUE_START_FILE } from '../../../../config/cli/commands/venue-data-dir.ts';
import { EXIT } from '../../../../config/cli/exit-codes.ts';
import { signedRest } from '../../../kit/paper-venue-client.ts';
import { writeRecording } from '../../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../../kit/temp-dirs.ts';

const aDir = tempDirsRemovedAfterEach('keel-venue-command-setup-');

const MINUTE = 60_000;
const T0 = 1_736_172_000_000;

/** One closed 1m KLINE of BINANCE_PERP_BTC_USDT, as `keel import-csv` writes them. */
function bar(i: number, close: string): RecordedMessage {
  const openTime = T0 + i * MINUTE;
  return {
    recvTs: openTime + MINUTE,
    source: 'market-data',
    msg: {
      arg: { channel: 'KLINE', sym: 'BINANCE_PERP_BTC_USDT', interval: '1m' },
      data: {
        openTime,
        open: close,
        high: close,
        low: close,
        close,
        volume: '1',
        closed: true,
        ts: openTime + MINUTE,
      },
    },
  };
}

/** A bars-only recording of BINANCE_PERP_BTC_USDT (the kind `keel import-csv` writes). */
async function barsRecording(): Promise<string> {
  const path = join(aDir(), 'bars.jsonl');
  await writeRecording(path, [bar(0, '95000.0'), bar(1, '95010.0'), bar(2, '95020.0')]);
  return path;
}

const CREDENTIALS = { apiKey: 'setup-test-key', apiSecret: 'setup-test-secret' };

/**
 * Starts `keel venue` (with fixed credentials), runs `whileUp` once it printed its start lines,
 * then stops it.
 * @returns what it printed, and what `whileUp` returned
 */
async function started<T = undefined>(
  options: Partial<VenueOptions>,
  whileUp: (restUrl: string) => Promise<T> = async () => undefined as T,
): Promise<{ readonly stdout: string; readonly stderr: string; readonly seen: T }> {
  let stdout = '';
  let stderr = '';
  let seen: Promise<T> | undefined;
  const code = await venueCommand(
    { host: '127.0.0.1', port: 0, recording: undefined, seed: 7, speed: 1, ...options },
    {
      stdout: {
        write: (text: string) => {
          stdout += text;
          if (!text.includes('Ctrl-C stops it.')) return;
          const restUrl = /base URL: +(\S+)/.exec(text)?.[1] ?? '';
          seen = whileUp(restUrl).finally(() => process.emit('SIGINT'));
        },
      },
      stderr: { write: (text: string) => (stderr += text) },
    },
    { KEEL_API_KEY: CREDENTIALS.apiKey, KEEL_API_SECRET: CREDENTIALS.apiSecret },
  );
  expect({ code, stderr }).toMatchObject({ code: EXIT.OK });
  return { stdout, stderr, seen: await (seen as Promise<T>) };
}

/**
 * The account's equity and assets as the running venue reports them over REST, asked with a nonce
 * on the venue's clock (its `Date` header): a venue replaying a recording runs on the recording's.
 */
async function accountOf(restUrl: string): Promise<{ equity: string; assets: Record<string, string> }> {
  const endpoint = { restUrl, ...CREDENTIALS };
  const date = (await fetch(`${restUrl}/api/v1/trading/account`)).headers.get('date');
  const nonceSeconds = Math.floor(Date.parse(date ?? '') / 1000);
  const reply = await signedRest(endpoint, 'GET', '/api/v1/trading/account', {}, { nonceSeconds });
  const account = reply.body.data as {
    equity: string;
    assets: { coin: string; balance: string }[];
  };
  return {
    equity: account.equity,
    assets: Object.fromEntries(account.assets.map((a) => [a.coin, a.balance])),
  };
}

// The reviewer's parity run: `keel venue --recording bars.jsonl.gz` matched on the queue model, so
// the take-profit a backtest and a paper run of the same bars filled never fired live.
describe('keel venue fill model', () => {
  it('matches a bars-only recording on the bar model, as a backtest and a paper run do, and says so', async () => {
    const { stdout, stderr } = await started({ recording: await barsRecording() });
    expect(stdout).toContain("  fill model:      bar (market orders at the next bar's open");
    expect(stdout).toContain(
      '(the default for data that begins with bars only, as a backtest and a paper run choose; --fill-model sets it)\n',
    );
    expect(stderr).toBe('');
  }, 30_000);

  it('takes --fill-model with its settings, and warns as a paper run does of a queue model on bars only', async () => {
    const { stdout, stderr } = await started({
      recording: await barsRecording(),
      fillModel: { name: 'queue', slippageTicks: 2 },
    });
    expect(stdout).toContain(
      '  fill model:      queue (partial fills limited by displayed/traded size, market slippage 2 ticks + 1 beyond the book) (--fill-model)\n',
    );
    expect(stderr).toBe(
      '  warning: --fill-model is queue, which matches resting orders against quotes, trades and books, but BINANCE_PERP_BTC_USDT had bars only: a limit there never fills and a market order takes the last close; set --fill-model bar\n',
    );
  }, 30_000);

  // The commit reviewer's run: a bars data dir of a venue started before its setup was kept
  // restarted on queue, said its setup was "kept in the data dir" and advised `--fill-model: bar`,
  // which the restart then refused (the data dir's setup was queue).
  it('restarts a data dir from before setups were kept without calling its setup kept or advising a flag it refuses', async () => {
    const recording = await barsRecording();
    const dataDir = aDir();
    writeFileSync(join(dataDir, VENUE_START_FILE), JSON.stringify({ recording, seed: 7, startTime: T0 }));
    const { stdout, stderr } = await started({ recording, dataDir });
    expect(stdout).not.toContain('kept in the data dir');
    expect(stdout).toContain(
      '  account:         100000 USDT + 100000 USD (the data dir predates kept setups: what every venue had up to 0.2.0)\n',
    );
    expect(stdout).toContain(
      '(the data dir predates kept setups: what every venue had up to 0.2.0)\n  latency:',
    );
    expect(stderr).toBe(
      "  warning: the data dir's fill model is queue, which matches resting orders against quotes, trades and books, but BINANCE_PERP_BTC_USDT had bars only: a limit there never fills and a market order takes the last close; a restart keeps it, so start a new --data-dir with --fill-model bar\n",
    );
  }, 30_000);

  it('keeps queue on synthetic data, which begins with quotes', async () => {
    const { stdout, stderr } = await started({});
    expect(stdout).toContain('  fill model:      queue (partial fills');
    expect(stderr).toBe('');
  }, 30_000);
});

// The reviewer's parity run: the venue's account held 100000 USD besides 100000 USDT, so a Keel
// config of BINANCE_PERP_BTC_USDT sized fraction-of-equity orders on twice a backtest's capital.
describe('keel venue starting balances', () => {
  it("start a recording of USDT instruments with 100000 USDT only, as paper.startingCash's default", async () => {
    const { stdout, seen } = await started({ recording: await barsRecording() }, accountOf);
    expect(seen).toEqual({ equity: '100000', assets: { USDT: '100000' } });
    expect(stdout).toContain(
      "  account:         100000 USDT (the default, paper.startingCash's; --balance sets it)\n",
    );
  }, 30_000);

  // The commit reviewer's parity run: on synthetic data, which holds US_EQUITY_AAPL besides crypto,
  // a plain `keel venue` still held 100000 USD beside 100000 USDT, so a USDT config against it
  // sized on 200000 where a paper run of the same data (paper.startingCash: 100000 USDT) sized on 100000.
  it("start synthetic data, though it holds a US equity, with 100000 USDT only, as paper.startingCash's default", async () => {
    const { stdout, seen } = await started({}, accountOf);
    expect(seen).toEqual({ equity: '100000', assets: { USDT: '100000' } });
    expect(stdout).toContain(
      "  account:         100000 USDT (the default, paper.startingCash's; --balance sets it)\n",
    );
  }, 30_000);

  it('are the --balance given, and only those', async () => {
    const { stdout, seen } = await started({ balance: { USDT: '2500.5', BTC: '1' } }, accountOf);
    expect(seen.assets).toEqual({ USDT: '2500.5', BTC: '1' });
    expect(stdout).toContain('  account:         2500.5 USDT + 1 BTC (--balance)\n');
  }, 30_000);
});

// The commit reviewer's run: `keel venue --balance BNB=10` started, and its equity counted the
// BNB as 0 (no instrument of the venue prices it) without a word.
describe('keel venue --balance of a coin the venue cannot value', () => {
  it('is refused before the venue starts, naming the coin and what the venue values', async () => {
    let stdout = '';
    let stderr = '';
    const code = await venueCommand(
      {
        host: '127.0.0.1',
        port: 0,
        recording: undefined,
        seed: 7,
        speed: 1,
        balance: { USDT: '1', BNB: '10' },
      },
      {
        stdout: {
          write: (text: string) => {
            stdout += text;
            if (text.includes('Ctrl-C stops it.')) process.emit('SIGINT');
          },
        },
        stderr: { write: (text: string) => (stderr += text) },
      },
    );
    expect({ code, stdout, stderr }).toEqual({
      code: EXIT.BAD_CONFIG_OR_USAGE,
      stdout: '',
      stderr:
        '✖ keel venue: --balance names BNB, which the venue cannot value: it values USDT, USDC, USD, BTC, ETH (USDT, USDC and USD at 1, the others at the price of an instrument it lists) and would count anything else as 0 in its equity\n',
    });
  }, 30_000);
});

describe('keel venue --latency', () => {
  it('states the latency given, and none by default', async () => {
    const given = await started({
      latency: { fixedMs: 25, jitterMs: 10, seed: 3, userData: { fixedMs: 5, jitterMs: 0 } },
    });
    expect(given.stdout).toContain(
      '  latency:         order entry 25 ms + U[0, 10) ms, User Data 5 ms, seed 3 (--latency)\n',
    );
    expect((await started({})).stdout).toContain(
      '  latency:         none: commands run at once (the default; --latency sets it)\n',
    );
  }, 30_000);
});

/** Borrows from the running venue, with a nonce on its clock. */
async function borrowOf(restUrl: string, exchange: string, coin: string, amount: string) {
  const date = (await fetch(`${restUrl}/api/v1/trading/account`)).headers.get('date');
  const nonceSeconds = Math.floor(Date.parse(date ?? '') / 1000);
  const reply = await signedRest(
    { restUrl, ...CREDENTIALS },
    'POST',
    '/api/v1/trading/marginLoan/loan/borrow',
    { exchange, coin, amount },
    { nonceSeconds },
  );
  return `${reply.body.code} ${reply.body.message}`;
}

// The reviewer's run: every borrow against `keel venue` was refused with 406014, naming a config
// key (paper.loans.assets) that `keel venue` never reads.
describe('keel venue loans', () => {
  it("lends on Keel's assumed terms by default, says so, and names --loans for an asset without terms", async () => {
    const { stdout, seen } = await started({}, async (restUrl) => [
      await borrowOf(restUrl, 'BINANCE', 'USDT', '100'),
      await borrowOf(restUrl, 'BINANCE', 'DOGE', '1'),
      await borrowOf(restUrl, 'BINANCE', 'USDT', '-1'),
    ]);
    expect(seen[0]).toBe('0 success');
    expect(seen[1]).toMatch(/^406014 .*no loan terms for BINANCE:DOGE; start keel venue with --loans/);
    expect(seen[1]).not.toContain('paper.loans');
    expect(seen[2]).toMatch(/^406015 /);
    expect(stdout).toContain(
      "  loans:           BINANCE:USDT 8 % a year, quota 50000; OKX:USDT 8 % a year, quota 50000; OKX:ETH 3 % a year, quota 20 (Keel's assumed terms, no venue's rates; --loans sets them)\n",
    );
  }, 30_000);

  it('lends on the --loans terms only', async () => {
    const { stdout, seen } = await started(
      { loans: { assets: { 'OKX:USDT': { hourlyRate: '0.00001', userQuota: 500, minBorrow: 10 } } } },
      async (restUrl) => [
        await borrowOf(restUrl, 'BINANCE', 'USDT', '100'),
        await borrowOf(restUrl, 'OKX', 'USDT', '5'),
        await borrowOf(restUrl, 'OKX', 'USDT', '10'),
      ],
    );
    expect(seen.map((line) => line.split(' ')[0])).toEqual(['406014', '406015', '0']);
    expect(stdout).toContain('  loans:           OKX:USDT 8.76 % a year, quota 500, minimum 10 (--loans)\n');
  }, 30_000);
});

// The reviewer's finding: paper verified array signatures with the very code that made them, so a
// client signing symList otherwise than the live venue could never fail on paper.
describe('keel venue --signature-arrays', () => {
  it('verifies with the encoding given, refusing a comma-joined symList with 2000, and says which it uses', async () => {
    const close = async (restUrl: string) => {
      const date = (await fetch(`${restUrl}/api/v1/trading/account`)).headers.get('date');
      const nonceSeconds = Math.floor(Date.parse(date ?? '') / 1000);
      const reply = await signedRest(
        { restUrl, ...CREDENTIALS },
        'DELETE',
        '/api/v1/trading/positions',
        { symList: ['BINANCE_PERP_BTC_USDT'] },
        { nonceSeconds },
      );
      return reply.body.code;
    };
    const json = await started({ signatureArrays: 'json' }, close);
    expect(json.seen).toBe(2000);
    expect(json.stdout).toContain('  signing:         arrays as JSON, ["a","b"] (--signature-arrays)\n');
    const comma = await started({}, close);
    // Past the signature: nothing to close.
    expect(comma.seen).toBe(401097);
    expect(comma.stdout).toContain(
      "  signing:         arrays joined with commas, a,b (Keel's choice, the docs do not say; --signature-arrays sets it)\n",
    );
  }, 30_000);
});

describe('keel venue --no-account-assets', () => {
  it("leaves the assets out of the account reply, as the public notes' account fields do, and says so", async () => {
    const { stdout, seen } = await started({ accountAssets: false }, async (restUrl) => {
      const date = (await fetch(`${restUrl}/api/v1/trading/account`)).headers.get('date');
      const nonceSeconds = Math.floor(Date.parse(date ?? '') / 1000);
      const reply = await signedRest(
        { restUrl, ...CREDENTIALS },
        'GET',
        '/api/v1/trading/account',
        {},
        { nonceSeconds },
      );
      return reply.body.data as Record<string, unknown>;
    });
    expect(seen).not.toHaveProperty('assets');
    expect(seen).toHaveProperty('equity', '100000');
    expect(stdout).toContain('  account reply:   no assets (--no-account-assets');
  }, 30_000);
});
