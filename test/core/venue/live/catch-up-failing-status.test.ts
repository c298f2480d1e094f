import { afterEach, describe, expect, it } from 'vitest';
import type { VenueStatus } from '../../../../core/model/index.ts';
import {
  liveClientOnScriptedVenue,
  type ScriptedVenueClient,
} from '../../../kit/live-client-on-scripted-venue.ts';
import { advanceUntil } from '../../../kit/venue-wait.ts';

/**
 * After a reconnect the execution catch-up keeps failing (the venue's history endpoint answers
 * 503): the private stream stays `up`, never `reconciled`, and the kernel denies every new order
 * with "back after an outage ... but not reconciled yet", the reason of the drop, and nothing
 * saying what keeps it from trading. The status now says so (a repeat of `up` with the reason)
 * once the catch-up failed, and so do the denial and the log.
 */
describe('live execution client: an execution catch-up that keeps failing after a reconnect', () => {
  let h: ScriptedVenueClient;
  afterEach(async () => h?.stop());

  it('reports the private stream still up, with the catch-up failing since when as the reason', async () => {
    h = await liveClientOnScriptedVenue();
    const statuses: VenueStatus[] = [];
    h.live.status.subscribe((status) => statuses.push(status));
    h.state.extra = (r) =>
      r.path === '/api/v1/trading/executions/pageable' && h.ws.logins >= 2
        ? { status: 503, body: { code: 503, message: 'unavailable' } }
        : undefined;
    h.ws.dropAll();
    await advanceUntil(h.timer, () => h.ws.logins === 2, 'second login');
    await advanceUntil(
      h.timer,
      () => statuses.some((s) => s.reason?.includes('catch-up') === true),
      'the reason',
    );
    const last = statuses.at(-1) as VenueStatus;
    expect(last).toMatchObject({ stream: 'private', state: 'up' });
    expect(last.reason).toMatch(/execution catch-up has kept failing since \d{4}-\d\d-\d\dT/);
    expect(statuses.some((s) => s.state === 'reconciled')).toBe(false);
  });
});
