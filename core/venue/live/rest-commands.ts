import {
  type AlgoOrder,
  formatDecimal,
  type IntentKind,
  type StrategyIntent,
  type UserEvent,
} from '../../model/index.ts';
import { accountFromWire, algoOrderFromWire } from '../mapping/user-data-mapping.ts';
import type { VenueRestClient } from '../rest/rest-client.ts';
import type { AlgoOrderWire } from '../wire/algo.ts';
import { cancelAllAlgoOrdersAndReadBack } from './algo-cancel-all.ts';
import { readLoanEvents } from './loan-events.ts';
import type { LoanReadOrder } from './loan-read-order.ts';

/**
 * Told that a read after a command the venue accepted failed: what it would have reported (the
 * loans, the account) is stale until the caller reads it again some other way.
 * @param what - what the read was for, e.g. `loans`
 * @param error - why it failed
 */
export type FollowUpFailed = (what: string, error: unknown) => void;

/** What a REST command reports to, and reads of the client. */
export interface RestCommandContext {
  /** Where the events of what changed go. */
  readonly emit: (event: UserEvent) => void;
  /** Event time, epoch ms. */
  readonly now: () => number;
  /** Told when the read after an accepted command failed. */
  readonly followUpFailed: FollowUpFailed;
  /** The algo orders the client reported open (those a cancel-all may end). */
  readonly openAlgoOrders: () => readonly AlgoOrder[];
  /** The order of the client's loan reads: a loan read's result is dropped once a later one's was applied. */
  readonly loanReads: LoanReadOrder;
  /**
   * Told once the venue accepted the command itself, before any read after it: the commands held
   * behind it may go.
   */
  readonly accepted?: () => void;
  /** Told of an algo order a cancel-all's read-back showed in a state Keel does not know (see `algo-cancel-all.ts`). */
  readonly unknownAlgoState?: (algoOrder: AlgoOrder, state: string) => void;
}

/**
 * Runs the intents that go over REST (algo orders, close position(s), loans, position mode) and
 * reports what changed as User Data events. A loan or position-mode change is followed by a read
 * of the loans or the account, a cancel of all algo orders by a read of each one it may have ended
 * (see `algo-cancel-all.ts`); that read failing does not make the command refused (the venue
 * accepted it, and a strategy told otherwise could send it again): it goes to `followUpFailed`.
 * The read of the loans is dropped when one sent after it was applied first (see
 * {@link LoanReadOrder}).
 * @param rest - the REST client
 * @param command - the intent
 * @param ctx - where events go, the clock, the failed-read report, the open algo orders and the
 *   order of loan reads
 * @returns when the venue answered
 * @throws whatever the REST client throws for the command itself (the caller turns it into a
 *   commandRejected event, or looks the command up)
 */
export async function runRestCommand(
  rest: VenueRestClient,
  command: StrategyIntent,
  ctx: RestCommandContext,
): Promise<void> {
  const { emit, now, followUpFailed } = ctx;
  const accepted = ctx.accepted ?? (() => undefined);
  const intent = command.intent;
  const algo = (wire: AlgoOrderWire) =>
    emit({ kind: 'algoOrder', ts: now(), recvTs: now(), algoOrder: algoOrderFromWire(wire) });
  switch (intent.kind) {
    case 'closePosition':
      await rest.closePosition({ sym: intent.sym, positionSide: intent.positionSide });
      accepted();
      return;
    case 'closePositions':
      await rest.closePositions({ symList: intent.symList });
      accepted();
      return;
    case 'placeAlgoOrder':
      algo(
        await rest.placeAlgoOrder({
          sym: intent.sym,
          side: intent.side,
          clientAlgoOrderId: intent.ref,
          algoOrderType: intent.algoOrderType,
          conditionType: intent.conditionType,
          triggerType: intent.triggerType,
          triggerPrice: formatDecimal(intent.triggerPrice),
          price: formatDecimal(intent.price),
          qty: formatDecimal(intent.qty),
          reduceOnly: intent.reduceOnly,
          positionSide: intent.positionSide,
        }),
      );
      return;
    case 'replaceAlgoOrder':
      algo(
        await rest.replaceAlgoOrder({
          clientAlgoOrderId: intent.target,
          sym: intent.sym,
          ...(intent.triggerPrice === undefined ? {} : { triggerPrice: formatDecimal(intent.triggerPrice) }),
          ...(intent.price === undefined ? {} : { price: formatDecimal(intent.price) }),
          ...(intent.qty === undefined ? {} : { qty: formatDecimal(intent.qty) }),
        }),
      );
      return;
    case 'cancelAlgoOrder':
      algo(await rest.cancelAlgoOrder({ clientAlgoOrderId: intent.target }));
      return;
    case 'cancelAllAlgoOrders':
      await cancelAllAlgoOrdersAndReadBack(rest, intent, ctx);
      return;
    case 'borrow':
    case 'repay': {
      const body = {
        exchange: intent.exchange,
        coin: intent.coin,
        amount: formatDecimal(intent.amount),
        clientId: intent.ref,
      };
      await (intent.kind === 'borrow' ? rest.marginBorrow(body) : rest.marginRepay(body));
      accepted();
      await followUp('loans', followUpFailed, async () => {
        const read = ctx.loanReads.send();
        const events = await readLoanEvents(rest, now(), intent);
        if (ctx.loanReads.admit(read)) for (const event of events) emit(event);
      });
      return;
    }
    case 'setPositionMode': {
      await rest.setPositionMode({ positionMode: intent.positionMode });
      accepted();
      await followUp('account', followUpFailed, async () => {
        const account = accountFromWire(await rest.getTradingAccount());
        emit({ kind: 'account', ts: now(), recvTs: now(), account });
      });
      return;
    }
    default:
      throw new TypeError(`intent ${intent.kind as IntentKind} does not go over REST`);
  }
}

/** Runs the read after an accepted command; its failure goes to `failed`, never to the command. */
async function followUp(what: string, failed: FollowUpFailed, read: () => Promise<void>): Promise<void> {
  try {
    await read();
  } catch (error) {
    failed(what, error);
  }
}
