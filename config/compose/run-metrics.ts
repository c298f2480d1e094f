import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { IntentGate } from '../../core/kernel/index.ts';

/** A run's Prometheus metrics and, when enabled, the `/metrics` endpoint serving them. */
export class RunMetrics {
  readonly registry = new Registry();
  readonly events = new Counter({
    name: 'keel_events_total',
    help: 'Market and User Data events the kernel received, by kind.',
    labelNames: ['kind'],
    registers: [this.registry],
  });
  readonly intents = new Counter({
    name: 'keel_intents_total',
    help: 'Intents the strategies emitted, by kind.',
    labelNames: ['kind'],
    registers: [this.registry],
  });
  readonly denials = new Counter({
    name: 'keel_denials_total',
    help: 'Intents the risk gate denied, by check.',
    labelNames: ['check'],
    registers: [this.registry],
  });
  readonly fills = new Counter({
    name: 'keel_fills_total',
    help: 'Fills (executions) received.',
    registers: [this.registry],
  });
  readonly orderLatency = new Histogram({
    name: 'keel_order_latency_seconds',
    help: 'From an approved placeOrder to the venue acknowledging the order, in seconds.',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly equity = new Gauge({
    name: 'keel_equity',
    help: 'Portfolio equity in the settlement currency.',
    registers: [this.registry],
  });
  /** Intents counted so far (all kinds), for the status line. */
  intentTotal = 0;
  private readonly sentAt = new Map<string, number>();
  private server: Server | undefined;

  /** @param now - wall clock for the order latency (ms) */
  constructor(private readonly now: () => number) {}

  /**
   * Wraps the risk gate so every intent, denial and approved order is counted.
   * @param gate - the run's gate
   * @returns a gate that decides exactly as `gate` does
   */
  countingGate(gate: IntentGate): IntentGate {
    return {
      evaluate: (intent, view) => {
        this.intents.inc({ kind: intent.intent.kind });
        this.intentTotal++;
        const decision = gate.evaluate(intent, view);
        if (decision.kind === 'denied') this.denials.inc({ check: decision.check });
        else if (intent.intent.kind === 'placeOrder') this.sentAt.set(intent.intent.ref, this.now());
        return decision;
      },
      ...(gate.observeEquity === undefined
        ? {}
        : { observeEquity: (now, equity) => gate.observeEquity?.(now, equity) }),
    };
  }

  /**
   * Notes that the venue acknowledged an order, observing its latency once.
   * @param clientOrderId - the order's reference
   */
  acknowledged(clientOrderId: string): void {
    const sent = this.sentAt.get(clientOrderId);
    if (sent === undefined) return;
    this.sentAt.delete(clientOrderId);
    this.orderLatency.observe((this.now() - sent) / 1000);
  }

  /**
   * Notes that the venue (or the adapter) refused an order: its send time is forgotten, with no
   * latency observed, so a long run's refused orders are not kept.
   * @param clientOrderId - the order's reference
   */
  refused(clientOrderId: string): void {
    this.sentAt.delete(clientOrderId);
  }

  /** Approved orders sent and not yet acknowledged nor refused: their send times are held. */
  get awaitingAcks(): number {
    return this.sentAt.size;
  }

  /**
   * Serves `/metrics` over HTTP.
   * @param host - address to listen on
   * @param port - port, 0 = any free one
   * @returns the endpoint's URL
   */
  async listen(host: string, port: number): Promise<string> {
    const server = createServer((req, res) => {
      if (req.url !== '/metrics') {
        res.writeHead(404).end('only /metrics here\n');
        return;
      }
      this.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': this.registry.contentType }).end(text),
        (error: unknown) => res.writeHead(500).end(String(error)),
      );
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    const address = server.address() as AddressInfo;
    return `http://${host}:${address.port}/metrics`;
  }

  /** Stops the endpoint. @returns when closed */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
