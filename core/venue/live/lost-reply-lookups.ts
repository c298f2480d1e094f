import type { AlgoOrder, Intent, UserEvent } from '../../model/index.ts';
import { VenueError } from '../errors.ts';
import { accountFromWire, positionFromWire } from '../mapping/user-data-mapping.ts';
import type { VenueRestClient } from '../rest/rest-client.ts';
import { type AlgoOrderAnswer, algoOrderAnswer } from './algo-order-lookup.ts';
import { type MovedLoan, readLoanEvents } from './loan-events.ts';
import type { LoanReadOrder } from './loan-read-order.ts';

/** What looking up a REST command whose reply was lost needs. */
export interface LostReplyLookupContext {
  readonly rest: VenueRestClient;
  /** Event time, epoch ms. */
  readonly now: () => number;
  /** Algo orders Keel believes open (for a lost cancelAllAlgoOrders). */
  readonly openAlgoOrders: () => readonly AlgoOrder[];
  /** The order of the client's loan reads: numbers a loan lookup's read as it is sent. */
  readonly loanReads: LoanReadOrder;
}

/** What one lookup found: the venue's state as events, and whether the command took effect. */
export interface LostReplyVerdict {
  readonly events: readonly UserEvent[];
  /** True when the venue's state shows the command took effect. */
  readonly applied: boolean;
  /** What the venue shows, as a sentence part, for the strategy when it did not. */
  readonly detail: string;
  /** True when the venue's state cannot tell whether the command took effect. */
  readonly unknown?: boolean;
  /**
   * The algo orders the venue showed in a state Keel does not know (see {@link algoOrderAnswer}):
   * ended CANCELLED in the events, though the venue may still hold them, so they are looked up
   * again while the lost-reply policy allows, and a warning names them when their state stays unknown.
   */
  readonly unknownAlgoStates?: readonly UnknownAlgoState[];
  /**
   * When the events are a read of the loans, its number: they may be applied only if
   * {@link LoanReadOrder.admit} admits it when they are.
   */
  readonly loanRead?: number;
}

/** An algo order a lookup found in a state Keel does not know. */
export interface UnknownAlgoState {
  readonly clientAlgoOrderId: string;
  /** The state the venue showed. */
  readonly state: string;
}

/**
 * Looks up, once, what the venue holds after a REST command whose reply was lost: the algo order
 * by clientAlgoOrderId (one the venue shows in a state Keel does not know is taken as not open,
 * see {@link algoOrderAnswer}: reported ended CANCELLED and listed in the verdict's
 * `unknownAlgoStates`; so a lost placement took effect, a lost cancel too, a lost replace did
 * not), the loan order by clientId (then the loans), the position after a close, the account's
 * position mode.
 * @param intent - the command
 * @param ctx - the REST client, the clock and the local open algo orders
 * @returns the venue's state as events and whether the command took effect
 * @throws whatever the REST client throws, except "order not found" (a verdict)
 */
