import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { Observable } from 'rxjs';
import type { VenueStatus, VenueStream, VenueStreamState } from '../../core/model/index.ts';
import type { InboundCounters } from '../../core/venue/index.ts';
import { isAddressInUse, PortInUse } from './port-in-use.ts';

/** A stream not in its ready state: never connected, down, or up but not reconciled. */
interface UnreadyStream {
  readonly stream: VenueStream;
  readonly status: VenueStatus | undefined;
  readonly lacks: 'connection' | 'up' | 'reconciliation';
}

/** The inbound outcomes exported per source: traffic Keel could not use, and all frames for scale. */
const INBOUND_OUTCOMES = ['frames', 'malformed', 'unexpected', 'unmatchedReplies'] as const;

/** The stream states that make a process ready: the state each stream must be in (`reconciled` or `up`). */
export type ReadyStates = ReadonlyMap<VenueStream, Exclude<VenueStreamState, 'down'>>;

/**
 * The Prometheus metrics of a process connected to the venue, and when enabled the endpoint
 * serving them: `/metrics`, with the events received, the venue's connection per stream, its
 * reconnects and its inbound counters, and a supervisor's probes, `/healthz` (the process answers)
 * and `/readyz` (the venue's streams are in their {@link ReadyStates}, read from the same changes as
 * `keel_venue_connected`, and the process is not stopping). A session's ({@link RunMetrics}) add the trading metrics and need the
 * private stream reconciled; `keel record` serves these alone and needs its market stream up.
 */
export class VenueMetrics {
  readonly registry = new Registry();
  readonly events = new Counter({
    name: 'keel_events_total',
    help: 'Market and User Data events received, by kind (`keel record`: the market events recorded).',
    labelNames: ['kind'],
    registers: [this.registry],
  });
  readonly venueConnected = new Gauge({
    name: 'keel_venue_connected',
    help: 'Whether a venue socket is connected (1) or down (0), by stream (private, market). The private one counts as connected from its login, before its reconciliation.',
    labelNames: ['stream'],
    registers: [this.registry],
  });
  readonly venueReconnects = new Counter({
    name: 'keel_venue_reconnects_total',
    help: 'Times a venue socket came back after a drop, by stream (private, market).',
    labelNames: ['stream'],
    registers: [this.registry],
  });
  readonly venueInbound = new Counter({
    name: 'keel_venue_inbound_total',
    help: 'Inbound venue messages by source (private, market, rest) and outcome: frames (all), malformed, unexpected, unmatchedReplies.',
    labelNames: ['source', 'outcome'],
    registers: [this.registry],
  });
  /** What `/readyz` needs: a recorder, its market stream connected. */
  protected readonly readyStates: ReadyStates = new Map([['market', 'up']]);
  /** Each stream's last change, for `/readyz`. */
  private readonly streams = new Map<VenueStream, VenueStatus>();
  /** Why the process is stopping, once it began to: `/readyz` fails from then on. */
  private stopProblem: string | undefined;
  /** The process's other reasons not to be ready ({@link VenueMetrics.notReadyWhile}), asked at each probe. */
  private readonly readinessChecks: (() => string | undefined)[] = [];
  private server: Server | undefined;
  private readonly scrapeHooks: (() => void)[] = [];

  /**
   * Exports a venue's connection changes and its inbound counters (read when scraped).
   * @param status - the venue's connection changes (`LiveVenue.status`, a client's `status`)
   * @param counters - the inbound counters by source (`LiveVenue.counters`), mutated by the clients
   */
  watchVenue(status: Observable<VenueStatus>, counters: Readonly<Record<string, InboundCounters>>): void {
    // Each stream's series from the start: a rate or an alert reads 0, not no data.
    for (const stream of this.readyStates.keys()) this.venueReconnects.inc({ stream }, 0);
    const wasDown = new Set<string>();
    status.subscribe((change) => {
      this.streams.set(change.stream, change);
      const connected = change.state === 'down' ? 0 : 1;
      this.venueConnected.set({ stream: change.stream }, connected);
      if (change.state === 'down') wasDown.add(change.stream);
      else if (change.state === 'up' && wasDown.delete(change.stream))
        this.venueReconnects.inc({ stream: change.stream });
    });
    const exported = new Map<string, number>();
    const sources = Object.entries(counters);
    for (const [source] of sources) {
      for (const outcome of INBOUND_OUTCOMES) this.venueInbound.inc({ source, outcome }, 0);
    }
    this.onScrape(() => {
      for (const [source, counts] of sources) {
        for (const outcome of INBOUND_OUTCOMES) {
          const key = `${source}|${outcome}`;
          const delta = counts[outcome] - (exported.get(key) ?? 0);
          if (delta <= 0) continue;
          exported.set(key, counts[outcome]);
          this.venueInbound.inc({ source, outcome }, delta);
        }
      }
    });
  }

  /**
   * Marks the process as stopping: from now on `/readyz` fails, naming `problem` first, whatever
   * its streams' states (they stay up while a session cancels its orders and writes its result).
   * @param problem - what `/readyz` says, e.g. `the live session is stopping (SIGTERM)`
   */
  stopping(problem: string): void {
    this.stopProblem ??= problem;
  }

