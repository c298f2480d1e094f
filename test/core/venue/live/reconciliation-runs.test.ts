import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { Kernel, virtualScheduler } from '../../../../core/kernel/index.ts';
import { D, type MarketEvent, type UserEvent } from '../../../../core/model/index.ts';
import { RiskGate } from '../../../../core/risk/index.ts';
import { approved } from '../../../kit/approved-intents.ts';
import { anInstrument } from '../../../kit/instrument-builders.ts';
import { BTC } from '../../../kit/kernel-events.ts';
import {
  type LiveClientOnFakeVenue,
  liveClientOnFakeVenue,
  SNAPSHOT_PATHS,
} from '../../../kit/live-client-on-fake-venue.ts';
import { advanceUntil, waitFor } from '../../../kit/venue-wait.ts';
import {
  ok,
  page,
  WIRE_ACCOUNT,
  WIRE_ALGO_ORDER,
  WIRE_ASSET,
  WIRE_EXECUTION,
  WIRE_ORDER,
  WIRE_POSITION,
} from '../../../kit/venue-wire-samples.ts';

let rig: LiveClientOnFakeVenue | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function aRig(): Promise<LiveClientOnFakeVenue> {
  rig = await liveClientOnFakeVenue();
  return rig;
}

const BTC_ASSET = { ...WIRE_ASSET, coin: 'BTC', balance: '1', available: '1', frozen: '0', equity: '1' };

/**
 * Drops the private socket; the reconciliation after the next login gets its snapshot only once
 * `meanwhile` ran (the venue's pushes and replies of that time are delivered first). The snapshot
 * lists a BTC asset nobody pushes, whose correction marks the end of the reconciliation.
 */
async function reconcileAround(r: LiveClientOnFakeVenue, meanwhile: () => Promise<void>): Promise<void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  r.holdings.account = { ...r.holdings.account, assets: [WIRE_ASSET, BTC_ASSET] };
  const before = SNAPSHOT_PATHS.map((path) => r.calls(path).length);
  r.special = (request) =>
    (SNAPSHOT_PATHS as readonly string[]).includes(request.path) && request.method === 'GET'
      ? { ...answerOf(r, request.path), heldUntil: held }
      : undefined;
  const logins = r.ws.logins;
  r.ws.dropAll();
  await advanceUntil(r.timer, () => r.ws.logins > logins, 'the next login', 50);
  await waitFor(
    () => SNAPSHOT_PATHS.every((path, i) => r.calls(path).length > (before[i] ?? 0)),
    'the snapshot asked for',
  );
  await meanwhile();
  release();
  await waitFor(
    () => r.events.some((e) => e.kind === 'asset' && e.asset.coin === 'BTC'),
    'the reconciliation',
  );
}

function answerOf(r: LiveClientOnFakeVenue, path: string) {
  switch (path) {
    case '/api/v1/trading/orders':
      return { body: ok(r.holdings.orders) };
    case '/api/v1/algo/openOrders':
      return { body: ok(r.holdings.algoOrders) };
    case '/api/v1/trading/position':
      return { body: ok(r.holdings.positions) };
    default:
      return { body: ok(r.holdings.account) };
  }
}

function last<K extends UserEvent['kind']>(
  events: readonly UserEvent[],
  kind: K,
  which: (event: Extract<UserEvent, { kind: K }>) => boolean,
): Extract<UserEvent, { kind: K }> | undefined {
  const found = events.filter(
    (e): e is Extract<UserEvent, { kind: K }> => e.kind === kind && which(e as never),
  );
  return found[found.length - 1];
}

