import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A REST request that went through the proxy. */
export interface ProxiedRequest {
  readonly method: string;
  readonly path: string;
}

/** An HTTP proxy on 127.0.0.1, port 0, in front of one REST venue, noting every request. */
export interface CountingRestProxy {
  /** The proxy's base URL, to give the client instead of the venue's. */
  readonly url: string;
  /** Every request forwarded, in arrival order. */
  readonly requests: ProxiedRequest[];
  /** @returns how many requests of this method went to this path */
  count(method: string, path: string): number;
  close(): Promise<void>;
}

/**
 * Starts a proxy that forwards every request unchanged (method, path with query, headers, body)
 * to `target` and its reply back, noting the request. A request signature covers the path,
 * query and body, never the host, so signed requests pass through.
 * @param target - the venue's REST base URL, e.g. a paper venue's `restUrl`
 * @returns the running proxy; close it in afterEach
 */
export async function startCountingRestProxy(target: string): Promise<CountingRestProxy> {
  const base = new URL(target);
  const requests: ProxiedRequest[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({ method: req.method ?? '', path: url.pathname });
    const upstream = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: base.host },
      },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    count: (method, path) => requests.filter((r) => r.method === method && r.path === path).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
