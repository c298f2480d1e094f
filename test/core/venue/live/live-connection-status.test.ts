import { afterEach, describe, expect, it } from 'vitest';
import {
  COMMAND_OUTCOME_UNKNOWN,
  D,
  type Intent,
  type UserEvent,
  type VenueStatus,
} from '../../../../core/model/index.ts';
import type { ApprovedIntent } from '../../../../core/risk/index.ts';
import { type LiveClientOnFakeVenue, liveClientOnFakeVenue } from '../../../kit/live-client-on-fake-venue.ts';
import type { ScriptedReply } from '../../../kit/venue-http-server.ts';
import { waitFor } from '../../../kit/venue-wait.ts';
import { WIRE_ORDER } from '../../../kit/venue-wire-samples.ts';

const approved = (intent: Intent) => ({ strategyId: 's1', intent }) as ApprovedIntent;
const SYM = 'BINANCE_PERP_BTC_USDT';

describe('live execution client: the private stream status', () => {
  let rig: LiveClientOnFakeVenue;
  afterEach(async () => {
    await rig.close();
  });

  it('reports down at a drop, up at the login, and reconciled after the corrections of the reconciliation that follows', async () => {
    rig = await liveClientOnFakeVenue();
    const log: string[] = [];
    const statuses: VenueStatus[] = [];
    rig.live.status.subscribe((s) => {
      statuses.push(s);
      log.push(`status ${s.state}`);
    });
    rig.live.events.subscribe((e: UserEvent) => log.push(e.kind));
    rig.holdings.orders = [{ ...WIRE_ORDER, clientOrderId: 'c-new', orderId: 'o-new' }];
    rig.ws.dropAll();
    await waitFor(() => statuses.length === 1, 'the drop reported');
    expect(statuses[0]).toMatchObject({ stream: 'private', state: 'down' });
    expect(statuses[0]?.reason).toContain('closed with code');
    await rig.timer.advance(100);
    await waitFor(() => statuses.length === 3, 'login and reconciliation reported');
    expect(log[0]).toBe('status down');
    expect(log[1]).toBe('status up');
    expect(log.at(-1)).toBe('status reconciled');
    expect(log.slice(2, -1)).toContain('order');
  });

  it('does not report reconciled while the reconciliation after the login has not finished', async () => {
    rig = await liveClientOnFakeVenue();
    const statuses: string[] = [];
    rig.live.status.subscribe((s) => statuses.push(s.state));
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    rig.special = (request) =>
      request.path === '/api/v1/trading/orders'
        ? { body: { code: 0, data: [] }, heldUntil: held }
        : undefined;
    rig.ws.dropAll();
    await waitFor(() => statuses.length === 1, 'the drop reported');
    await rig.timer.advance(100);
    await waitFor(() => statuses.length === 2, 'the login reported');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(statuses).toEqual(['down', 'up']);
    release();
    await waitFor(() => statuses.length === 3, 'reconciled');
    expect(statuses).toEqual(['down', 'up', 'reconciled']);
  });
});

