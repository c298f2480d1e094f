import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EXECUTION_CODEC,
  firstRecords,
  ORDER_CODEC,
  ROUND_TRIP_CODEC,
  roundTripsFromFills,
  SpillDirectory,
  SpillLog,
  stableJsonLine,
} from '../../../../backtest/report/index.ts';
import { D, type Execution, type Order } from '../../../../core/model/index.ts';
import { decimalOnGrid } from '../../../kit/fill-arbitraries.ts';
import { anOrder } from '../../../kit/order-builders.ts';
import { spillDirectoriesDisposedAfterEach } from '../../../kit/temp-dirs.ts';

const aSpillDirectory = spillDirectoriesDisposedAfterEach('keel-test-spill-');

const signedDecimal = fc
  .tuple(fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }), fc.integer({ min: 0, max: 12 }))
  .map(([units, scale]) => D(units).div(D(10).pow(scale)));
const text = fc.string({ maxLength: 12, unit: 'binary' });

const anExecutionRecord: fc.Arbitrary<Execution> = fc.record({
  transactionId: text,
  portfolioId: text,
  orderId: text,
  clientOrderId: text,
  sym: text,
  side: fc.constantFrom('BUY', 'SELL'),
  positionSide: fc.constantFrom('NONE', 'LONG', 'SHORT'),
  quantity: decimalOnGrid('0.001', 1, 5_000_000),
  price: signedDecimal,
  fee: signedDecimal,
  feeCoin: text,
  rebate: signedDecimal,
  rpnl: signedDecimal,
  execType: fc.constantFrom('MAKER', 'TAKER'),
  timestamp: fc.integer({ min: 0, max: 4_102_444_800_000 }),
});

const anOrderRecord: fc.Arbitrary<Order> = fc
  .record({
    orderId: text,
    clientOrderId: text,
    orderState: fc.constantFrom('NEW', 'OPEN', 'FILLED', 'CANCELLED', 'PARTIALLY_FILLED', 'REJECTED'),
    limitPrice: signedDecimal,
    executedQty: signedDecimal,
    fee: signedDecimal,
    reason: fc.option(text, { nil: undefined }),
    tp: fc.option(
      fc.record({
        triggerPrice: signedDecimal,
        triggerType: fc.constantFrom('MarkPrice', 'LastPrice'),
        price: signedDecimal,
      }),
      { nil: undefined },
    ),
    createAt: fc.integer({ min: 0, max: 4_102_444_800_000 }),
  })
  .map(({ reason, tp, ...fields }) =>
    anOrder({ ...fields, ...(reason === undefined ? {} : { reason }), ...(tp === undefined ? {} : { tp }) }),
  );

/** Records compare by their encoded form: Decimals by exact value, fields by presence. */
const encodedAll = <T>(codec: { encode: (r: T) => string }, records: Iterable<T>): string[] =>
  Array.from(records, (r) => codec.encode(r));

