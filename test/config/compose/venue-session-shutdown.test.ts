import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runConfiguredSession } from '../../../config/compose/session-run.ts';
import { UserDataJournal } from '../../../config/compose/user-data-journal.ts';
import { formatConfigProblem, loadConfig } from '../../../config/loader/index.ts';
import { flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BUY_ONCE = resolve('test/config/fixtures/buy-once-plugin.ts');
const PERP = 'BINANCE_PERP_TST_USDT';
const newDir = tempDirsRemovedAfterEach('keel-session-shutdown-');
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** The SIGINT and SIGTERM listeners installed now. */
const signalListeners = () => SIGNALS.flatMap((signal) => process.listeners(signal));

// A session that leaves its handlers behind must not leave them to the other test files.
let before: ReturnType<typeof signalListeners> = [];
afterEach(() => {
  for (const signal of SIGNALS)
    for (const listener of process.listeners(signal))
      if (!before.includes(listener)) process.off(signal, listener);
});

/** A lockstep paper config of BUY_ONCE on a 5-bar recording, its HTML report at `html`. */
async function sessionConfig(dir: string, html: string) {
  const recording = await flatBarsRecordingIn(dir, 5, Date.UTC(2025, 0, 6), PERP);
  const file = join(dir, 'paper.yaml');
  writeFileSync(
    file,
    `mode: paper
instruments:
  - sym: ${PERP}
    overrides: { tickSize: 0.01, lotSize: 1 }
strategies:
  - { id: s, use: ${JSON.stringify(BUY_ONCE)}, params: { sym: ${PERP}, qty: 1 } }
paper:
  lockstep: true
  speed: 100000
  source: { kind: recording, path: ${JSON.stringify(recording)} }
  startingCash: { USDT: 10000 }
logging: { level: silent }
metrics: { enabled: false }
report: { json: ${JSON.stringify(join(dir, 'result.json'))}, html: ${JSON.stringify(html)} }
`,
  );
  const loaded = loadConfig(file);
  if (!loaded.ok) throw new Error(loaded.problems.map(formatConfigProblem).join('\n'));
  return loaded;
}

describe('a session whose shutdown throws', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('removes the second-signal handlers it installed for the shutdown, and rejects with the error', async () => {
    const dir = newDir();
    const loaded = await sessionConfig(dir, join(dir, 'report.html'));
    // A fault of Keel's own at the very end of the shutdown (a failed write is not one: it is reported).
    vi.spyOn(UserDataJournal.prototype, 'finish').mockImplementation(() => {
      throw new Error('the journal could not finish');
    });
    before = signalListeners();
    await expect(runConfiguredSession(loaded, { durationSec: 60 })).rejects.toThrow(/could not finish/);
    expect(signalListeners()).toEqual(before);
  }, 60_000);

  it('removes them too when its report cannot be written, and ends with what was not written', async () => {
    const dir = newDir();
    // A directory stands where this process stages the HTML report (`.report.html.<pid>.partial`):
    // the up-front check (its own probe file) passes, and writing the report fails at the very end.
    mkdirSync(join(dir, `.report.html.${process.pid}.partial`));
    const loaded = await sessionConfig(dir, join(dir, 'report.html'));
    before = signalListeners();
    const outcome = await runConfiguredSession(loaded, { durationSec: 60 });
    expect(outcome.ok && outcome.outputsNotWritten).toMatch(/cannot write .*report\.html: EISDIR/);
    expect(signalListeners()).toEqual(before);
    if (outcome.ok) outcome.result.dispose?.();
  }, 60_000);
});
