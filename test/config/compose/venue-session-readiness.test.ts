import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXIT } from '../../../config/cli/exit-codes.ts';
import { RunMetrics } from '../../../config/compose/run-metrics.ts';
import { SessionRecorder } from '../../../config/compose/session-recorder.ts';
import { Kernel } from '../../../core/kernel/index.ts';
import { LiveExecutionClient } from '../../../core/venue/live/live-execution-client.ts';
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

/** `/healthz` on a port: its status and body. */
async function healthz(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/healthz`);
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

describe('the /readyz probe of a live session whose start-up fails', () => {
  /** Probes `/readyz` as the session closes its endpoint, then lets it close. */
  function probedAtClose(port: number): { readonly answer: () => Promise<string | undefined> } {
    let atClose: Promise<string> | undefined;
    const close = RunMetrics.prototype.close;
    vi.spyOn(RunMetrics.prototype, 'close').mockImplementation(async function (this: RunMetrics) {
      atClose ??= Promise.all([readyz(port), healthz(port)]).then((answers) => answers.join(''));
      await atClose.catch(() => {});
      return close.call(this);
    });
    return { answer: async () => atClose };
  }

  // It said the private stream had not connected yet while the session closed what it opened:
  // nothing told the orchestrator the start-up had failed, nor why.
  it('fails naming the refused login, while liveness still answers', async () => {
    const rig = await newRig();
    const port = await aFreePort();
    const probe = probedAtClose(port);
    vi.spyOn(LiveExecutionClient.prototype, 'start').mockRejectedValue(
      new Error('the venue refused the login (2002)'),
    );
    const run = rig.run({
      strategies: `  - { id: s, use: ${JSON.stringify(BUY_ONCE)}, params: { sym: ${SESSION_SYM}, qty: 0.01 } }`,
      durationSec: 120,
      extra: `metrics: { enabled: true, port: ${port} }\n`,
    });
    await expect(run).rejects.toThrow('the venue refused the login (2002)');
    expect(await probe.answer()).toMatch(
      /^503 not ready: the live session failed to start: cannot start on the venue at http:\/\/127\.0\.0\.1:\d+: its login or first reconciliation failed \(the venue refused the login \(2002\)\); the private stream has not connected yet.*\n200 ok\n$/,
    );
  }, 60_000);

  // The endpoint stayed open, answering that the streams had not connected, after the session threw.
  it('fails naming the recording it cannot open, then closes', async () => {
    const rig = await newRig();
    const port = await aFreePort();
    const probe = probedAtClose(port);
    vi.spyOn(SessionRecorder, 'open').mockRejectedValue(new Error('EACCES: permission denied'));
    const run = rig.run({
      strategies: `  - { id: s, use: ${JSON.stringify(BUY_ONCE)}, params: { sym: ${SESSION_SYM}, qty: 0.01 } }`,
      durationSec: 120,
      extra: `metrics: { enabled: true, port: ${port} }\nrecording: { path: ${JSON.stringify(join(rig.newDir(), 'rec.jsonl'))} }\n`,
    });
    await expect(run).rejects.toThrow('EACCES: permission denied');
    expect(await probe.answer()).toMatch(
      /^503 not ready: the live session failed to start: cannot open its recording \(EACCES: permission denied\); .*\n200 ok\n$/,
    );
    await expect(readyz(port)).rejects.toThrow();
  }, 60_000);
});
