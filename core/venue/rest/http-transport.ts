import { Pool } from 'undici';
import { CLOCK_RATE_HEADER } from '../server-clock.ts';
import type { HttpMethod } from './endpoints.ts';

/** One HTTP exchange as the REST client needs it. */
export interface HttpRequest {
  readonly method: HttpMethod;
  /** Path with query string. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly timeoutMs: number;
}

/**
 * The answer: status, body text, the `Date` header (the server's clock, to the second), the
 * `Retry-After` header (how long a 429 asks to wait) and Keel's paper-venue extension header
 * {@link CLOCK_RATE_HEADER} (how fast that clock runs).
 */
export interface HttpResponse {
  readonly status: number;
  readonly body: string;
  readonly date?: string;
  readonly retryAfter?: string;
  readonly clockRate?: string;
}

/** Sends HTTP requests; the REST client's only I/O. */
export interface HttpTransport {
  /**
   * @param request - the request
   * @returns the response
   * @throws Error on network failure or timeout (undici's UND_ERR_* codes)
   */
  send(request: HttpRequest): Promise<HttpResponse>;
  /**
   * Closes the connections, letting the requests under way finish.
   * @param withinMs - how long they may take; then they are ended (they fail at once); 0 or less
   *   ends them at once. Default no limit.
   */
  close(withinMs?: number): Promise<void>;
}

/**
 * An HTTP transport on an undici keep-alive Pool: connections are reused between requests, so a
 * request does not pay a TCP (and TLS) handshake.
 * @param baseUrl - the REST base address (the spec's `{base_url}`); a path prefix is kept
 * @param connections - most sockets kept open to the origin
 * @returns the transport
 */
export function undiciTransport(baseUrl: string, connections = 8): HttpTransport {
  const url = new URL(baseUrl);
  const prefix = url.pathname.replace(/\/$/, '');
  const pool = new Pool(url.origin, { connections, keepAliveTimeout: 30_000, pipelining: 1 });
  return {
    async send(request) {
      const response = await pool.request({
        method: request.method,
        path: prefix + request.path,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        headersTimeout: request.timeoutMs,
        bodyTimeout: request.timeoutMs,
      });
      const body = await response.body.text();
      const { date, 'retry-after': retryAfter, [CLOCK_RATE_HEADER]: clockRate } = response.headers;
      return {
        status: response.statusCode,
        body,
        ...(typeof date === 'string' ? { date } : {}),
        ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
        ...(typeof clockRate === 'string' ? { clockRate } : {}),
      };
    },
    async close(withinMs) {
      // Closed at once before (a stop with no time for requests): nothing is left to close.
      if (pool.destroyed) return;
      if (withinMs !== undefined && withinMs <= 0) return pool.destroy();
      const closing = pool.close();
      if (withinMs === undefined) return closing;
      let timer: NodeJS.Timeout | undefined;
      const late = await Promise.race([
        closing.then(() => false),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(true), withinMs);
        }),
      ]);
      clearTimeout(timer);
      if (late) await pool.destroy();
    },
  };
}
