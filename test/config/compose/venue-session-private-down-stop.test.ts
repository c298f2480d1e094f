import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXIT } from '../../../config/cli/exit-codes.ts';
import { SessionStatement } from '../../../config/compose/session-statement.ts';
import { VenueConnectivity } from '../../../core/kernel/venue-connectivity.ts';
import type { VenueStreamState } from '../../../core/model/index.ts';
import { type LiveSessionRig, liveSessionRigs, SESSION_SYM } from '../../kit/live-session-rig.ts';

const REST_AND_TAKE = resolve('test/config/fixtures/rest-and-take-plugin.ts');
const newRig = liveSessionRigs();

afterEach(() => {
  vi.restoreAllMocks();
});

const STALE_WARNING =
  /^the venue's private stream has been down since \S+.* orders, fills and balances since then may be missing/;

/** The session kernel's view of the venue's streams, caught as it hears their first status. */
function connectivityOfTheSession(
  onPrivate: (state: VenueStreamState) => void,
): () => VenueConnectivity | undefined {
  let seen: VenueConnectivity | undefined;
  const observe = VenueConnectivity.prototype.observe;
  vi.spyOn(VenueConnectivity.prototype, 'observe').mockImplementation(function (
    this: VenueConnectivity,
    status,
  ) {
    seen = this;
    const changed = observe.call(this, status);
    if (changed && status.stream === 'private') onPrivate(status.state);
    return changed;
  });
  return () => seen;
}

/** Resolves once the private stream is in `state` (or 20 s went by). */
async function privateStreamIs(
  connectivity: () => VenueConnectivity | undefined,
  state: VenueStreamState,
): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (connectivity()?.privateStream === state) return;
    await sleep(50);
  }
}

/**
 * Runs the stop's last statement read (just before the books close) after `first`: the moment a
 * test changes the venue's streams within the shutdown.
 */
function beforeTheLastStatementRead(first: () => Promise<void>): void {
  const refresh = SessionStatement.prototype.refresh;
  vi.spyOn(SessionStatement.prototype, 'refresh').mockImplementation(function (
    this: SessionStatement,
    end,
    signal,
  ) {
    if (signal === undefined) return refresh.call(this, end, signal);
    return first().then(() => refresh.call(this, end, signal));
  });
}

/** A session resting one buy, stopped by SIGTERM (the test emits it). */
function sigtermSession(rig: LiveSessionRig) {
  return rig.run({
    strategies: `  - { id: rest, use: ${JSON.stringify(REST_AND_TAKE)}, params: { sym: ${SESSION_SYM} } }`,
    durationSec: 120,
    handleSignals: true,
  });
}

describe('a live session stopped while its private stream is down', () => {
  // The warning was taken when the stop began and kept: a stream reconciled within the shutdown
  // still said orders, fills and balances may be missing from a result that missed none.
  it('warns of nothing missing when the stream is back and reconciled before the result, and notes the outage', async () => {
    const rig = await newRig();
    let dropped = false;
    const connectivity = connectivityOfTheSession((state) => {
      if (state === 'down' && !dropped) {
        dropped = true;
        process.emit('SIGTERM');
      }
    });
    beforeTheLastStatementRead(() => privateStreamIs(connectivity, 'reconciled'));
    const run = sigtermSession(rig);
    await privateStreamIs(connectivity, 'reconciled');
    await sleep(1_000);
    rig.venue.faults.dropConnections('private');
    const outcome = await run;
    expect(dropped).toBe(true);
    expect(connectivity()?.privateStream).toBe('reconciled');
    expect(outcome.exitCode).toBe(EXIT.TERMINATED);
    const warnings = outcome.result.meta.warnings ?? [];
    expect(
      warnings.filter((w) => w.includes('private stream')),
      JSON.stringify(warnings),
    ).toEqual([]);
    expect(outcome.notes).toContainEqual(
      expect.stringMatching(
        /^the venue's private stream has been down since \S+.* when the session stopped; it was back and reconciled before this result was written$/,
      ),
    );
  }, 60_000);

  // The stream reconciled when the stop began was never looked at again.
  it('warns that data may be missing when the stream went down within the shutdown and is still down', async () => {
    const rig = await newRig();
    const connectivity = connectivityOfTheSession(() => {});
    beforeTheLastStatementRead(async () => {
      await rig.venue.close();
      await privateStreamIs(connectivity, 'down');
    });
    const run = sigtermSession(rig);
    await privateStreamIs(connectivity, 'reconciled');
    await sleep(1_000);
    process.emit('SIGTERM');
    const outcome = await run;
    expect(connectivity()?.privateStream).toBe('down');
    const warnings = outcome.result.meta.warnings ?? [];
    expect(
      warnings.filter((w) => STALE_WARNING.test(w)),
      JSON.stringify(warnings),
    ).toHaveLength(1);
    expect(outcome.notes?.filter((note) => note.includes('private stream'))).toEqual([]);
  }, 60_000);
});
