import { z } from 'zod';
import { envelopeSchema } from './common.ts';

/** Request envelope of the private WebSocket (spec): action, caller-chosen id, args. */
export interface WsRequest<A = unknown> {
  readonly action: string;
  readonly id: string;
  readonly args: A;
}

/** Schema of a request envelope, for the server side. */
export const wsRequestSchema = z.looseObject({
  action: z.string(),
  id: z.string(),
  args: z.looseObject({}),
});

/**
 * Reply envelope (spec): event, the echoed id, code (0 = success), message, data. The public
 * venue writes `msg` and may send `id: null` (login); both are accepted.
 */
export const wsReplySchema = z.looseObject({
  event: z.string(),
  id: z.union([z.string(), z.null()]).optional(),
  ...envelopeSchema.shape,
});
/** A decoded reply envelope. */
export type WsReplyWire = z.output<typeof wsReplySchema>;

/** The lower-case order actions of the public venue's own WebSocket order entry (per public venue docs). */
export const CRYPTO_WS_ACTIONS = ['place_order', 'replace_order', 'cancel_order', 'cancel_orders'] as const;
/** One lower-case order action. */
export type CryptoWsAction = (typeof CRYPTO_WS_ACTIONS)[number];

/** The spec's equities order action and its acknowledgement event. */
export const PLACE_ORDER_ACTION = 'PLACE_ORDER';
/** The acknowledgement event of PLACE_ORDER. */
export const PLACE_ORDER_ACK_EVENT = 'PLACE_ORDER_ACK';

/** Heartbeat text frames of the private WebSocket (per public venue docs). */
export const PRIVATE_PING = 'ping';
/** Reply to {@link PRIVATE_PING}. */
export const PRIVATE_PONG = 'pong';

/** Args of the login request (per public venue docs; the spec names onlyTrade). */
export interface LoginArgs {
  readonly apiKey: string;
  /** Unix time in seconds, as a string. */
  readonly timestamp: string;
  /** hex HMAC-SHA256(secret, timestamp + "GET" + "/users/self/verify"). */
  readonly sign: string;
  /** true: the connection carries order actions only, no pushed channels. */
  readonly onlyTrade: boolean;
}

/** Schema of the login request, for the server side. */
export const loginRequestSchema = z.looseObject({
  action: z.literal('login'),
  args: z.looseObject({
    apiKey: z.string(),
    timestamp: z.string().regex(/^\d+$/),
    sign: z.string(),
    onlyTrade: z.boolean().optional(),
  }),
});

/**
 * Builds the login request frame.
 * @param args - api key, timestamp, signature and onlyTrade
 * @returns the request object to JSON-encode
 */
export function loginRequest(args: LoginArgs): { action: 'login'; args: LoginArgs } {
  return { action: 'login', args };
}
