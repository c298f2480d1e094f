import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type RecordingWarning, readEventBatches, sessionHeader } from '../../../backtest/recording/index.ts';
import { decodeSessionRecord } from '../../../config/session-decoder.ts';
import { TEST_HEADER } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const dir = tempDirsRemovedAfterEach();

const GOOD = [
  '{"recvTs":1736173800001,"source":"market-data","msg":{"arg":{"channel":"BBO","sym":"BINANCE_PERP_BTC_USDT"},"data":{"bid":"94999.8","bidqty":"1.171","ask":"95000.0","askqty":"0.561","ts":1736173800000}}}',
  '{"recvTs":1736173800108,"source":"market-data","msg":{"arg":{"channel":"TRADE","sym":"BINANCE_PERP_BTC_USDT"},"data":{"tradeId":"1117873","price":"95001.5","qty":"0.211","side":"SELL","ts":1736173800105}}}',
  '{"recvTs":1736173860001,"source":"market-data","msg":{"arg":{"channel":"KLINE","sym":"BINANCE_PERP_BTC_USDT","interval":"1m"},"data":{"openTime":1736173800000,"open":"95001.5","high":"95128.3","low":"94996.6","close":"95032.8","volume":"11.862","closed":true,"ts":1736173860000}}}',
];

type Garble =
  | { kind: 'cut'; at: number }
  | { kind: 'flip'; at: number; ch: string }
  | { kind: 'drop'; at: number }
  | { kind: 'blank' }
  | { kind: 'keep' };
const garble: fc.Arbitrary<Garble> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ kind: 'keep' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('flip' as const),
      at: fc.nat(),
      ch: fc.constantFrom('"', '}', '{', 'x', '\u0000', '\r', ',', '9', '-', '\u00e9', '\ud83d\ude00'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'blank' as const }) },
);

function apply(line: string, g: Garble): string {
  switch (g.kind) {
    case 'keep':
      return line;
    case 'blank':
      return '';
    case 'cut':
      return line.slice(0, g.at % line.length);
    case 'drop': {
      const i = g.at % line.length;
      return line.slice(0, i) + line.slice(i + 1);
    }
    case 'flip': {
      const i = g.at % line.length;
      return line.slice(0, i) + g.ch + line.slice(i + 1);
    }
  }
}

async function readSkipping(path: string) {
  const warnings: RecordingWarning[] = [];
  let events = 0;
  for await (const batch of readEventBatches(path, decodeSessionRecord, {
    onMalformed: 'skip',
    onWarning: (w) => warnings.push(w),
    chunkBytes: 97,
  }))
    events += batch.length;
  return { warnings, events };
}

describe('recording reader: garbled lines are counted and reported, never a crash', () => {
  for (const gz of [false, true])
    it(`${gz ? '.jsonl.gz' : '.jsonl'}: every line is either an event or a warning naming it`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.nat({ max: 2 }), garble), { minLength: 1, maxLength: 30 }),
          fc.boolean(),
          async (rows, finalNewline) => {
            const lines = rows.map(([i, g]) => apply(GOOD[i] ?? '', g));
            const body =
              [JSON.stringify(sessionHeader(TEST_HEADER)), ...lines].join('\n') + (finalNewline ? '\n' : '');
            const path = join(dir(), gz ? 'r.jsonl.gz' : 'r.jsonl');
            writeFileSync(path, gz ? gzipSync(body) : body);
            const { warnings, events } = await readSkipping(path);
            // every record line gave one event (the sample lines decode to one each) or one warning
            const lastEmptyDropped = !finalNewline && lines.at(-1) === '' ? 1 : 0;
            expect(
              events + warnings.length + lastEmptyDropped,
              JSON.stringify({ lines, warnings: warnings.map((w) => w.message) }),
            ).toBe(lines.length);
            for (const w of warnings) {
              expect(w.line).toBeGreaterThanOrEqual(2);
              expect(w.line).toBeLessThanOrEqual(lines.length + 1);
            }
            // warnings name distinct lines
            expect(new Set(warnings.map((w) => w.line)).size).toBe(warnings.length);
          },
        ),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 200) },
      );
    }, 120_000);
});

describe('recording reader: damaged gzip bytes never crash', () => {
  it('a multi-member .jsonl.gz with random bytes flipped or cut reads with warnings or a RecordingFormatError', async () => {
    const members = (n: number) => {
      const header = `${JSON.stringify(sessionHeader(TEST_HEADER))}\n`;
      const parts = [gzipSync(header)];
      for (let i = 0; i < n; i++) parts.push(gzipSync(`${GOOD[i % 3]}\n${GOOD[(i + 1) % 3]}\n`));
      const bounds = new Set<number>();
      let end = 0;
      for (const part of parts) {
        end += part.length;
        bounds.add(end);
      }
      return { bytes: Buffer.concat(parts), bounds };
    };
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 3 }),
        fc.option(fc.nat(), { nil: undefined }),
        async (n, flips, cut) => {
          const built = members(n);
          let bytes = built.bytes;
          for (const [at, b] of flips) bytes[at % bytes.length] = b;
          // a cut exactly between two gzip members leaves a shorter, whole file: nothing to detect
          if (cut !== undefined && built.bounds.has(cut % bytes.length)) return;
          if (cut !== undefined) bytes = bytes.subarray(0, cut % bytes.length);
          const path = join(dir(), 'd.jsonl.gz');
          writeFileSync(path, bytes);
          try {
            const { warnings, events } = await readSkipping(path);
            expect(events).toBeLessThanOrEqual(2 * n);
            if (events < 2 * n) expect(warnings.length).toBeGreaterThan(0);
          } catch (error) {
            expect((error as Error).name, (error as Error).stack).toBe('RecordingFormatError');
          }
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 200) },
    );
  }, 120_000);
});
