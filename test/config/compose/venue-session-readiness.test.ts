import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXIT } from '../../../config/cli/exit-codes.ts';
import { RunMetrics } from '../../../config/compose/run-metrics.ts';
import { Kernel } from '../../../core/kernel/index.ts';
import { aFreePort } from '../../kit/free-port.ts';
import { liveSessionRigs, SESSION_SYM } from '../../kit/live-session-rig.ts';

const BUY_ONCE = resolve('test/config/fixtures/buy-once-plugin.ts');
const newRig = liveSessionRigs();

afterEach(() => {
  vi.restoreAllMocks();
});

/** `/readyz` on a port: its status and body. */
async function readyz(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/readyz`);
  return `${response.status} ${await response.text()}`;
}

/** Probes `/readyz` until its answer matches (or 300 probes went by): @returns the last answer */
async function readyzUntil(port: number, wanted: RegExp): Promise<string> {
  let last = '';
  for (let i = 0; i < 300 && !wanted.test(last); i++) {
    await sleep(50);
    last = await readyz(port).catch((error: Error) => error.message);
  }
  return last;
}

describe('the /readyz probe of a live session', () => {
  // It read the venue's streams only: a session cancelling its orders and writing its result
  // answered 200 ready until its endpoint closed.
  it('fails from the moment a SIGTERM begins the stop, saying so, while the streams are still up', async () => {
    const rig = await newRig();
    const port = await aFreePort();
    const run = rig.run({
      strategies: `  - { id: s, use: ${JSON.stringify(BUY_ONCE)}, params: { sym: ${SESSION_SYM}, qty: 0.01 } }`,
      durationSec: 120,
      handleSignals: true,
      extra: `metrics: { enabled: true, port: ${port} }\n`,
    });
    expect(await readyzUntil(port, /^200/)).toBe('200 ready\n');
    // Asked as the stop reaches the strategies, answered before the endpoint closes.
    let atStop: Promise<string> | undefined;
    const stop = Kernel.prototype.stop;
    vi.spyOn(Kernel.prototype, 'stop').mockImplementation(function (this: Kernel) {
      atStop ??= readyz(port);
      return stop.call(this);
    });
    const close = RunMetrics.prototype.close;
    vi.spyOn(RunMetrics.prototype, 'close').mockImplementation(async function (this: RunMetrics) {
      await atStop?.catch(() => {});
      return close.call(this);
    });
    process.emit('SIGTERM');
    const outcome = await run;
    expect(outcome.exitCode).toBe(EXIT.TERMINATED);
    expect(await atStop).toBe('503 not ready: the live session is stopping (SIGTERM)\n');
  }, 60_000);

  // A halted session that goes on running answered 200 ready: nothing told the orchestrator.
  it('fails once the kill switch trips, naming the trip', async () => {
    const rig = await newRig();
    const port = await aFreePort();
    // The buy's fee alone is a loss above the limit: its fill trips the switch.
    const run = rig.run({
      strategies: `  - { id: s, use: ${JSON.stringify(BUY_ONCE)}, params: { sym: ${SESSION_SYM}, qty: 0.01 } }`,
      durationSec: 120,
      handleSignals: true,
      extra: `risk:\n  killSwitch: { dailyLossLimit: 0.0001 }\nmetrics: { enabled: true, port: ${port} }\n`,
    });
    const tripped = await readyzUntil(port, /kill switch/);
    process.emit('SIGTERM');
    const outcome = await run;
    expect(
      (outcome.result.meta.warnings ?? []).filter((w) => w.includes('kill switch tripped')),
    ).toHaveLength(1);
    expect(tripped).toMatch(
      /^503 not ready: the kill switch tripped: trading is HALTED \(daily loss [\d.]+ reached the limit 0\.0001 .*\)\n$/,
    );
  }, 60_000);
});