  /**
   * Adds a reason for `/readyz` to fail besides the streams' (a session's tripped kill switch).
   * @param check - asked at each probe: what `/readyz` says while it holds, else undefined
   */
  notReadyWhile(check: () => string | undefined): void {
    this.readinessChecks.push(check);
  }

  /**
   * Why the process is not ready, as `/readyz` says it: that it is stopping ({@link
   * VenueMetrics.stopping}), the reasons added by {@link VenueMetrics.notReadyWhile} that hold,
   * and each stream not in its {@link ReadyStates}.
   * @returns one sentence part per reason, e.g. `the private stream is down (closed with code
   *   1006)`; empty when ready
   */
  readinessProblems(): string[] {
    const problems: string[] = this.stopProblem === undefined ? [] : [this.stopProblem];
    for (const check of this.readinessChecks) {
      const problem = check();
      if (problem !== undefined) problems.push(problem);
    }
    for (const { stream, status, lacks } of this.unreadyStreams()) {
      const why = status?.reason === undefined ? '' : ` (${status.reason})`;
      if (lacks === 'connection') problems.push(`the ${stream} stream has not connected yet`);
      else if (lacks === 'up') problems.push(`the ${stream} stream is down${why}`);
      else problems.push(`the ${stream} stream is not reconciled yet${why}: new orders are denied`);
    }
    return problems;
  }

  /**
   * The streams not in their {@link ReadyStates}, in short, as a run's status line shows them.
   * @returns e.g. `['market down', 'private not reconciled']`; empty when every stream is ready
   */
  streamsNotReady(): string[] {
    return this.unreadyStreams().map(({ stream, lacks }) =>
      lacks === 'connection'
        ? `${stream} not connected`
        : lacks === 'up'
          ? `${stream} down`
          : `${stream} not reconciled`,
    );
  }

  /** Each stream not in its ready state, with its last change and what it lacks. */
  private unreadyStreams(): UnreadyStream[] {
    const unready: UnreadyStream[] = [];
    for (const [stream, wanted] of this.readyStates) {
      const status = this.streams.get(stream);
      if (status === undefined) unready.push({ stream, status, lacks: 'connection' });
      else if (status.state === 'down') unready.push({ stream, status, lacks: 'up' });
      else if (wanted === 'reconciled' && status.state !== 'reconciled')
        unready.push({ stream, status, lacks: 'reconciliation' });
    }
    return unready;
  }

  /** Brings the metrics read from elsewhere (the venue's counters) up to date. @returns the exposition text */
  async scrape(): Promise<string> {
    for (const hook of this.scrapeHooks) hook();
    return this.registry.metrics();
  }

  /**
   * Runs a hook before each scrape, to bring a metric read from elsewhere up to date.
   * @param hook - the update
   */
  protected onScrape(hook: () => void): void {
    this.scrapeHooks.push(hook);
  }

  /**
   * Serves `/metrics` over HTTP, with prom-client's process and Node.js metrics besides Keel's
   * (`process_resident_memory_bytes`, `process_cpu_seconds_total`, `nodejs_eventloop_lag_seconds`,
   * `nodejs_heap_size_used_bytes`, GC durations...), under their usual names so stock dashboards
   * read them; and the probes: `/healthz` answers 200 `ok` while the process does (a liveness
   * probe), `/readyz` 200 `ready` while the venue's streams are in their {@link ReadyStates} and
   * the process neither stops nor has another reason not to be, else 503 `not ready: ` and why (a
   * readiness probe, see {@link VenueMetrics.readinessProblems}).
   * @param host - address to listen on
   * @param port - port, 0 = any free one
   * @returns the endpoint's URL
   * @throws PortInUse when another process listens on the port; the server's error otherwise
   */
  async listen(host: string, port: number): Promise<string> {
    // Registered here, not for every run: its event-loop monitor only serves a scraped endpoint.
    collectDefaultMetrics({ register: this.registry });
    const server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://keel').pathname;
      if (path === '/healthz' || path === '/readyz') {
        const problems = path === '/healthz' ? [] : this.readinessProblems();
        const body =
          path === '/healthz' ? 'ok' : problems.length === 0 ? 'ready' : `not ready: ${problems.join('; ')}`;
        res.writeHead(problems.length === 0 ? 200 : 503, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`${body}\n`);
        return;
      }
      if (path !== '/metrics') {
        res.writeHead(404).end('only /metrics, /healthz and /readyz here\n');
        return;
      }
      this.scrape().then(
        (text) => res.writeHead(200, { 'content-type': this.registry.contentType }).end(text),
        (error: unknown) => res.writeHead(500).end(String(error)),
      );
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error) =>
        reject(isAddressInUse(error) ? new PortInUse('metrics.port', host, port) : error),
      );
      server.listen(port, host, () => resolve());
    });
    const address = server.address() as AddressInfo;
    return `http://${host}:${address.port}/metrics`;
  }

  /**
   * Stops the endpoint at once: its connections are closed too, a scraper's idle keep-alive and a
   * request still arriving alike (neither may hold up the process's exit).
   * @returns when closed
   */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server === undefined) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }
}