describe('reconciliation runs: a push newer than the snapshot wins', () => {
  it('keeps the position, asset and account pushed while the snapshot was taken, not the older snapshot values', async () => {
    const r = await aRig();
    await reconcileAround(r, async () => {
      r.ws.push({
        channel: 'Positions',
        data: [{ ...WIRE_POSITION, positionQty: '0.010', updateAt: 1_700_000_001_000 }],
      });
      r.ws.push({ channel: 'Assets', data: [{ ...WIRE_ASSET, balance: '900', equity: '900' }] });
      r.ws.push({ channel: 'Accounts', data: [{ ...WIRE_ACCOUNT, equity: '990' }] });
      await waitFor(
        () => r.events.some((e) => e.kind === 'account' && e.account.equity.eq(990)),
        'the pushes',
      );
    });
    expect({
      position: last(
        r.events,
        'position',
        (e) => e.position.sym === WIRE_POSITION.sym,
      )?.position.positionQty.toFixed(),
      usdt: last(r.events, 'asset', (e) => e.asset.coin === 'USDT')?.asset.balance.toFixed(),
      equity: last(r.events, 'account', () => true)?.account.equity.toFixed(),
    }).toEqual({ position: '0.01', usdt: '900', equity: '990' });
  });

  it('does not resurrect an order whose FILLED state was pushed while a snapshot still listing it open was taken', async () => {
    const r = await aRig();
    const open = { ...WIRE_ORDER, clientOrderId: 'c-fill', orderId: 'o-fill' };
    r.ws.push({ channel: 'Orders', data: [open] });
    await waitFor(() => r.events.some((e) => e.kind === 'order'), 'the open order');
    r.holdings.orders = [open];
    await reconcileAround(r, async () => {
      r.ws.push({
        channel: 'Orders',
        data: [{ ...open, orderState: 'FILLED', executedQty: '0.010', updateAt: 1_700_000_002_000 }],
      });
      await waitFor(
        () => last(r.events, 'order', () => true)?.order.orderState === 'FILLED',
        'the FILLED push',
      );
    });
    const states = r.events.flatMap((e) => (e.kind === 'order' ? [e.order.orderState] : []));
    expect(states).toEqual(['OPEN', 'FILLED']);
  });

  it('does not cancel an algo order placed while the snapshot, taken before it, was under way', async () => {
    const r = await aRig();
    await reconcileAround(r, async () => {
      r.special = (request) =>
        request.path === '/api/v1/algo/order'
          ? { body: ok({ ...WIRE_ALGO_ORDER, clientAlgoOrderId: 'al-new' }) }
          : undefined;
      r.live.submit(
        approved({
          kind: 'placeAlgoOrder',
          ref: 'al-new',
          sym: WIRE_ALGO_ORDER.sym,
          side: 'SELL',
          algoOrderType: 'TRIGGER',
          conditionType: 'LTE',
          triggerType: 'MarkPrice',
          triggerPrice: D('55000'),
          price: D('0'),
          qty: D('0.004'),
          reduceOnly: true,
          positionSide: 'NONE',
        }),
      );
      await waitFor(() => r.events.some((e) => e.kind === 'algoOrder'), 'the algo order placed');
    });
    const states = r.events.flatMap((e) => (e.kind === 'algoOrder' ? [e.algoOrder.state] : []));
    expect(states).toEqual(['NEW']);
  });
});

/** A kernel on the rig's client, with no strategy: the position it folds from the client's events. */
function aKernelOn(r: LiveClientOnFakeVenue): Kernel {
  const kernel = new Kernel({
    instruments: [anInstrument(BTC)],
    market: new Subject<MarketEvent>().asObservable(),
    execution: r.live,
    gate: new RiskGate(),
    scheduler: virtualScheduler(1_700_000_000_000),
    strategies: [],
  });
  void kernel.start();
  return kernel;
}

/**
 * Drops the private socket and, once the reconciliation after the next login asked for the
 * positions, pushes a buy of 0.006 (at `buyAt`) before the venue answers with `positions`.
 * @returns when the reconciliation's corrections are emitted
 */