describe('spill log', () => {
  it('gives back every fill exactly as appended, on every iteration', () => {
    fc.assert(
      fc.property(fc.array(anExecutionRecord, { maxLength: 40 }), fc.nat(45), (fills, keepInMemory) => {
        const log = new SpillLog(aSpillDirectory(), 'fills', EXECUTION_CODEC, { keepInMemory });
        for (const fill of fills) log.append(fill);
        log.seal();
        expect(log.length).toBe(fills.length);
        const first = [...log];
        const second = [...log];
        expect(encodedAll(EXECUTION_CODEC, first)).toEqual(encodedAll(EXECUTION_CODEC, fills));
        expect(encodedAll(EXECUTION_CODEC, second)).toEqual(encodedAll(EXECUTION_CODEC, fills));
        first.forEach((back, i) => {
          const fill = fills[i] as Execution;
          expect(back.price.eq(fill.price) && back.fee.eq(fill.fee) && back.rpnl.eq(fill.rpnl)).toBe(true);
          expect(back).toEqual(fill);
        });
      }),
      { numRuns: 60 },
    );
  });

  it('holds the next record exactly while it holds fewer than its memory share, and writes the same lines either way', () => {
    fc.assert(
      fc.property(fc.array(anExecutionRecord, { maxLength: 20 }), fc.nat(25), (fills, keepInMemory) => {
        const log = new SpillLog(aSpillDirectory(), 'fills', EXECUTION_CODEC, { keepInMemory });
        fills.forEach((fill, i) => {
          expect(log.holdsNext).toBe(i < keepInMemory);
          if (log.holdsNext) log.append(fill);
          else log.appendLine(EXECUTION_CODEC.encode(fill));
        });
        log.seal();
        expect([...log.lines()]).toEqual(encodedAll(EXECUTION_CODEC, fills));
      }),
      { numRuns: 40 },
    );
  });

  it('gives back orders with optional fields and nested tp exactly, and round trips too', () => {
    fc.assert(
      fc.property(fc.array(anOrderRecord, { maxLength: 30 }), (orders) => {
        const log = new SpillLog(aSpillDirectory(), 'orders', ORDER_CODEC, { keepInMemory: 0 });
        for (const order of orders) log.append(order);
        const back = [...log.seal()];
        expect(encodedAll(ORDER_CODEC, back)).toEqual(encodedAll(ORDER_CODEC, orders));
        back.forEach((order, i) => {
          expect(order).toEqual(orders[i]);
        });
      }),
      { numRuns: 60 },
    );
    fc.assert(
      fc.property(fc.array(anExecutionRecord, { maxLength: 30 }), (fills) => {
        const { closed } = roundTripsFromFills(fills.map((f, i) => ({ ...f, timestamp: i })));
        const log = new SpillLog(aSpillDirectory(), 'trades', ROUND_TRIP_CODEC, { keepInMemory: 0 });
        for (const trade of closed) log.append(trade);
        expect([...log.seal()]).toEqual(closed);
      }),
      { numRuns: 40 },
    );
  });

  it('writes one stable JSON line per record, longer than its write buffer across many flushes', () => {
    const dir = aSpillDirectory();
    const log = new SpillLog(dir, 'orders', ORDER_CODEC, { keepInMemory: 100 });
    const orders = Array.from({ length: 3000 }, (_, i) =>
      anOrder({ orderId: `o-${i}`, clientOrderId: 'x'.repeat(200), limitPrice: D(i).div(7) }),
    );
    for (const order of orders) log.append(order);
    log.seal();
    const file = readFileSync(dir.file('orders.jsonl'), 'utf8');
    expect(file).toBe(`${orders.map((o) => stableJsonLine(o)).join('\n')}\n`);
    expect(log.length).toBe(3000);
    expect(firstRecords(log, 2).map((o) => o.orderId)).toEqual(['o-0', 'o-1']);
    expect([...log].map((o) => o.orderId)).toEqual(orders.map((o) => o.orderId));
  });

  it('writes lines of multi-byte characters and lines longer than its write buffer byte for byte', () => {
    const dir = aSpillDirectory();
    const lines = fc.sample(fc.string({ maxLength: 400, unit: 'binary' }), { numRuns: 3000, seed: 7 });
    // Three-byte characters up to the buffer's edge, and one line past the whole buffer (256 KiB).
    lines.splice(1000, 0, '\u20ac'.repeat(100_000), 'x'.repeat(300_000), '\ud83d\ude00'.repeat(50_000));
    const log = new SpillLog(
      dir,
      'texts',
      { encode: (t: string) => t, decode: (line) => line },
      { keepInMemory: 0 },
    );
    for (const line of lines) log.appendLine(line);
    log.seal();
    expect(readFileSync(dir.file('texts.jsonl'))).toEqual(Buffer.from(`${lines.join('\n')}\n`));
  });

  it('holds its first records as they are and writes nothing until it outgrows its memory share', () => {
    const dir = aSpillDirectory();
    const log = new SpillLog(dir, 'orders', ORDER_CODEC, { keepInMemory: 3 });
    const orders = Array.from({ length: 5 }, (_, i) => anOrder({ orderId: `o-${i}` }));
    for (const order of orders.slice(0, 3)) log.append(order);
    const small = new SpillLog(dir, 'small', ORDER_CODEC, { keepInMemory: 3 });
    for (const order of orders.slice(0, 3)) small.append(order);
    small.seal();
    expect(readFileSync(dir.file('small.jsonl'), 'utf8')).toBe('');
    expect([...small]).toEqual(orders.slice(0, 3));
    expect([...small.lines()]).toEqual(orders.slice(0, 3).map((o) => stableJsonLine(o)));
    for (const order of orders.slice(3)) log.append(order);
    log.seal();
    expect(readFileSync(dir.file('orders.jsonl'), 'utf8')).toBe(
      `${orders.map((o) => stableJsonLine(o)).join('\n')}\n`,
    );
    expect([...log]).toEqual(orders);
  });

  it('is empty but iterable when nothing was appended', () => {
    const log = new SpillLog(aSpillDirectory(), 'trades', ROUND_TRIP_CODEC).seal();
    expect(log.length).toBe(0);
    expect([...log]).toEqual([]);
  });

  it('refuses records after sealing and reads only once sealed', () => {
    const log = new SpillLog(aSpillDirectory(), 'orders', ORDER_CODEC);
    expect(() => [...log]).toThrow(/still being written/);
    log.seal();
    expect(() => log.append(anOrder())).toThrow(/orders log is sealed/);
  });

  it('names the record and field of a damaged line', () => {
    const line = stableJsonLine(anOrder()).replace('"limitPrice":"100"', '"limitPrice":"1e2"');
    expect(() => ORDER_CODEC.decode(line, 'orders[7]')).toThrow(/orders\[7\]\.limitPrice: must be a decimal/);
  });
});

