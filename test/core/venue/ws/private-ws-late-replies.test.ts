import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  hmacSigner,
  type LateReply,
  PrivateWsClient,
  VenueError,
  VenueTimeoutError,
} from '../../../../core/venue/index.ts';
import { type FakeTimer, fakeTimer } from '../../../kit/venue-fake-timer.ts';
import { waitFor } from '../../../kit/venue-wait.ts';
import { type FakeVenueWs, startFakeVenueWs } from '../../../kit/venue-ws-server.ts';

describe('private WebSocket: a reply that comes after its request timed out', () => {
  let venue: FakeVenueWs;
  let timer: FakeTimer;
  let client: PrivateWsClient;
  let ids: string[];

  beforeEach(async () => {
    venue = await startFakeVenueWs();
    timer = fakeTimer();
    ids = [];
    venue.onRequest = (request) => {
      ids.push(request.id);
      return undefined;
    };
    client = new PrivateWsClient({
      url: venue.url,
      signer: hmacSigner('ws-key', 'ws-secret'),
      timer,
      random: { next: () => 0 },
      pingIntervalMs: 25_000,
      requestTimeoutMs: 1_000,
      reconnect: { baseMs: 100, capMs: 1_000 },
      logger: pino({ level: 'silent' }),
    });
    await client.connect();
  });
  afterEach(async () => {
    await client.close();
    await venue.close();
  });

  /** Sends a request that times out, and collects what its late-reply callback is given. */
  const timedOutRequest = async (action: string): Promise<LateReply[]> => {
    const late: LateReply[] = [];
    const outcome = client
      .request(action, { clientOrderId: 'c1' }, { onLateReply: (reply) => late.push(reply) })
      .catch((error: unknown) => error);
    await waitFor(() => ids.length === 1, 'the request at the venue');
    await timer.advance(1_000);
    expect(await outcome).toBeInstanceOf(VenueTimeoutError);
    return late;
  };

  it('hands a late success to the request that asked for it, counted as a reply, not unmatched', async () => {
    const late = await timedOutRequest('place_order');
    const replies = client.counters.replies;
    venue.push({ event: 'place_order', id: ids[0], code: 0, data: { orderId: 'o1' } });
    await waitFor(() => late.length === 1, 'the late reply handed over');
    expect(late[0]).toEqual({ reply: expect.objectContaining({ id: ids[0], code: 0 }) });
    expect([client.counters.replies - replies, client.counters.unmatchedReplies]).toEqual([1, 0]);
  });

  it("hands over a late refusal as the venue's error with its code", async () => {
    const late = await timedOutRequest('place_order');
    venue.push({
      event: 'place_order',
      id: ids[0],
      code: 400001,
      msg: 'post-only order would take',
      data: null,
    });
    await waitFor(() => late.length === 1, 'the late refusal handed over');
    const refusal = 'refusal' in (late[0] ?? {}) ? (late[0] as { refusal: VenueError }).refusal : undefined;
    expect(refusal).toBeInstanceOf(VenueError);
    expect(refusal?.code).toBe(400001);
  });

  it('hands a late reply over once, and forgets the timed-out requests when the connection drops', async () => {
    const late = await timedOutRequest('replace_order');
    venue.push({ event: 'replace_order', id: ids[0], code: 0, data: null });
    venue.push({ event: 'replace_order', id: ids[0], code: 0, data: null });
    await waitFor(() => client.counters.unmatchedReplies === 1, 'the repeat counted unmatched');
    expect(late).toHaveLength(1);
    const again = client
      .request('cancel_order', { clientOrderId: 'c2' }, { onLateReply: (reply) => late.push(reply) })
      .catch((error: unknown) => error);
    await waitFor(() => ids.length === 2, 'the second request at the venue');
    await timer.advance(1_000);
    expect(await again).toBeInstanceOf(VenueTimeoutError);
    venue.dropAll();
    await waitFor(() => !client.isLoggedIn, 'the drop');
    await timer.advance(1_000);
    await waitFor(() => client.isLoggedIn, 'the login after the drop');
    venue.push({ event: 'cancel_order', id: ids[1], code: 0, data: null });
    await waitFor(() => client.counters.unmatchedReplies === 2, 'the reply after the drop counted unmatched');
    expect(late).toHaveLength(1);
  });
});
