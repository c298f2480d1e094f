import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type CloseOrdering, defineStrategy } from '../../../core/kernel/index.ts';
import type { Intent, Order, PositionMode, PositionSide, UserEvent } from '../../../core/model/index.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { anAccountUpdate, aPositionUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';
import {
  anUpdateOf,
  type FilledOrder,
  filled,
  venueClose,
  venueLiquidation,
} from '../../kit/venue-fill-events.ts';

type Who = 'alpha' | 'beta';

/** The name the venue gives its liquidation order of the leg. */
const LIQUIDATION = 'L1-liquidation';

/** What one strategy returns on the first quote: a close of BTC, with a buy before or after it. */
interface Hook {
  readonly closeKind: 'closePosition' | 'closePositions';
  /** A market buy of this many lots, or none. */
  readonly buy: number;
  readonly buyFirst: boolean;
}

interface Scenario {
  readonly mode: PositionMode;
  readonly ordering: CloseOrdering;
  /** The leg's size before anything (lots; BOTH mode: the LONG leg). */
  readonly start: number;
  readonly first: Who;
  readonly hooks: Readonly<Record<Who, Hook>>;
  /** Per venue step: which of the things it may do next it does (modulo how many there are). */
  readonly steps: readonly number[];
  /** Whether each buy fills at all (a buy that does not stays open). */
  readonly buysFill: readonly boolean[];
  /** Whether the venue may liquidate the leg (once, at a step of its choosing, while it is open). */
  readonly liquidates: boolean;
}

const hook: fc.Arbitrary<Hook> = fc.record({
  closeKind: fc.constantFrom('closePosition' as const, 'closePositions' as const),
  buy: fc.integer({ min: 0, max: 2 }),
  buyFirst: fc.boolean(),
});

const scenario: fc.Arbitrary<Scenario> = fc.record({
  mode: fc.constantFrom<PositionMode>('NET', 'BOTH'),
  ordering: fc.constantFrom<CloseOrdering>('sendOrder', 'unknown'),
  start: fc.integer({ min: 0, max: 3 }),
  first: fc.constantFrom<Who>('alpha', 'beta'),
  hooks: fc.record({ alpha: hook, beta: hook }),
  steps: fc.array(fc.nat(5), { minLength: 8, maxLength: 8 }),
  buysFill: fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }),
  liquidates: fc.boolean(),
});

function strategy(h: Hook, positionSide: PositionSide) {
  return defineStrategy({
    name: 'closer',
    params: z.object({}),
    onQuote: (ctx): Intent[] => {
      const close =
        h.closeKind === 'closePosition'
          ? ctx.order.closePosition(BTC, positionSide)
          : ctx.order.closePositions([BTC]);
      if (h.buy === 0) return [close];
      const buy = ctx.order.market({ sym: BTC, side: 'BUY', qty: String(h.buy), positionSide });
      return h.buyFirst ? [buy, close] : [close, buy];
    },
  });
}

/**
 * Plays a scenario against a venue that runs the commands in the order sent (the simulated
 * venue's rule): a close makes a market close of the leg as it is then (`SIM-C-<n>`, filled at
 * once) or is refused when the leg is flat; a buy is acknowledged when it arrives and fills at a
 * later step of the venue's choosing (or never). When the scenario says so, the venue liquidates
 * the open leg at a step of its choosing (`LIQUIDATION`: its market close of the leg, the
 * unfilled buys cancelled). At last someone closes what is left by hand.
 * @returns the rig, which close made each close order, and the closes sent
 */