describe('spill directory', () => {
  it('is removed with its files on dispose, after which its logs say they are gone', () => {
    const dir = new SpillDirectory('keel-test-spill-');
    const log = new SpillLog(dir, 'orders', ORDER_CODEC, { keepInMemory: 0 });
    log.append(anOrder());
    log.seal();
    const held = new SpillLog(dir, 'held', ORDER_CODEC).seal();
    expect(existsSync(dir.file('orders.jsonl'))).toBe(true);
    dir.dispose();
    dir.dispose();
    expect(existsSync(dir.path)).toBe(false);
    expect(() => [...log]).toThrow(/disposed with its result/);
    expect(() => [...held]).toThrow(/disposed with its result/);
    expect(() => dir.file('x')).toThrow(/was removed/);
  });
});

describe('spill directory at process exit', () => {
  /**
   * Runs a script in a Node process of its own, with SpillDirectory imported from the report module.
   * @param script - the module code that follows the import
   * @param env - the process environment (default this one's)
   * @returns how the process ended and what it wrote
   */
  function runWithSpillDirectory(script: string, env: NodeJS.ProcessEnv = process.env) {
    const module = new URL('../../../../backtest/report/index.ts', import.meta.url).href;
    return spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { SpillDirectory } = await import(${JSON.stringify(module)});\n${script}`,
      ],
      // Below the tests' 30 s, so a child that never ends fails its test instead of blocking the run.
      { encoding: 'utf8', env, timeout: 20_000 },
    );
  }

  it('is removed when the process exits without disposing it', () => {
    const child = runWithSpillDirectory(
      `const dir = new SpillDirectory('keel-test-exit-');
       process.stdout.write(dir.file('fills.jsonl'));`,
    );
    expect(child.status).toBe(0);
    const file = child.stdout.trim();
    expect(file).toMatch(/keel-test-exit-/);
    expect(existsSync(dirname(file))).toBe(false);
  }, 30_000);

  it('is removed by the next process making one when its own process was killed without an exit hook', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'keel-own-tmp-'));
    const killed = runWithSpillDirectory(
      `const dir = new SpillDirectory('keel-test-killed-');
       process.stdout.write(dir.path);
       process.kill(process.pid, 'SIGKILL');`,
      { ...process.env, TMPDIR: tmp },
    );
    expect(killed.signal).toBe('SIGKILL');
    const left = killed.stdout.trim();
    expect(existsSync(left)).toBe(true);
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      const next = new SpillDirectory('keel-test-next-');
      expect(existsSync(left)).toBe(false);
      expect(existsSync(next.path)).toBe(true);
      next.dispose();
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 30_000);
});
