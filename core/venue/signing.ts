import { createHmac, timingSafeEqual } from 'node:crypto';

/** Request parameters as Keel sends them: a query (GET) or a JSON body (POST, PUT, DELETE). */
export type RequestParams = Readonly<Record<string, unknown>>;

/**
 * Signs venue requests. Pluggable so a key can live in an HSM or a separate signing process;
 * {@link hmacSigner} is the default.
 */
export interface Signer {
  /** The API key sent in `X-MBX-APIKEY` and in the WebSocket login. */
  readonly apiKey: string;
  /**
   * Signs a payload.
   * @param payload - the exact text to sign
   * @returns lower-case hex HMAC-SHA256
   */
  sign(payload: string): string;
}

/**
 * How an array parameter of a JSON body (`symList` of close positions, `clientOrderIds` of cancel
 * all) is written into the signed text; the public venue docs do not say, so it is a setting
 * (`venue.signing.arrays`). A query string's array (the fee-rate query's `syms`, `portfolioIds`)
 * is not: it reaches the venue as the text sent, comma-joined items, and is signed as that text.
 * `comma` joins the items with commas (`a,b`, Keel's default), `json` writes the array as JSON
 * (`["a","b"]`), `brackets` as a bracketed list (`[a, b]`, how a Java list prints).
 */
export type ArrayEncoding = 'comma' | 'json' | 'brackets';

/** Every {@link ArrayEncoding}, the default first. */
export const ARRAY_ENCODINGS = ['comma', 'json', 'brackets'] as const satisfies readonly ArrayEncoding[];

/** The array encoding Keel signs and the paper venue verifies with unless told otherwise (Keel's choice). */
export const DEFAULT_ARRAY_ENCODING: ArrayEncoding = 'comma';

/**
 * How one parameter value is written into the signed text: raw (not URL-encoded) per public
 * venue docs. Arrays as `arrays` says, objects JSON-encoded (Keel's choice: the docs do not say).
 * @param value - the parameter value
 * @param arrays - how an array is written (default {@link DEFAULT_ARRAY_ENCODING})
 * @returns its text
 */
export function paramText(value: unknown, arrays: ArrayEncoding = DEFAULT_ARRAY_ENCODING): string {
  if (Array.isArray(value)) {
    if (arrays === 'json') return JSON.stringify(value);
    const items = value.map((item) => paramText(item, arrays));
    return arrays === 'brackets' ? `[${items.join(', ')}]` : items.join(',');
  }
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * The text a REST signature covers (per public venue docs): parameters sorted by key, joined as
 * `k1=v1&k2=v2` with raw values, then `&` and the nonce; `&<nonce>` without parameters.
 * Parameters whose value is undefined or null are not sent and not signed.
 * @param params - query or body parameters
 * @param nonce - Unix time in seconds, as sent in the `nonce` header
 * @param arrays - how an array parameter is written (default {@link DEFAULT_ARRAY_ENCODING})
 * @returns the text to sign
 */
export function restSignaturePayload(
  params: RequestParams,
  nonce: string,
  arrays: ArrayEncoding = DEFAULT_ARRAY_ENCODING,
): string {
  const keys = Object.keys(params)
    .filter((key) => params[key] !== undefined && params[key] !== null)
    .sort();
  return `${keys.map((key) => `${key}=${paramText(params[key], arrays)}`).join('&')}&${nonce}`;
}

/**
 * The text the private WebSocket login signs (per public venue docs).
 * @param timestamp - Unix time in seconds, as sent in the login args
 * @returns `timestamp + "GET" + "/users/self/verify"`
 */
export function loginSignaturePayload(timestamp: string): string {
  return `${timestamp}GET/users/self/verify`;
}

/**
 * The default signer: hex HMAC-SHA256 with the secret key.
 * @param apiKey - the API key
 * @param secret - the secret key; kept in the closure, never logged or recorded
 * @returns the signer
 */
export function hmacSigner(apiKey: string, secret: string): Signer {
  return {
    apiKey,
    sign: (payload) => createHmac('sha256', secret).update(payload).digest('hex'),
  };
}

/** The three authentication headers of a REST request. */
export interface SignedHeaders {
  readonly 'X-MBX-APIKEY': string;
  readonly nonce: string;
  readonly signature: string;
}

/**
 * Signs a REST request.
 * @param signer - the signer
 * @param params - query or body parameters
 * @param nonceSeconds - Unix time in seconds
 * @param arrays - how an array parameter is written (default {@link DEFAULT_ARRAY_ENCODING})
 * @returns the headers X-MBX-APIKEY, nonce and signature
 */
export function signRequest(
  signer: Signer,
  params: RequestParams,
  nonceSeconds: number,
  arrays: ArrayEncoding = DEFAULT_ARRAY_ENCODING,
): SignedHeaders {
  const nonce = String(nonceSeconds);
  return {
    'X-MBX-APIKEY': signer.apiKey,
    nonce,
    signature: signer.sign(restSignaturePayload(params, nonce, arrays)),
  };
}

/**
 * Whether a received signature is the expected hex text, in constant time. The whole text is
 * checked before it is decoded: Buffer's hex decoding stops at a first odd or non-hex digit, so
 * the right signature with more digits after it would decode to the right bytes. Either letter
 * case is taken: the public venue docs say only "hex".
 */
function sameHex(expected: string, given: string): boolean {
  if (given.length !== expected.length || !/^[0-9a-f]*$/i.test(given)) return false;
  return timingSafeEqual(Buffer.from(given, 'hex'), Buffer.from(expected, 'hex'));
}

/**
 * Checks a REST signature (server side: the paper venue).
 * @param secret - the secret key of the API key
 * @param params - the received query or body parameters
 * @param nonce - the received nonce header
 * @param signature - the received signature header
 * @param arrays - how the venue writes an array parameter (default {@link DEFAULT_ARRAY_ENCODING})
 * @returns true when the signature matches
 */
export function verifySignature(
  secret: string,
  params: RequestParams,
  nonce: string,
  signature: string,
  arrays: ArrayEncoding = DEFAULT_ARRAY_ENCODING,
): boolean {
  return sameHex(hmacSigner('', secret).sign(restSignaturePayload(params, nonce, arrays)), signature);
}

/**
 * Checks a WebSocket login signature (server side).
 * @param secret - the secret key
 * @param timestamp - the login args' timestamp
 * @param sign - the login args' sign
 * @returns true when it matches
 */
export function verifyLoginSignature(secret: string, timestamp: string, sign: string): boolean {
  return sameHex(hmacSigner('', secret).sign(loginSignaturePayload(timestamp)), sign);
}
