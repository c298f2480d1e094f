import type { UserEvent } from '../../model/index.ts';
import { DecodeError } from '../errors.ts';
import { accountWireSchema, assetWireSchema } from '../wire/account.ts';
import { decodeWire } from '../wire/decode.ts';
import { executionWireSchema } from '../wire/execution.ts';
import { liquidationEventWireSchema, liquidationPositionWireSchema } from '../wire/liquidation.ts';
import { orderWireSchema } from '../wire/order.ts';
import { positionWireSchema } from '../wire/position.ts';
import type { UserDataFrameWire } from '../wire/user-data.ts';
import { type NamedOrder, orderFromWire, UnknownOrderStateError } from './order-mapping.ts';
import {
  accountFromWire,
  assetFromWire,
  executionFromWire,
  liquidationEventFromWire,
  liquidationPositionFromWire,
  positionFromWire,
} from './user-data-mapping.ts';

function one(channel: string, item: unknown, index: number, ts: number, recvTs: number): UserEvent {
  const where = `${channel} channel data[${index}]`;
  switch (channel.toLowerCase()) {
    case 'orders': {
      const order = orderFromWire(decodeWire(orderWireSchema, item, where), where);
      return { kind: 'order', ts: ts || order.updateAt, recvTs, order };
    }
    case 'trades': {
      const execution = executionFromWire(decodeWire(executionWireSchema, item, where));
      return { kind: 'execution', ts: ts || execution.timestamp, recvTs, execution };
    }
    case 'positions': {
      const position = positionFromWire(decodeWire(positionWireSchema, item, where));
      return { kind: 'position', ts: ts || position.updateAt, recvTs, position };
    }
    case 'assets':
      return {
        kind: 'asset',
        ts: ts || recvTs,
        recvTs,
        asset: assetFromWire(decodeWire(assetWireSchema, item, where)),
      };
    case 'accounts':
      return {
        kind: 'account',
        ts: ts || recvTs,
        recvTs,
        account: accountFromWire(decodeWire(accountWireSchema, item, where)),
      };
    case 'liquidationevent': {
      const record = liquidationEventFromWire(decodeWire(liquidationEventWireSchema, item, where));
      if (record === undefined) {
        throw new DecodeError(where, [
          { path: 'nodeType', problem: 'is not an event / node type Keel knows' },
        ]);
      }
      return { kind: 'liquidationEvent', ts: ts || record.timestamp, recvTs, record };
    }
    case 'liquidationposition':
    case 'liquidationpositionbyuser': {
      const record = liquidationPositionFromWire(decodeWire(liquidationPositionWireSchema, item, where));
      return {
        kind: 'liquidationPosition',
        byUser: channel.toLowerCase() === 'liquidationpositionbyuser',
        ts: ts || record.timestamp,
        recvTs,
        record,
      };
    }
    default:
      throw new DecodeError(`${channel} channel`, [
        { path: 'channel', problem: 'is not a User Data channel' },
      ]);
  }
}

/** A User Data frame decoded entry by entry: the entries that decoded, and why the others did not. */
export interface UserDataBatch {
  /** The events of the entries that decoded, in payload order. */
  readonly events: UserEvent[];
  /** One sentence per entry that did not decode (it names the channel, the index and the field). */
  readonly problems: string[];
  /**
   * The orders of the Orders entries dropped for an orderState Keel does not know (each also among
   * the problems): only a lookup tells what became of them.
   */
  readonly unknownStateOrders: NamedOrder[];
}

/**
 * Decodes a User Data frame entry by entry, so one bad entry costs only itself: the good entries
 * of the same frame (a valid fill next to a mistyped one) are still delivered, and an order update
 * in a state Keel does not know names its order for a lookup. Never throws.
 * @param frame - the decoded frame envelope
 * @param recvTs - local receive time, epoch ms
 * @returns the good entries' events and one problem per bad entry
 */
export function decodeUserDataBatch(frame: UserDataFrameWire, recvTs: number): UserDataBatch {
  const items = Array.isArray(frame.data) ? frame.data : [frame.data];
  const ts = frame.ts ?? 0;
  const events: UserEvent[] = [];
  const problems: string[] = [];
  const unknownStateOrders: NamedOrder[] = [];
  items.forEach((item, index) => {
    try {
      events.push(one(frame.channel, item, index, ts, recvTs));
    } catch (error) {
      if (error instanceof UnknownOrderStateError) unknownStateOrders.push(error.order);
      problems.push(
        error instanceof Error
          ? error.message
          : `${frame.channel} channel data[${index}] could not be decoded: ${String(error)}`,
      );
    }
  });
  return { events, problems, unknownStateOrders };
}

/**
 * Decodes a User Data frame into model events, one per payload entry, all or nothing (a replay
 * or test that wants every entry). The live client uses {@link decodeUserDataBatch}, which keeps
 * the good entries of a frame with a bad one.
 * @param frame - the decoded frame envelope
 * @param recvTs - local receive time, epoch ms
 * @returns the events in payload order
 * @throws DecodeError when the channel is unknown or a payload misses or mistypes a field
 * @throws TypeError when a decimal field is not a decimal string
 */
export function userEventsFromFrame(frame: UserDataFrameWire, recvTs: number): UserEvent[] {
  const items = Array.isArray(frame.data) ? frame.data : [frame.data];
  const ts = frame.ts ?? 0;
  return items.map((item, index) => one(frame.channel, item, index, ts, recvTs));
}
