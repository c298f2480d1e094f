import { createHmac } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { WebSocket } from 'ws';

/** Where and as whom a test talks to a paper venue. */
export interface PaperEndpoint {
  readonly restUrl: string;
  readonly apiKey: string;
  readonly apiSecret: string;
}

/** Overrides of a hand-signed request, to provoke auth failures. */
export interface SigningOverrides {
  readonly apiKey?: string;
  readonly secret?: string;
  readonly nonceSeconds?: number;
  /** Rewrites the right signature before it is sent, to provoke a malformed one. */
  readonly signatureOf?: (right: string) => string;
}

/** A REST reply: HTTP status, headers and the parsed body. */
export interface PlainReply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: { code: number; message: string; data: unknown } & Record<string, unknown>;
}

function valueText(value: unknown): string {
  if (Array.isArray(value)) return value.map(valueText).join(',');
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Signs by hand, independently of Keel's client: sorted `k=v` pairs with raw values, `&`, nonce;
 * hex HMAC-SHA256 with the secret (the public venue docs' scheme).
 * @param secret - the secret key
 * @param params - the parameters
 * @param nonce - Unix seconds as text
 * @returns the signature
 */
export function handSignature(secret: string, params: Record<string, unknown>, nonce: string): string {
  const pairs = Object.keys(params)
    .filter((k) => params[k] !== undefined && params[k] !== null)
    .sort()
    .map((k) => `${k}=${valueText(params[k])}`)
    .join('&');
  return createHmac('sha256', secret).update(`${pairs}&${nonce}`).digest('hex');
}

/**
 * Sends a hand-signed REST request with plain fetch.
 * @param venue - where and as whom
 * @param method - GET, POST, PUT or DELETE
 * @param path - the endpoint path
 * @param params - query (GET) or JSON body
 * @param overrides - a different key, secret or nonce
 * @returns status and body
 */
export async function signedRest(
  venue: PaperEndpoint,
  method: string,
  path: string,
  params: Record<string, unknown> = {},
  overrides: SigningOverrides = {},
): Promise<PlainReply> {
  const nonce = String(overrides.nonceSeconds ?? Math.floor(Date.now() / 1000));
  const right = handSignature(overrides.secret ?? venue.apiSecret, params, nonce);
  const signature = overrides.signatureOf?.(right) ?? right;
  const headers: Record<string, string> = {
    'X-MBX-APIKEY': overrides.apiKey ?? venue.apiKey,
    nonce,
    signature,
    'content-type': 'application/json',
  };
  const query = new URLSearchParams(
    Object.entries(params).map(([k, v]): [string, string] => [k, valueText(v)]),
  ).toString();
  const url =
    method === 'GET' && query !== '' ? `${venue.restUrl}${path}?${query}` : `${venue.restUrl}${path}`;
  const response = await fetch(url, {
    method,
    headers,
    ...(method === 'GET' ? {} : { body: JSON.stringify(params) }),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as PlainReply['body'],
  };
}

/** A WebSocket whose frames the test reads back (gzip frames are unzipped). */
export interface CollectingSocket {
  readonly ws: WebSocket;
  readonly frames: string[];
  /** Whether each frame arrived binary (gzip). */
  readonly binary: boolean[];
  send(body: unknown): void;
  /**
   * Waits for a frame the predicate accepts (frames from `from` on).
   * @returns the first matching frame, parsed when JSON
   */
  // biome-ignore lint/suspicious/noExplicitAny: frames are arbitrary JSON the tests inspect field by field
  waitFor(predicate: (frame: any) => boolean, timeoutMs?: number, from?: number): Promise<any>;
  close(): Promise<void>;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Opens a WebSocket that collects every frame.
 * @param url - the ws:// address
 * @returns the socket, open
 */
export async function openCollecting(url: string): Promise<CollectingSocket> {
  const ws = new WebSocket(url);
  const frames: string[] = [];
  const binary: boolean[] = [];
  ws.on('message', (data: Buffer, isBinary) => {
    binary.push(isBinary);
    frames.push(isBinary ? gunzipSync(data).toString('utf8') : data.toString('utf8'));
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    ws,
    frames,
    binary,
    send: (body) => ws.send(typeof body === 'string' ? body : JSON.stringify(body)),
    async waitFor(predicate, timeoutMs = 3000, from = 0) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        for (let i = from; i < frames.length; i++) {
          const frame = parsed(frames[i] as string);
          if (predicate(frame)) return frame;
        }
        if (Date.now() > deadline)
          throw new Error(`no matching frame within ${timeoutMs} ms; got ${frames.join('\n')}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (ws.readyState === ws.CLOSED) resolve();
        else {
          ws.once('close', () => resolve());
          ws.terminate();
        }
      }),
  };
}

/**
 * Opens the private WebSocket and logs in with a hand-made signature.
 * @param url - the private ws:// address
 * @param venue - key and secret
 * @param onlyTrade - the login's onlyTrade flag
 * @param timestampSeconds - the login's timestamp, Unix seconds (default this machine's clock;
 *   a paper venue replaying in realtime pacing checks it against its replay's clock)
 * @returns the socket after the login reply
 */
export async function loggedIn(
  url: string,
  venue: PaperEndpoint,
  onlyTrade = false,
  timestampSeconds = Math.floor(Date.now() / 1000),
): Promise<CollectingSocket> {
  const socket = await openCollecting(url);
  const timestamp = String(timestampSeconds);
  const sign = createHmac('sha256', venue.apiSecret)
    .update(`${timestamp}GET/users/self/verify`)
    .digest('hex');
  socket.send({ action: 'login', args: { apiKey: venue.apiKey, timestamp, sign, onlyTrade } });
  const reply = await socket.waitFor((f) => f?.event === 'login');
  if (reply.code !== 0) throw new Error(`login refused: ${JSON.stringify(reply)}`);
  return socket;
}

/**
 * A BBO push in the venue's wire shape.
 * @param sym - the symbol
 * @param bid - bid price text
 * @param ask - ask price text
 * @param ts - venue and receive time, epoch ms
 * @param size - size at both sides
 * @returns the push with its receive time
 */
export function bboPush(sym: string, bid: string, ask: string, ts: number, size = '5') {
  return {
    recvTs: ts,
    msg: { arg: { channel: 'BBO', sym }, data: { bid, bidqty: size, ask, askqty: size, ts } },
  };
}

/**
 * PLACE_ORDER args of a marketable AAPL limit buy: 10 shares at 190.02, the ask the scripted feed
 * quotes at T0 (19:00 New York, after the regular session).
 * @param extra - args to add or replace (reference, extendedTrading, a condition...)
 * @returns the args
 */
export function aaplBuyArgs(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    brokerClientId: 'PAPER-MAIN',
    exchangeCode: 'US',
    productCode: 'AAPL',
    bsFlag: 'B',
    orderType: 'L',
    price: '190.02',
    qty: 10,
    ...extra,
  };
}
