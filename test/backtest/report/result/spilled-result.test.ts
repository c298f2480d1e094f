import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BacktestResult,
  EXECUTION_CODEC,
  ORDER_CODEC,
  type RecordCodec,
  ROUND_TRIP_CODEC,
  readResult,
  resultJsonChunks,
  resultToJson,
  type SpillDirectory,
  SpillLog,
  stableJson,
  stableJsonChunks,
  stableJsonLine,
  writeResultFiles,
} from '../../../../backtest/report/index.ts';
import { opensInKeelLayout, readResultStreaming } from '../../../../backtest/report/result/result-reader.ts';
import { aBacktestResult } from '../../../kit/backtest-result-builders.ts';
import { spillDirectoriesDisposedAfterEach, tempDirsRemovedAfterAll } from '../../../kit/temp-dirs.ts';

const aTempDir = tempDirsRemovedAfterAll('keel-spilled-result-');
const aSpillDirectory = spillDirectoriesDisposedAfterEach('keel-test-result-');

function spilled<T>(
  dir: SpillDirectory,
  name: string,
  codec: RecordCodec<T>,
  records: Iterable<T>,
): SpillLog<T> {
  const log = new SpillLog(dir, name, codec);
  for (const r of records) log.append(r);
  return log.seal();
}

/** The same result with its orders, fills and trades in spill files, as a backtest run gives it. */
function spilledCopy(result: BacktestResult): BacktestResult {
  const dir = aSpillDirectory();
  return {
    ...result,
    orders: spilled(dir, 'orders', ORDER_CODEC, result.orders),
    fills: spilled(dir, 'fills', EXECUTION_CODEC, result.fills),
    trades: spilled(dir, 'trades', ROUND_TRIP_CODEC, result.trades),
    dispose: () => dir.dispose(),
  };
}

async function filesOf(paths: Record<string, string>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [kind, path] of Object.entries(paths)) out[kind] = await readFile(path, 'utf8');
  return out;
}

describe('a result with its records in spill files', () => {
  it('writes the same bytes as the same result held in arrays, streamed or whole', async () => {
    const result = aBacktestResult(400);
    const copy = spilledCopy(result);
    expect(copy.fills.length).toBe(result.fills.length);
    expect(resultToJson(copy)).toBe(resultToJson(result));
    expect([...resultJsonChunks(copy)].join('')).toBe(resultToJson(result));
    const a = await filesOf(await writeResultFiles(result, join(aTempDir(), 'arrays')));
    const b = await filesOf(await writeResultFiles(copy, join(aTempDir(), 'spilled')));
    const c = await filesOf(await writeResultFiles(copy, join(aTempDir(), 'again')));
    expect(b).toEqual(a);
    expect(c).toEqual(a);
  });

  it('lays out any JSON value the same way piece by piece, and each record on one stable line', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const whole = stableJson(value);
        expect([...stableJsonChunks(value)].join('')).toBe(whole);
        expect(stableJsonLine(value)).toBe(JSON.stringify(JSON.parse(whole)));
      }),
      { numRuns: 300 },
    );
    expect(stableJsonLine({ b: 1, 10: 'x', 2: 'y', a: [true], c: undefined })).toBe(
      '{"2":"y","10":"x","a":[true],"b":1}',
    );
    // A "__proto__" key (JSON.parse makes it an own property) is a plain key in every form.
    const proto = JSON.parse('[{"__proto__":false},{"a":{"__proto__":{"x":1}}}]');
    const protoLine = '[{"__proto__":false},{"a":{"__proto__":{"x":1}}}]';
    expect(stableJsonLine(proto)).toBe(protoLine);
    expect(JSON.stringify(JSON.parse(stableJson(proto)))).toBe(protoLine);
    expect(stableJson({ deep: { deeper: proto } })).toContain(protoLine);
    // Objects whose keys could be confused by a cache of key orders keep their own keys.
    expect(stableJsonLine([{}, { '': null }, { 'a\u0000b': 1, c: 2 }, { a: 1, 'b\u0000c': 2 }])).toBe(
      '[{},{"":null},{"a\\u0000b":1,"c":2},{"a":1,"b\\u0000c":2}]',
    );
  });
});

