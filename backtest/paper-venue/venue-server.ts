import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { type MarketDataDeps, MarketDataSession } from './market-data-ws.ts';
import { PrivateSession, type PrivateSessionDeps } from './private-ws-session.ts';
import { type RestRouterDeps, restHandler } from './rest-router.ts';
import type { VenueConnections } from './venue-connections.ts';

/** What the venue's HTTP server serves. */
export interface VenueServerDeps {
  /** Address to listen on. */
  readonly host: string;
  /** Port; 0 picks a free one. */
  readonly port: number;
  /** The REST interface's services. */
  readonly rest: RestRouterDeps;
  /** What each private WebSocket session gets. */
  readonly privateSession: PrivateSessionDeps;
  /** What each market-data WebSocket session gets. */
  readonly marketData: MarketDataDeps;
  /** Where new WebSocket sessions are kept. */
  readonly connections: VenueConnections;
}

/** The venue's listening HTTP server: its addresses, and how to close it. */
export interface VenueServer {
  /** Base URL of the REST interface. */
  readonly restUrl: string;
  /** URL of the private WebSocket. */
  readonly privateWsUrl: string;
  /** URL of the market-data WebSocket. */
  readonly marketDataWsUrl: string;
  /** Closes every connection (a close frame 1001, going away: see `VenueConnections.closeAll`) and the server. */
  close(): Promise<void>;
}

/** Path of the private WebSocket (per public venue docs). */
export const PRIVATE_WS_PATH = '/v1/private';
/** Path of the public market-data WebSocket (per public venue docs). */
export const MARKET_DATA_WS_PATH = '/marketdata/v2/public';

/**
 * Listens for the venue's REST requests and WebSocket upgrades: the private socket at
 * {@link PRIVATE_WS_PATH}, the market-data socket at {@link MARKET_DATA_WS_PATH} (gzip frames
 * unless `?binary=false`); an upgrade to any other path is refused.
 * @param deps - address, and what REST and each kind of session get
 * @returns the listening server
 * @throws Error (the listen error) when the address cannot be bound
 */
export async function startVenueServer(deps: VenueServerDeps): Promise<VenueServer> {
  const { connections } = deps;
  const server: Server = createServer(restHandler(deps.rest));
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== PRIVATE_WS_PATH && url.pathname !== MARKET_DATA_WS_PATH) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (url.pathname === PRIVATE_WS_PATH)
        connections.addPrivate(new PrivateSession(ws, deps.privateSession));
      else {
        const binary = url.searchParams.get('binary') !== 'false';
        connections.addMarketData(new MarketDataSession(ws, binary, deps.marketData));
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(deps.port, deps.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const base = `${deps.host.includes(':') ? `[${deps.host}]` : deps.host}:${port}`;
  return {
    restUrl: `http://${base}`,
    privateWsUrl: `ws://${base}${PRIVATE_WS_PATH}`,
    marketDataWsUrl: `ws://${base}${MARKET_DATA_WS_PATH}`,
    async close(): Promise<void> {
      wss.close();
      await connections.closeAll(deps.marketData.timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