export async function lookUpLostCommand(
  intent: Intent,
  ctx: LostReplyLookupContext,
): Promise<LostReplyVerdict> {
  const stamp = { ts: ctx.now(), recvTs: ctx.now() };
  const algoEvent = (algoOrder: AlgoOrder): UserEvent => ({ kind: 'algoOrder', ...stamp, algoOrder });
  const unknownOf = (found: AlgoOrderAnswer): { unknownAlgoStates?: UnknownAlgoState[] } =>
    found.unknownState === undefined
      ? {}
      : {
          unknownAlgoStates: [
            { clientAlgoOrderId: found.algoOrder.clientAlgoOrderId, state: found.unknownState },
          ],
        };
  switch (intent.kind) {
    case 'placeAlgoOrder': {
      const found = await findAlgo(ctx, intent.ref);
      return found === undefined
        ? { events: [], applied: false, detail: `the venue has no algo order ${intent.ref}` }
        : { events: [algoEvent(found.algoOrder)], applied: true, detail: '', ...unknownOf(found) };
    }
    case 'replaceAlgoOrder': {
      const found = await findAlgo(ctx, intent.target);
      if (found === undefined)
        return { events: [], applied: false, detail: `the venue has no algo order ${intent.target}` };
      const algo = found.algoOrder;
      if (found.unknownState !== undefined)
        return {
          events: [algoEvent(algo)],
          applied: false,
          detail: `algo order ${intent.target} is no longer open (the venue shows ${found.unknownState})`,
          ...unknownOf(found),
        };
      const applied =
        (intent.triggerPrice === undefined || algo.triggerPrice.eq(intent.triggerPrice)) &&
        (intent.price === undefined || algo.price.eq(intent.price)) &&
        (intent.qty === undefined || algo.qty.eq(intent.qty));
      return { events: [algoEvent(algo)], applied, detail: `algo order ${intent.target} shows no change` };
    }
    case 'cancelAlgoOrder': {
      const found = await findAlgo(ctx, intent.target);
      if (found === undefined)
        return { events: [], applied: false, detail: `the venue has no algo order ${intent.target}` };
      const algo = found.algoOrder;
      return {
        events: [algoEvent(algo)],
        applied: algo.state !== 'NEW',
        detail: `algo order ${intent.target} is still open`,
        ...unknownOf(found),
      };
    }
    case 'cancelAllAlgoOrders': {
      const events: UserEvent[] = [];
      const unknownAlgoStates: UnknownAlgoState[] = [];
      let open = 0;
      for (const local of ctx.openAlgoOrders()) {
        if (intent.sym !== undefined && local.sym !== intent.sym) continue;
        if (intent.algoOrderType !== undefined && local.algoOrderType !== intent.algoOrderType) continue;
        const found = await findAlgo(ctx, local.clientAlgoOrderId);
        if (found === undefined) continue;
        events.push(algoEvent(found.algoOrder));
        unknownAlgoStates.push(...(unknownOf(found).unknownAlgoStates ?? []));
        if (found.algoOrder.state === 'NEW') open++;
      }
      return {
        events,
        applied: open === 0,
        detail: `${open} of the algo orders are still open`,
        ...(unknownAlgoStates.length === 0 ? {} : { unknownAlgoStates }),
      };
    }
    case 'borrow':
    case 'repay': {
      const page = await ctx.rest.getMarginLoanOrders({ coin: intent.coin, pageSize: 100 });
      const order = page.list.find((entry) => entry.clientId === intent.ref);
      if (order === undefined) {
        // A venue that does not echo clientId cannot say: the loans are reported as they are and
        // the outcome is called unknown, rather than claiming the command did not take effect.
        if (page.list.length > 0 && page.list.every((entry) => entry.clientId === undefined)) {
          return {
            ...(await readLoansNumbered(ctx, intent)),
            applied: false,
            unknown: true,
            detail: "the venue's loan orders carry no clientId (see the loans reported)",
          };
        }
        return {
          events: [],
          applied: false,
          detail: `the venue lists no loan order with clientId ${intent.ref}`,
        };
      }
      return {
        ...(await readLoansNumbered(ctx, intent)),
        applied: true,
        detail: '',
      };
    }
    case 'closePosition':
    case 'closePositions': {
      const syms = intent.kind === 'closePosition' ? [intent.sym] : intent.symList;
      const positions = (await ctx.rest.getPositions())
        .map(positionFromWire)
        .filter(
          (p) =>
            syms.includes(p.sym) &&
            (intent.kind === 'closePositions' || p.positionSide === intent.positionSide),
        );
      const held = positions.filter((p) => !p.positionQty.isZero());
      return {
        events: positions.map((position) => ({ kind: 'position', ...stamp, position })),
        applied: held.length === 0,
        detail: `the venue still holds ${held.map((p) => `${p.positionQty.toFixed()} ${p.sym}`).join(', ')}`,
      };
    }
    case 'setPositionMode': {
      const account = accountFromWire(await ctx.rest.getTradingAccount());
      return {
        events: [{ kind: 'account', ...stamp, account }],
        applied: account.positionMode === intent.positionMode,
        detail: `the account's position mode is still ${account.positionMode}`,
      };
    }
    default:
      return { events: [], applied: false, detail: `Keel cannot look up a ${intent.kind} command` };
  }
}

/** Reads the loans as `loan` events, numbered as the read is sent. */
async function readLoansNumbered(
  ctx: LostReplyLookupContext,
  moved: MovedLoan,
): Promise<{ events: UserEvent[]; loanRead: number }> {
  const loanRead = ctx.loanReads.send();
  return { events: await readLoanEvents(ctx.rest, ctx.now(), moved), loanRead };
}

/**
 * The algo order with this clientAlgoOrderId, or undefined when the venue answers 401018; one in
 * a state Keel does not know is ended, not open ({@link algoOrderAnswer}), its state named.
 */
async function findAlgo(
  ctx: LostReplyLookupContext,
  clientAlgoOrderId: string,
): Promise<AlgoOrderAnswer | undefined> {
  try {
    return algoOrderAnswer(await ctx.rest.getAlgoOrder({ clientAlgoOrderId }), ctx.now());
  } catch (error) {
    if (error instanceof VenueError && error.code === 401018) return undefined;
    throw error;
  }
}