describe('live execution client: a REST-fallback modify or cancel whose answer was lost', () => {
  let rig: LiveClientOnFakeVenue;
  afterEach(async () => {
    await rig.close();
  });

  const downSocket = async (): Promise<UserEvent[]> => {
    rig = await liveClientOnFakeVenue();
    await rig.privateWs.close();
    return rig.events;
  };
  const rejections = (events: UserEvent[]) =>
    events.flatMap((e) => (e.kind === 'commandRejected' ? [e] : []));
  const CANCELLED: ScriptedReply = { body: { code: 0, message: 'success', data: { orderId: 'o-1' } } };
  const FILLED: ScriptedReply = { body: { code: 401058, message: 'the order is FILLED' } };
  const NOT_FOUND: ScriptedReply = { body: { code: 401018, message: 'order not found' } };
  const COMPLETED: ScriptedReply = { body: { code: 401117, message: 'already completed, cannot cancel' } };
  const LOST: ScriptedReply = { body: null, reset: true };
  /** The venue answers each REST cancel-one by the order it names. */
  const answerCancels = (replies: Readonly<Record<string, ScriptedReply>>): void => {
    rig.special = (request) => {
      if (request.method !== 'DELETE' || request.path !== '/api/v1/trading/order') return undefined;
      return replies[(JSON.parse(request.body) as { clientOrderId: string }).clientOrderId];
    };
  };

  it('reports a modify answered HTTP 500 after it was forwarded as outcome unknown (-1), not as a refusal with code 500', async () => {
    const events = await downSocket();
    rig.special = (request) =>
      request.method === 'PUT' && request.path === '/api/v1/trading/order'
        ? { status: 500, body: 'Internal Server Error' }
        : undefined;
    rig.live.submit(approved({ kind: 'modifyOrder', ref: 'm-1', target: 'c-1', sym: SYM, price: D('101') }));
    await waitFor(() => rejections(events).length === 1, 'the rejection');
    expect(rig.calls('/api/v1/trading/order').filter((r) => r.method === 'PUT')).toHaveLength(1);
    expect(rejections(events)[0]).toMatchObject({ ref: 'm-1', code: COMMAND_OUTCOME_UNKNOWN });
  });

  it('reports a cancel-all whose connection was reset as outcome unknown (-1), never with code 0', async () => {
    const events = await downSocket();
    rig.special = (request) =>
      request.path === '/api/v1/trading/cancelAll' ? { body: null, reset: true } : undefined;
    rig.live.submit(approved({ kind: 'cancelOrders', ref: 'k-1', sym: SYM }));
    await waitFor(() => rejections(events).length === 1, 'the rejection');
    expect(rejections(events)[0]).toMatchObject({ ref: 'k-1', code: COMMAND_OUTCOME_UNKNOWN });
  });

  it('sends a cancel of listed orders as one cancel per order, never as a cancel-all that could take others', async () => {
    const events = await downSocket();
    // c-1 is cancelled, c-2 was already filled: the one report comes once both were answered, as
    // outcome unknown, so both orders are looked up rather than put back as they were.
    answerCancels({ 'c-1': CANCELLED, 'c-2': FILLED });
    rig.live.submit(approved({ kind: 'cancelOrders', ref: 'k-2', sym: SYM, targets: ['c-1', 'c-2'] }));
    await waitFor(() => rejections(events).length === 1, 'the rejection');
    expect(rejections(events)[0]).toMatchObject({ ref: 'k-2', code: COMMAND_OUTCOME_UNKNOWN });
    expect(rejections(events)[0]?.message).toContain('1 of 2 cancels over REST succeeded (c-2: ');
    // Sent together: the venue may get them in either order.
    const cancels = rig.calls('/api/v1/trading/order');
    expect(cancels.map((r) => [r.method, JSON.parse(r.body)]).sort()).toEqual([
      ['DELETE', { clientOrderId: 'c-1', sym: SYM }],
      ['DELETE', { clientOrderId: 'c-2', sym: SYM }],
    ]);
    expect(rig.calls('/api/v1/trading/cancelAll')).toEqual([]);
  });

  it('reports a listed cancel the venue refused whole with its code, already final first', async () => {
    const events = await downSocket();
    answerCancels({ 'c-1': NOT_FOUND, 'c-2': FILLED });
    rig.live.submit(approved({ kind: 'cancelOrders', ref: 'k-4', sym: SYM, targets: ['c-1', 'c-2'] }));
    await waitFor(() => rejections(events).length === 1, 'the rejection');
    expect(rejections(events)[0]).toMatchObject({ ref: 'k-4', code: 401058 });
  });

  it('reports a listed cancel refused whole with "already completed" (401117) as such, so its orders are looked up', async () => {
    const events = await downSocket();
    answerCancels({ 'c-1': NOT_FOUND, 'c-2': COMPLETED });
    rig.live.submit(approved({ kind: 'cancelOrders', ref: 'k-6', sym: SYM, targets: ['c-1', 'c-2'] }));
    await waitFor(() => rejections(events).length === 1, 'the rejection');
    expect(rejections(events)[0]).toMatchObject({ ref: 'k-6', code: 401117 });
  });

  it('reports a listed cancel with one refusal and one lost answer as outcome unknown', async () => {
    const events = await downSocket();
    answerCancels({ 'c-1': NOT_FOUND, 'c-2': LOST });
    rig.live.submit(approved({ kind: 'cancelOrders', ref: 'k-5', sym: SYM, targets: ['c-1', 'c-2'] }));
    await waitFor(() => rejections(events).length === 1, 'the rejection');
    expect(rejections(events)[0]).toMatchObject({ ref: 'k-5', code: COMMAND_OUTCOME_UNKNOWN });
  });

  it('reports a listed cancel with one lost answer as outcome unknown once, and still sends the others', async () => {
    const events = await downSocket();
    answerCancels({ 'c-1': LOST, 'c-2': CANCELLED });
    rig.live.submit(approved({ kind: 'cancelOrders', ref: 'k-3', sym: SYM, targets: ['c-1', 'c-2'] }));
    await waitFor(() => rejections(events).length === 1, 'the rejection');
    expect(rejections(events)[0]).toMatchObject({ ref: 'k-3', code: COMMAND_OUTCOME_UNKNOWN });
    expect(
      rig
        .calls('/api/v1/trading/order')
        .map((r) => JSON.parse(r.body).clientOrderId)
        .sort(),
    ).toEqual(['c-1', 'c-2']);
  });

  it('still reports a modify the venue refuses with its code over REST', async () => {
    const events = await downSocket();
    rig.special = (request) =>
      request.method === 'PUT' && request.path === '/api/v1/trading/order'
        ? { body: { code: 401058, message: 'order c-1 is FILLED' } }
        : undefined;
    rig.live.submit(approved({ kind: 'modifyOrder', ref: 'm-2', target: 'c-1', sym: SYM, price: D('101') }));
    await waitFor(() => rejections(events).length === 1, 'the rejection');
    expect(rejections(events)[0]).toMatchObject({ ref: 'm-2', code: 401058 });
  });
});
