import type { ArrayEncoding, RequestParams } from '../../core/venue/index.ts';
import { verifySignature } from '../../core/venue/index.ts';
import { PaperApiError } from './envelope.ts';

/** The accepted nonce drift: ±60 s of the server's clock (per public venue docs). */
export const NONCE_TOLERANCE_SECONDS = 60;

/** A key the venue accepts, and the portfolio it acts on. */
export interface ApiCredential {
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly portfolioId: string;
}

function header(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  name: string,
): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Authenticates a REST request with the signing scheme of the public venue docs: `X-MBX-APIKEY`,
 * `nonce` (Unix seconds) and `signature` (hex HMAC-SHA256 over the sorted parameters and the
 * nonce).
 * @param headers - the request headers (lower-case names, as node:http gives them)
 * @param params - the query (GET) or JSON body (POST, PUT, DELETE)
 * @param credentials - the keys the venue accepts, by API key
 * @param nowMs - the server's clock, epoch ms (an injected port, not the virtual time)
 * @param arrays - how the venue writes an array parameter into the signed text
 * @returns the credential of the request
 * @throws PaperApiError 2002 (unknown key), 7000 (nonce outside ±60 s), 2000 (bad signature), HTTP 401
 */
export function authenticate(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  params: RequestParams,
  credentials: ReadonlyMap<string, ApiCredential>,
  nowMs: number,
  arrays: ArrayEncoding,
): ApiCredential {
  const { credential, nonce } = authenticateHeaders(headers, credentials, nowMs);
  const signature = header(headers, 'signature') ?? '';
  if (!verifySignature(credential.apiSecret, params, nonce, signature, arrays)) {
    throw new PaperApiError(
      2000,
      'the signature header does not match the request parameters and nonce',
      401,
    );
  }
  return credential;
}

/**
 * The part of {@link authenticate} the headers alone decide (a known API key, a fresh nonce), so a
 * request failing it is refused before its body is read.
 * @param headers - the request's headers
 * @param credentials - the venue's API keys
 * @param nowMs - the server's clock, epoch ms
 * @returns the key's credential and the nonce
 * @throws PaperApiError 2002 for a missing or unknown key, 7000 for a stale nonce
 */
export function authenticateHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  credentials: ReadonlyMap<string, ApiCredential>,
  nowMs: number,
): { readonly credential: ApiCredential; readonly nonce: string } {
  const apiKey = header(headers, 'X-MBX-APIKEY');
  const credential = apiKey === undefined ? undefined : credentials.get(apiKey);
  if (!credential) throw new PaperApiError(2002, 'the API key in X-MBX-APIKEY is missing or unknown', 401);
  const nonce = header(headers, 'nonce') ?? '';
  const seconds = /^\d+$/.test(nonce) ? Number(nonce) : Number.NaN;
  if (!(Math.abs(seconds - nowMs / 1000) <= NONCE_TOLERANCE_SECONDS)) {
    throw new PaperApiError(
      7000,
      `the nonce header ${JSON.stringify(nonce)} is not Unix seconds within ±${NONCE_TOLERANCE_SECONDS} s of the server clock`,
      401,
    );
  }
  return { credential, nonce };
}
