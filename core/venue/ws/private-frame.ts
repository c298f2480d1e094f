import type { UserEvent } from '../../model/index.ts';
import { DecodeError } from '../errors.ts';
import type { NamedOrder } from '../mapping/order-mapping.ts';
import { decodeUserDataBatch } from '../mapping/user-data-decoder.ts';
import { decodeWire, parseJson } from '../wire/decode.ts';
import { USER_DATA_CHANNELS, userDataFrameSchema } from '../wire/user-data.ts';
import { PRIVATE_PONG, type WsReplyWire, wsReplySchema } from '../wire/ws-envelope.ts';
import type { InboundCounters } from './inbound-counters.ts';
import type { RepeatedProblemLog } from './repeated-problem-log.ts';

/**
 * What an inbound private-WebSocket frame turned out to be. A User Data batch whose entries all
 * fail to decode is `malformed`; one with at least one good entry is `events`, and `badEntries`
 * says why each other entry was dropped. Either names the orders of the Orders entries dropped for
 * a state Keel does not know (`unknownStateOrders`), which the live client looks up.
 */
export type PrivateFrame =
  | { readonly kind: 'pong' }
  | { readonly kind: 'reply'; readonly reply: WsReplyWire }
  | {
      readonly kind: 'events';
      readonly events: readonly UserEvent[];
      /** One problem per entry of the batch that did not decode; empty when all did. */
      readonly badEntries: readonly string[];
      readonly unknownStateOrders: readonly NamedOrder[];
    }
  | {
      readonly kind: 'malformed';
      readonly problem: string;
      readonly unknownStateOrders?: readonly NamedOrder[];
    }
  | { readonly kind: 'unexpected'; readonly problem: string };

const CHANNELS = new Set<string>(USER_DATA_CHANNELS);

/**
 * Classifies and decodes one inbound frame of the private WebSocket. Never throws: anything that
 * is not a pong, a reply (`event`) or a User Data push (`channel`) comes back as malformed or
 * unexpected, with the reason.
 * @param text - the frame text
 * @param recvTs - local receive time, epoch ms
 * @returns the classified frame
 */
export function classifyPrivateFrame(text: string, recvTs: number): PrivateFrame {
  if (text === PRIVATE_PONG) return { kind: 'pong' };
  try {
    const value = parseJson(text, 'private WebSocket frame');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { kind: 'malformed', problem: 'private WebSocket frame is not a JSON object' };
    }
    if ('event' in value) {
      // Fast path for the common, well-typed reply (an order ack is on the hot path); anything
      // else goes through the schema, which names the offending field.
      const reply = value as {
        event?: unknown;
        code?: unknown;
        id?: unknown;
        message?: unknown;
        msg?: unknown;
      };
      const wellTyped =
        typeof reply.event === 'string' &&
        Number.isInteger(reply.code) &&
        (reply.id === undefined || reply.id === null || typeof reply.id === 'string') &&
        (reply.message === undefined || typeof reply.message === 'string') &&
        (reply.msg === undefined || typeof reply.msg === 'string');
      return {
        kind: 'reply',
        reply: wellTyped
          ? (value as WsReplyWire)
          : decodeWire(wsReplySchema, value, 'private WebSocket reply'),
      };
    }
    if ('channel' in value) {
      const frame = decodeWire(userDataFrameSchema, value, 'User Data frame');
      if (!CHANNELS.has(frame.channel.toLowerCase())) {
        return {
          kind: 'unexpected',
          problem: `User Data channel ${JSON.stringify(frame.channel)} is not one Keel knows`,
        };
      }
      const batch = decodeUserDataBatch(frame, recvTs);
      if (batch.events.length === 0 && batch.problems.length > 0) {
        return {
          kind: 'malformed',
          problem: batch.problems.join('; '),
          unknownStateOrders: batch.unknownStateOrders,
        };
      }
      return {
        kind: 'events',
        events: batch.events,
        badEntries: batch.problems,
        unknownStateOrders: batch.unknownStateOrders,
      };
    }
    return { kind: 'unexpected', problem: 'private WebSocket frame has neither event nor channel' };
  } catch (error) {
    if (error instanceof DecodeError || error instanceof TypeError) {
      return { kind: 'malformed', problem: error.message };
    }
    return { kind: 'malformed', problem: `private WebSocket frame could not be decoded: ${String(error)}` };
  }
}

/**
 * Logs and counts the bad entries of a User Data batch whose other entries were delivered: each
 * one is a malformed message (`counters.malformed`, a warning naming the entry and field, the
 * repeats of a problem summarized), the same contract as a malformed frame. The batch itself
 * counts once under `pushes`.
 * @param badEntries - the `badEntries` of an `events` frame
 * @param counters - the client's inbound counters, mutated
 * @param log - where the warnings go
 */
export function reportBadEntries(
  badEntries: readonly string[],
  counters: InboundCounters,
  log: RepeatedProblemLog,
): void {
  for (const problem of badEntries) {
    counters.malformed++;
    log.report(`User Data entry dropped (the good entries of its frame were delivered): ${problem}`);
  }
}