describe('reading a large result file', () => {
  it('streams the records of a file in Keel layout into spill files and gives the same result', async () => {
    const dir = aTempDir();
    const result = aBacktestResult(300);
    const paths = await writeResultFiles(result, dir);
    const streamed = await readResult(paths.json, { streamAboveBytes: 0 });
    const whole = await readResult(paths.json);
    expect(streamed.dispose).toBeTypeOf('function');
    expect(whole.dispose).toBeUndefined();
    expect(resultToJson(streamed)).toBe(resultToJson(whole));
    expect(resultToJson(streamed)).toBe(resultToJson(result));
    expect([...streamed.trades]).toEqual([...whole.trades]);
    const spillFile = (streamed.fills as SpillLog<unknown>).lines().next();
    expect(spillFile.done).toBe(false);
    streamed.dispose?.();
    expect(() => [...streamed.fills]).toThrow(/disposed/);
  });

  it('names the record and field of a damaged file while streaming', async () => {
    const dir = aTempDir();
    const paths = await writeResultFiles(aBacktestResult(), dir);
    const text = await readFile(paths.json, 'utf8');
    const damaged = text.replace(/("fills": \[\n {4}\{.*?"price":)"[0-9.]+"/, '$1"12e3"');
    expect(damaged).not.toBe(text);
    await writeFile(paths.json, damaged);
    await expect(readResult(paths.json, { streamAboveBytes: 0 })).rejects.toThrow(
      /result\.json is not a Keel backtest result: .*fills\[0\]\.price: must be a decimal string/,
    );
  });

  it('reads a file in another layout (reformatted by a tool) whole, the same result', async () => {
    const dir = aTempDir();
    const result = aBacktestResult(80);
    const file = join(dir, 'minified.json');
    await writeFile(file, JSON.stringify(JSON.parse(resultToJson(result))));
    const warnings: string[] = [];
    const back = await readResult(file, { streamAboveBytes: 0, onWarning: (w) => warnings.push(w) });
    expect(back.dispose).toBeUndefined();
    expect(resultToJson(back)).toBe(resultToJson(result));
    expect(existsSync(file)).toBe(true);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(file);
    expect(warnings[0]).toMatch(
      /not in the layout Keel writes .*read whole, not streamed.*the result\.json Keel wrote/,
    );
  });

  it('tells a file in Keel layout from a rewritten one by its first bytes, not by gathering its first line', async () => {
    const dir = aTempDir();
    const paths = await writeResultFiles(aBacktestResult(5), dir);
    expect(opensInKeelLayout(paths.json)).toBe(true);
    const text = await readFile(paths.json, 'utf8');
    for (const [name, rewritten] of [
      ['compact.json', JSON.stringify(JSON.parse(text))],
      ['indented.json', JSON.stringify(JSON.parse(text), null, 4)],
      ['crlf.json', text.replaceAll('\n', '\r\n')],
      ['empty.json', ''],
    ] as const) {
      const file = join(dir, name);
      await writeFile(file, rewritten);
      expect(opensInKeelLayout(file), name).toBe(name === 'indented.json');
      if (name !== 'indented.json') expect(readResultStreaming(file), name).toBeUndefined();
    }
  });

  it('reads a small file in another layout whole without a warning', async () => {
    const file = join(aTempDir(), 'small.json');
    await writeFile(file, JSON.stringify(JSON.parse(resultToJson(aBacktestResult(5)))));
    const warnings: string[] = [];
    await readResult(file, { onWarning: (w) => warnings.push(w) });
    expect(warnings).toEqual([]);
  });

  it('refuses up front a file in another layout too large to read whole, naming it and its size', async () => {
    const file = join(aTempDir(), 'compact.json');
    const text = JSON.stringify(JSON.parse(resultToJson(aBacktestResult(80))));
    await writeFile(file, text);
    const size = Buffer.byteLength(text);
    const warnings: string[] = [];
    await expect(
      readResult(file, {
        streamAboveBytes: 0,
        readWholeMaxBytes: size - 1,
        onWarning: (w) => warnings.push(w),
      }),
    ).rejects.toThrow(
      new RegExp(
        `compact\\.json is not in the layout Keel writes .* at ${size} bytes it is larger than the ${size - 1} .*the result\\.json Keel wrote`,
      ),
    );
    expect(warnings).toEqual([]);
  });

  it('streams a file in Keel layout however large its size against the whole-read limit', async () => {
    const paths = await writeResultFiles(aBacktestResult(30), aTempDir());
    const back = await readResult(paths.json, {
      streamAboveBytes: 0,
      readWholeMaxBytes: 0,
      onWarning: () => {},
    });
    expect(back.dispose).toBeTypeOf('function');
    back.dispose?.();
  });
});
