import { gunzipSync } from 'node:zlib';
import type { MarketEvent } from '../../model/index.ts';
import { decodeMarketMessage, MarketDataDecodeError } from '../market-data/index.ts';

/** What an inbound market-data frame turned out to be. */
export type MarketFrame =
  | { readonly kind: 'event'; readonly event: MarketEvent; readonly text: string }
  | { readonly kind: 'ping'; readonly ping: unknown; readonly text: string }
  | { readonly kind: 'pong'; readonly text: string }
  | { readonly kind: 'control'; readonly code: number; readonly text: string; readonly message: string }
  | { readonly kind: 'malformed'; readonly problem: string; readonly text: string };

/**
 * Turns a frame into text: gzip-compressed binary frames (the venue's default, per public venue
 * docs) are gunzipped; text frames (`?binary=false`) pass as they are.
 * @param data - the frame payload
 * @param isBinary - whether it came as a binary frame
 * @returns the JSON text, or undefined when a binary frame is not gzip
 */
export function marketFrameText(data: Buffer | string, isBinary: boolean): string | undefined {
  if (!isBinary) return typeof data === 'string' ? data : data.toString('utf8');
  try {
    return gunzipSync(data as Buffer).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * Classifies and decodes one market-data frame text. Never throws.
 * @param text - the frame text
 * @param recvTs - local receive time, epoch ms
 * @returns the classified frame
 */
export function classifyMarketFrame(text: string, recvTs: number): MarketFrame {
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return { kind: 'malformed', problem: 'market-data frame is not JSON', text };
  }
  if (typeof msg === 'object' && msg !== null && !Array.isArray(msg)) {
    const m = msg as {
      ping?: unknown;
      pong?: unknown;
      event?: unknown;
      code?: unknown;
      msg?: unknown;
      message?: unknown;
    };
    if (m.ping !== undefined) return { kind: 'ping', ping: m.ping, text };
    if (m.pong !== undefined) return { kind: 'pong', text };
    if (typeof m.event === 'string') {
      const code = typeof m.code === 'number' ? m.code : Number(m.code ?? 0);
      const message = String(m.msg ?? m.message ?? m.event);
      return { kind: 'control', code: Number.isFinite(code) ? code : -1, text, message };
    }
  }
  try {
    const decoded = decodeMarketMessage(msg, recvTs);
    if (decoded instanceof MarketDataDecodeError)
      return { kind: 'malformed', problem: decoded.message, text };
    if (decoded === null) return { kind: 'control', code: 0, text, message: 'control' };
    return { kind: 'event', event: decoded, text };
  } catch (error) {
    return { kind: 'malformed', problem: `market-data frame could not be decoded: ${String(error)}`, text };
  }
}
