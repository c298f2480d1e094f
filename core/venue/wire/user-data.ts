import { z } from 'zod';

/**
 * The User Data channels pushed after login (spec; per public venue docs for Positions). Keel
 * matches channel names case-insensitively.
 */
export const USER_DATA_CHANNELS = [
  'orders',
  'trades',
  'positions',
  'assets',
  'accounts',
  'liquidationevent',
  'liquidationposition',
  'liquidationpositionbyuser',
] as const;
/** A User Data channel name, lower-cased. */
export type UserDataChannel = (typeof USER_DATA_CHANNELS)[number];

/**
 * A User Data push frame. The spec and the public docs do not show the frame's envelope: Keel's
 * choice is `{ "channel": "<name>", "data": <object or array of objects>, "ts"?: <ms> }`, the
 * same `channel` / `data` shape as the public market-data feed.
 */
export const userDataFrameSchema = z.looseObject({
  channel: z.string(),
  ts: z.number().optional(),
  data: z.union([z.array(z.unknown()), z.looseObject({})]),
});
/** A decoded User Data frame (payload not yet decoded). */
export type UserDataFrameWire = z.output<typeof userDataFrameSchema>;

/**
 * Builds a User Data push frame (server side).
 * @param channel - the channel name as the venue writes it (e.g. `Orders`)
 * @param data - one payload or a list
 * @param ts - push time, epoch ms
 * @returns the frame object to JSON-encode
 */
export function userDataFrame(
  channel: string,
  data: unknown,
  ts: number,
): { channel: string; ts: number; data: unknown } {
  return { channel, ts, data };
}