async function buyWhileSnapshotTaken(
  r: LiveClientOnFakeVenue,
  kernel: Kernel,
  positions: readonly unknown[],
  buyAt: number,
): Promise<void> {
  let release: () => void = () => undefined;
  const replied = new Promise<void>((resolve) => (release = resolve));
  const missed = r.special;
  r.special = (request) =>
    request.path === '/api/v1/trading/position'
      ? { body: ok(positions), heldUntil: replied }
      : missed(request);
  const corrected = r.events.filter((e) => e.kind === 'account').length + 1;
  const logins = r.ws.logins;
  r.ws.dropAll();
  await advanceUntil(r.timer, () => r.ws.logins > logins, 'the next login', 50);
  await waitFor(() => r.calls('/api/v1/trading/position').length === 2, 'the snapshot under way');
  const before = kernel.state.positionQty(BTC, 'NONE');
  const buy = { ...WIRE_EXECUTION, transactionId: 't-buy', quantity: '0.006', timestamp: buyAt };
  r.ws.push({ channel: 'Trades', data: [buy] });
  await waitFor(() => kernel.state.positionQty(BTC, 'NONE').eq(before.add('0.006')), 'the buy counted');
  release();
  await waitFor(() => r.events.filter((e) => e.kind === 'account').length === corrected, 'the corrections');
}

describe('reconciliation runs: a fill pushed while the snapshot was taken', () => {
  it("stays in the kernel position when the snapshot's older position of the leg lands after it", async () => {
    const r = await aRig();
    const kernel = aKernelOn(r);
    r.ws.push({ channel: 'Positions', data: [WIRE_POSITION] });
    await waitFor(() => kernel.state.positionQty(BTC, 'NONE').eq('0.004'), 'the position of 0.004');
    await buyWhileSnapshotTaken(r, kernel, [WIRE_POSITION], 1_700_000_000_500);
    expect(kernel.state.positionQty(BTC, 'NONE').toFixed()).toBe('0.01');
    kernel.stop();
  });

  it('stays in the kernel position though the snapshot, read before it and stamped after it, lists the leg flat', async () => {
    const r = await aRig();
    const kernel = aKernelOn(r);
    r.ws.push({ channel: 'Positions', data: [WIRE_POSITION] });
    await waitFor(() => kernel.state.positionQty(BTC, 'NONE').eq('0.004'), 'the position of 0.004');
    // The snapshot's time (Keel's clock once every reply is in) comes after the buy pushed meanwhile.
    await r.timer.advance(1_000);
    // While the socket is down a sell closes the leg: the venue lists it flat and the sell as missed.
    const close = { ...WIRE_EXECUTION, transactionId: 't-close', side: 'SELL', timestamp: 1_700_000_000_300 };
    r.special = (request) =>
      request.path === '/api/v1/trading/executions/pageable' ? { body: ok(page([close])) } : undefined;
    await buyWhileSnapshotTaken(r, kernel, [], 1_700_000_000_500);
    expect(kernel.state.positionQty(BTC, 'NONE').toFixed()).toBe('0.006');
    kernel.stop();
  });
});

