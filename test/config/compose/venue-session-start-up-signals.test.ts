import { readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runConfiguredSession } from '../../../config/compose/session-run.ts';
import { StartUpInterrupted } from '../../../config/compose/start-up-signals.ts';
import { formatConfigProblem, loadConfig } from '../../../config/loader/index.ts';
import { flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BUY_ONCE = resolve('test/config/fixtures/buy-once-plugin.ts');
const SIGNAL_ON_START = resolve('test/config/fixtures/signal-on-start-plugin.ts');
const PERP = 'BINANCE_PERP_TST_USDT';
const newDir = tempDirsRemovedAfterEach('keel-start-up-signals-');
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
const signalListeners = () => SIGNALS.flatMap((signal) => process.listeners(signal));

// A session that leaves its handlers behind must not leave them to the other test files.
let before: ReturnType<typeof signalListeners> = [];
afterEach(() => {
  for (const signal of SIGNALS)
    for (const listener of process.listeners(signal))
      if (!before.includes(listener)) process.off(signal, listener);
});

/** A paper session config on a flat recording at 100, one strategy, cancelling its orders at stop. */
async function paperConfig(dir: string, strategy: string) {
  const recording = await flatBarsRecordingIn(dir, 5, Date.UTC(2025, 0, 6), PERP);
  const file = join(dir, 'paper.yaml');
  writeFileSync(
    file,
    `mode: paper
instruments:
  - sym: ${PERP}
    overrides: { tickSize: 0.01, lotSize: 1 }
strategies:
  - ${strategy}
paper:
  speed: 1
  source: { kind: recording, path: ${JSON.stringify(recording)} }
  startingCash: { USDT: 10000 }
shutdown: { cancelAllOrders: true }
logging: { level: silent }
metrics: { enabled: false }
report: { json: ${JSON.stringify(join(dir, 'result.json'))}, html: ${JSON.stringify(join(dir, 'report.html'))} }
`,
  );
  const loaded = loadConfig(file);
  if (!loaded.ok) throw new Error(loaded.problems.map(formatConfigProblem).join('\n'));
  return loaded;
}

describe('a signal while a session starts', () => {
  it('before the strategies start: stops the start-up, closes what it opened and frees the run lock', async () => {
    const dir = newDir();
    const loaded = await paperConfig(
      dir,
      `{ id: s, use: ${JSON.stringify(BUY_ONCE)}, params: { sym: ${PERP}, qty: 1 } }`,
    );
    before = signalListeners();
    const running = runConfiguredSession(loaded, { durationSec: 60 });
    // The signal comes as soon as the session listens for one.
    const listening = process.listenerCount('SIGTERM');
    while (process.listenerCount('SIGTERM') === listening) await new Promise((r) => setTimeout(r, 1));
    process.emit('SIGTERM');
    const error = await running.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StartUpInterrupted);
    expect((error as StartUpInterrupted).signal).toBe('SIGTERM');
    expect((error as Error).message).toMatch(
      /^SIGTERM during start-up \(.+\): stopped before trading; nothing was placed$/,
    );
    expect(readdirSync(dir).filter((f) => f.endsWith('.lock'))).toEqual([]);
    expect(signalListeners()).toEqual(before);
  }, 60_000);

  it('once the strategies started: stops as on any signal, cancelling and reporting what onStart placed (exit 143)', async () => {
    const dir = newDir();
    const loaded = await paperConfig(
      dir,
      `{ id: s, use: ${JSON.stringify(SIGNAL_ON_START)}, params: { sym: ${PERP}, qty: 1, price: 90 } }`,
    );
    before = signalListeners();
    const outcome = await runConfiguredSession(loaded, { durationSec: 60 });
    if (!outcome.ok) throw new Error(outcome.problems.join('\n'));
    expect(outcome.exitCode).toBe(143);
    expect([...outcome.result.orders].map((o) => o.orderState)).toEqual(['CANCELLED']);
    expect(readdirSync(dir).filter((f) => f.endsWith('.lock'))).toEqual([]);
    expect(signalListeners()).toEqual(before);
  }, 60_000);
});