function play(s: Scenario) {
  const positionSide: PositionSide = s.mode === 'BOTH' ? 'LONG' : 'NONE';
  const order: Who[] = s.first === 'alpha' ? ['alpha', 'beta'] : ['beta', 'alpha'];
  const r = aRecordingKernelRig(
    order.map((id) => ({ id, strategy: strategy(s.hooks[id], positionSide) })),
    { closeOrdering: s.ordering },
  );
  const account = anAccountUpdate(0, '100000');
  r.port.emit({ ...account, account: { ...account.account, positionMode: s.mode } });
  if (s.start > 0) r.port.emit(aPositionUpdate(0, String(s.start), { positionSide }));
  r.market.next(aQuote(1, 100));
  const commands = [...r.port.submitted];
  const owners = new Map(commands.map((c) => [c.intent.ref, c.strategyId]));
  const hedge: Partial<Order> = s.mode === 'BOTH' ? { positionSide, reduceOnly: false } : {};
  let ts = 2;
  let leg = s.start;
  let closeNo = 0;
  const madeBy = new Map<string, string>();
  const emit = (events: readonly UserEvent[]) => {
    for (const event of events) r.port.emit(event);
  };
  const pending: { readonly buy: FilledOrder; readonly qty: number }[] = [];
  let next = 0;
  let buyNo = 0;
  let liquidated = false;
  for (let step = 0; next < commands.length || pending.length > 0; step++) {
    const liquidation = s.liquidates && !liquidated && leg > 0 ? 1 : 0;
    const options = (next < commands.length ? 1 : 0) + pending.length + liquidation;
    const pick = (s.steps[step % s.steps.length] as number) % options;
    const t = ts++;
    if (liquidation === 1 && pick === options - 1) {
      const cancelled = pending.map(({ buy, qty }) =>
        anUpdateOf(buy, String(qty), t, { orderState: 'CANCELLED' }),
      );
      emit(venueLiquidation('L1', LIQUIDATION, 'SELL', String(leg), '0', t, { positionSide }, cancelled));
      pending.length = 0;
      liquidated = true;
      leg = 0;
    } else if (pick === 0 && next < commands.length) {
      const intent = (commands[next++] as (typeof commands)[number]).intent;
      if (intent.kind === 'placeOrder') {
        const buy: FilledOrder = { clientOrderId: intent.ref, side: 'BUY', positionSide };
        emit([anUpdateOf(buy, intent.qty?.toFixed() ?? '0', t)]);
        if (s.buysFill[buyNo++ % 2] === true) pending.push({ buy, qty: Number(intent.qty?.toFixed()) });
      } else if (leg === 0) {
        emit([
          {
            kind: 'commandRejected',
            ts: t,
            recvTs: t,
            ref: intent.ref,
            intentKind: intent.kind,
            code: 401097,
            message: 'no open position',
          },
        ]);
      } else {
        const name = `SIM-C-${++closeNo}`;
        madeBy.set(name, intent.ref);
        emit(venueClose(name, 'SELL', String(leg), t, hedge));
        leg = 0;
      }
    } else {
      const [fill] = pending.splice(pick - (next < commands.length ? 1 : 0), 1);
      if (fill === undefined) continue;
      leg += fill.qty;
      emit(filled(fill.buy, String(fill.qty), String(leg), t));
    }
  }
  if (leg !== 0) emit(venueClose('by-hand', 'SELL', String(leg), ts++, hedge));
  return { r, madeBy, owners };
}

describe('two strategies’ closes of one leg in flight at once', () => {
  it('give each close order to the close that made it where the venue makes them in send order, and to nobody else anywhere, each order left to nobody named in the warnings, a liquidation order to nobody and not in them', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { r, madeBy, owners } = play(s);
        const state = r.kernel.state;
        // The gate denies only a close of a leg nothing could open.
        for (const d of r.denials)
          expect(`${d.source} ${d.check}`).toMatch(/^(risk reduceOnly|venue venue\.)/);
        let unowned = 0;
        for (const [name, ref] of madeBy) {
          const owner = state.ownerOf(name);
          if (s.ordering === 'sendOrder') {
            expect(owner).toBe(owners.get(ref));
            expect(state.orders.closeRefOf(name)).toBe(ref);
          } else {
            expect([undefined, owners.get(ref)]).toContain(owner);
            if (owner === undefined) unowned++;
          }
        }
        const left = r.kernel.unattributedCloseOrders();
        expect(left.reduce((n, u) => n + u.count, 0)).toBe(unowned);
        expect(state.ownerOf('by-hand')).toBeUndefined();
        expect(state.ownerOf(LIQUIDATION)).toBeUndefined();
        expect(state.closes.idle).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});