describe('reconciliation runs: a failed reconciliation is tried again', () => {
  const positionQtys = (r: LiveClientOnFakeVenue) =>
    r.events.flatMap((e) => (e.kind === 'position' ? [e.position.positionQty.toFixed()] : []));
  const refuse = { body: { code: 500000, message: 'system busy' } };

  async function reconnect(r: LiveClientOnFakeVenue): Promise<void> {
    const logins = r.ws.logins;
    r.ws.dropAll();
    await advanceUntil(r.timer, () => r.ws.logins > logins, 'the next login', 50);
  }

  it('retries a reconciliation whose snapshot failed after 1 s, then 2 s, on the injected timer, without a reconnect', async () => {
    const r = await aRig();
    // The venue refuses the next three position snapshots; the fake time of each request is noted.
    let refusals = 3;
    const askedAt: number[] = [];
    r.holdings.positions = [{ ...WIRE_POSITION, positionQty: '0.010' }];
    r.special = (request) => {
      if (request.path !== '/api/v1/trading/position') return undefined;
      askedAt.push(r.timer.now());
      return refusals-- > 0 ? refuse : undefined;
    };
    await reconnect(r);
    await advanceUntil(r.timer, () => positionQtys(r).includes('0.01'), 'the retry that got through', 50);
    expect(positionQtys(r)).toEqual(['0.004', '0.01']);
    expect(askedAt).toHaveLength(4);
    const waits = askedAt.slice(1).map((at, i) => at - (askedAt[i] ?? 0));
    expect(waits[0]).toBeGreaterThanOrEqual(1_000);
    expect(waits[1]).toBeGreaterThanOrEqual(2_000);
    expect(waits[2]).toBeGreaterThanOrEqual(4_000);
    expect(r.ws.logins).toBe(2);
  });

  it('retries when the lookup of an order the venue no longer lists failed, and reports its FILLED state', async () => {
    const r = await aRig();
    const open = { ...WIRE_ORDER, clientOrderId: 'c-gone', orderId: 'o-gone' };
    r.ws.push({ channel: 'Orders', data: [open] });
    await waitFor(() => r.events.some((e) => e.kind === 'order'), 'the open order');
    r.special = (request) => (request.path === '/api/v1/trading/order' ? refuse : undefined);
    await reconnect(r);
    await waitFor(() => r.calls('/api/v1/trading/order').length === 1, 'the failed lookup');
    r.special = (request) =>
      request.path === '/api/v1/trading/order'
        ? { body: ok({ ...open, orderState: 'FILLED', executedQty: '0.010', updateAt: 1_700_000_003_000 }) }
        : undefined;
    await advanceUntil(
      r.timer,
      () => r.events.filter((e) => e.kind === 'order').length === 2,
      'the retried lookup',
    );
    expect(r.events.flatMap((e) => (e.kind === 'order' ? [e.order.orderState] : []))).toEqual([
      'OPEN',
      'FILLED',
    ]);
    expect(r.ws.logins).toBe(2);
  });

  it('retries the execution catch-up that failed, so a fill made while the socket was down is reported before the next reconnect', async () => {
    const r = await aRig();
    const pages = '/api/v1/trading/executions/pageable';
    r.special = (request) => (request.path === pages ? refuse : undefined);
    await reconnect(r);
    const accounts = () => r.events.filter((e) => e.kind === 'account').length;
    await waitFor(() => accounts() === 2, 'the corrections without the executions');
    r.special = (request) =>
      request.path === pages
        ? { body: ok(page([{ ...WIRE_EXECUTION, transactionId: 't-gap' }])) }
        : undefined;
    await advanceUntil(r.timer, () => r.events.some((e) => e.kind === 'execution'), 'the missed fill');
    expect(r.events.filter((e) => e.kind === 'execution')).toHaveLength(1);
    expect(r.ws.logins).toBe(2);
  });
});

describe('reconciliation runs: a venue that lost state is flagged', () => {
  it('warns of an order the venue had acknowledged but still neither lists nor knows 3 lookups and 30 s after a reconnect', async () => {
    const r = await aRig();
    const acked = { ...WIRE_ORDER, clientOrderId: 'c-forgotten', orderId: 'o-forgotten' };
    r.ws.push({ channel: 'Orders', data: [acked] });
    await waitFor(() => r.events.some((e) => e.kind === 'order'), 'the open order');
    expect(r.live.forgottenOrderWarnings).toEqual([]);
    r.special = (request) =>
      request.path === '/api/v1/trading/order'
        ? { body: { code: 401018, message: 'order does not exist' } }
        : undefined;
    const logins = r.ws.logins;
    r.ws.dropAll();
    await advanceUntil(r.timer, () => r.ws.logins > logins, 'the next login', 50);
    const firstLookup = r.timer.now();
    await advanceUntil(r.timer, () => r.live.forgottenOrderWarnings.length === 1, 'the warning', 1_000, 60);
    expect(r.timer.now() - firstLookup).toBeGreaterThanOrEqual(30_000);
    expect(r.calls('/api/v1/trading/order').length).toBeGreaterThanOrEqual(3);
    expect(r.events.flatMap((e) => (e.kind === 'order' ? [e.order.orderState] : []))).toEqual([
      'OPEN',
      'CANCELLED',
    ]);
    expect(r.live.forgottenOrderWarnings[0]).toMatch(
      /^the venue did not know 1 order it had acknowledged \(c-forgotten\) after \d+ "not found" over 30 s, at \d{4}-\d\d-\d\dT.*: it may have lost its state/,
    );
  });
});
