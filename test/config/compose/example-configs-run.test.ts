import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type PaperVenue, startPaperVenue, syntheticFeed } from '../../../backtest/paper-venue/index.ts';
import { SYNTHETIC_INSTRUMENTS } from '../../../backtest/synthetic/index.ts';
import { backtestToFiles } from '../../../config/compose/backtest-run.ts';
import { runConfiguredSession } from '../../../config/compose/session-run.ts';
import { strategySlots } from '../../../config/compose/strategy-plugins.ts';
import { formatConfigProblem, loadConfig } from '../../../config/loader/index.ts';
import { D } from '../../../core/model/index.ts';

const EXAMPLES = 'config/examples';
const out = mkdtempSync(join(tmpdir(), 'keel-examples-'));
const byMode = (suffix: string) =>
  readdirSync(EXAMPLES).filter(
    (name) => name.endsWith(`-${suffix}.yaml`) && name !== 'replay-paper-session.yaml',
  );
let venue: PaperVenue | undefined;

afterEach(async () => {
  await venue?.close();
  venue = undefined;
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Outputs of an example go to the test's directory, never to the repo's out/. */
function outputsIn(name: string, env: Record<string, string> = {}) {
  const base = join(out, name.replace('.yaml', ''));
  const loaded = loadConfig(join(EXAMPLES, name), {
    env,
    overrides: [
      `report.json=${base}-result.json`,
      `report.html=${base}-report.html`,
      ...(name.endsWith('-backtest.yaml') ? [] : [`recording.path=${base}.jsonl.gz`, 'metrics.port=0']),
    ],
  });
  if (!loaded.ok) throw new Error(loaded.problems.map(formatConfigProblem).join('\n'));
  const { ok: _ok, ...rest } = loaded;
  return { loaded: rest, base };
}

/** Runs a paper or live example for three seconds: it must end with exit code 0, having seen events. */
async function expectThreeSecondsOfEvents(loaded: ReturnType<typeof outputsIn>['loaded']): Promise<void> {
  const outcome = await runConfiguredSession(loaded, { durationSec: 3, handleSignals: false });
  if (!outcome.ok) throw new Error(outcome.problems.join('\n'));
  expect(outcome.exitCode).toBe(0);
  expect(outcome.events.market).toBeGreaterThan(0);
}

describe('every example config runs in its mode', () => {
  it('has backtest, paper and live examples', () => {
    expect(byMode('backtest').length).toBeGreaterThanOrEqual(4);
    expect(byMode('paper').length).toBeGreaterThanOrEqual(2);
    expect(byMode('live').length).toBeGreaterThanOrEqual(2);
  });

  it.each(byMode('backtest'))(
    '%s backtests the shipped session and writes result and report',
    async (name) => {
      const { loaded, base } = outputsIn(name);
      const slots = await strategySlots(loaded);
      if (!slots.ok) throw new Error(slots.problems.map(formatConfigProblem).join('\n'));
      const { result } = await backtestToFiles(loaded, { slots: slots.slots });
      expect(result.meta.synthetic).toBe(true);
      expect(result.orders.length).toBeGreaterThan(0);
      expect(existsSync(`${base}-result.json`) && existsSync(`${base}-report.html`)).toBe(true);
    },
    60_000,
  );

  it.each(byMode('paper'))(
    '%s paper-trades for a few seconds and writes recording and report',
    async (name) => {
      const { loaded, base } = outputsIn(name);
      await expectThreeSecondsOfEvents(loaded);
      expect(existsSync(`${base}.jsonl.gz`) && existsSync(`${base}-report.html`)).toBe(true);
    },
    60_000,
  );

  it.each(byMode('live'))(
    '%s runs against a paper venue standing in for the live venue at its URL',
    async (name) => {
      const v = await startPaperVenue({
        instruments: Object.values(SYNTHETIC_INSTRUMENTS),
        startingBalances: { USDT: D(100_000) },
        feed: syntheticFeed({ seed: 3, startTime: Date.now() }),
        pacing: { mode: 'realtime', speed: 20 },
      });
      venue = v;
      const { loaded, base } = outputsIn(name, {
        KEEL_REST_URL: v.restUrl,
        KEEL_API_KEY: v.apiKey,
        KEEL_API_SECRET: v.apiSecret,
      });
      await expectThreeSecondsOfEvents(loaded);
      expect(existsSync(`${base}.jsonl.gz`) && existsSync(`${base}-result.json`)).toBe(true);
    },
    60_000,
  );
});
