import type { Clock } from '../core/kernel/index.ts';

/** What a replay summary needs of an event: its kind, sym (if any) and two timestamps. */
export interface SummarizableEvent {
  readonly kind: string;
  /** Market events carry one; account-wide User Data events (assets, account) do not. */
  readonly sym?: string;
  readonly ts: number;
  readonly recvTs: number;
}

/** The row under which events without a sym are counted. */
export const NO_SYM = '(no sym)';

/** Counts and timing of one replay. */
export interface ReplaySummary {
  readonly events: number;
  /** Event counts by sym (events without one under {@link NO_SYM}), then by kind. */
  readonly bySymbol: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** Earliest and latest venue time seen, epoch ms (NaN when there were no events). */
  readonly firstTs: number;
  readonly lastTs: number;
  /** Wall time the replay took, ms, measured with the injected clock. */
  readonly wallMs: number;
}

/**
 * Replays event batches to the end, counting events by sym and kind and measuring the wall time
 * with the clock passed in (backtest code never reads wall time itself).
 * @param batches - decoded event batches, e.g. from `readEventBatches`
 * @param clock - a wall clock, e.g. `{ now: () => performance.now() }`
 * @returns the summary
 */
export async function summarizeReplay(
  batches: AsyncIterable<readonly SummarizableEvent[]>,
  clock: Clock,
): Promise<ReplaySummary> {
  const started = clock.now();
  const bySymbol = new Map<string, Map<string, number>>();
  let events = 0;
  let firstTs = Number.POSITIVE_INFINITY;
  let lastTs = Number.NEGATIVE_INFINITY;
  for await (const batch of batches) {
    events += batch.length;
    for (const event of batch) {
      const sym = event.sym ?? NO_SYM;
      let kinds = bySymbol.get(sym);
      if (kinds === undefined) {
        kinds = new Map();
        bySymbol.set(sym, kinds);
      }
      kinds.set(event.kind, (kinds.get(event.kind) ?? 0) + 1);
      if (event.ts < firstTs) firstTs = event.ts;
      if (event.ts > lastTs) lastTs = event.ts;
    }
  }
  return {
    events,
    bySymbol,
    firstTs: events === 0 ? Number.NaN : firstTs,
    lastTs: events === 0 ? Number.NaN : lastTs,
    wallMs: clock.now() - started,
  };
}

const KIND_ORDER = ['quote', 'trade', 'bar', 'book', 'markPrice', 'gap', 'order', 'execution', 'position'];

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}h ${m}m ${s % 60}s` : `${m}m ${s % 60}s`;
}

/**
 * Formats a replay summary as a one-screen table: events by sym and kind, the venue-time span and
 * the replay rate.
 * @param summary - the summary
 * @param title - first line, e.g. the file and whether it is synthetic
 * @returns printable text, newline-terminated
 */
export function formatReplaySummary(summary: ReplaySummary, title: string): string {
  const kindsSeen = new Set<string>();
  for (const kinds of summary.bySymbol.values()) for (const k of kinds.keys()) kindsSeen.add(k);
  const kinds = [
    ...KIND_ORDER.filter((k) => kindsSeen.has(k)),
    ...[...kindsSeen].filter((k) => !KIND_ORDER.includes(k)).sort(),
  ];
  const syms = [...summary.bySymbol.keys()].sort();
  const symWidth = Math.max(6, ...syms.map((s) => s.length));
  const num = (n: number): string => n.toLocaleString('en-US');
  const row = (label: string, cells: readonly string[]): string =>
    `  ${label.padEnd(symWidth)}${cells.map((c) => c.padStart(10)).join('')}`;
  const lines = [title, ''];
  if (summary.events === 0) {
    lines.push('  no events');
  } else {
    const span = summary.lastTs - summary.firstTs;
    lines.push(
      `  venue time  ${new Date(summary.firstTs).toISOString()} -> ${new Date(summary.lastTs).toISOString()} (${duration(span)})`,
    );
  }
  const seconds = summary.wallMs / 1000;
  const rate = seconds > 0 ? Math.round(summary.events / seconds) : 0;
  lines.push(
    `  replayed    ${num(summary.events)} events in ${seconds.toFixed(2)} s = ${num(rate)} events/s`,
    '',
  );
  lines.push(row('symbol', [...kinds, 'total']));
  const totals = new Map<string, number>();
  for (const sym of syms) {
    const counts = summary.bySymbol.get(sym)!;
    let total = 0;
    const cells = kinds.map((k) => {
      const n = counts.get(k) ?? 0;
      total += n;
      totals.set(k, (totals.get(k) ?? 0) + n);
      return num(n);
    });
    lines.push(row(sym, [...cells, num(total)]));
  }
  lines.push(row('all', [...kinds.map((k) => num(totals.get(k) ?? 0)), num(summary.events)]));
  return `${lines.join('\n')}\n`;
}
