import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  csvField,
  readResult,
  resultFromJson,
  resultToJson,
  stableJson,
  writeHtmlReportFromFile,
  writeResultFiles,
} from '../../../../backtest/report/index.ts';
import { D } from '../../../../core/model/index.ts';
import { aBacktestResult } from '../../../kit/backtest-result-builders.ts';
import { tempDirsRemovedAfterAll } from '../../../kit/temp-dirs.ts';

const aTempDir = tempDirsRemovedAfterAll('keel-result-');

describe('result files', () => {
  it('give byte-identical JSON for the same result, whatever order its keys were built in', () => {
    const a = aBacktestResult();
    const reordered = Object.fromEntries(Object.entries(a).reverse()) as typeof a;
    expect(resultToJson(reordered)).toBe(resultToJson(a));
    expect(resultToJson(aBacktestResult())).toBe(resultToJson(a));
  });

  it('write Decimals as exact strings, sort keys and leave undefined fields out', () => {
    expect(stableJson({ b: D('0.10000000000000000001'), a: [1, null], c: undefined })).toBe(
      '{\n  "a": [1,null],\n  "b": "0.10000000000000000001"\n}\n',
    );
  });

  it('refuse NaN and Infinity, naming where they are', () => {
    expect(() => stableJson({ metrics: { sharpe: Number.NaN } })).toThrow(/\$\.metrics\.sharpe is NaN/);
    expect(() => stableJson([Number.POSITIVE_INFINITY])).toThrow(/\$\[0\] is Infinity/);
  });

  it('round-trip through JSON with every Decimal and number intact', () => {
    const result = aBacktestResult();
    const back = resultFromJson(resultToJson(result));
    expect(resultToJson(back)).toBe(resultToJson(result));
    expect([...back.fills][0]!.price.eq([...result.fills][0]!.price)).toBe(true);
    expect(back.metrics.equityFinal.toFixed()).toBe(result.metrics.equityFinal.toFixed());
    expect(back.metrics.sharpe).toBe(result.metrics.sharpe);
  });

  it('round-trip a run without trades, whose undefined win rate is null, and a run whose equity reached zero', () => {
    const none = aBacktestResult(4);
    expect(none.metrics.tradeCount).toBe(0);
    expect(none.metrics.winRate).toBeNull();
    expect(JSON.parse(resultToJson(none)).metrics.winRate).toBeNull();
    expect(resultFromJson(resultToJson(none)).metrics.winRate).toBeNull();
    const ruined = {
      ...none,
      metrics: { ...none.metrics, annualization: { ...none.metrics.annualization, ruinTs: 1_000 } },
    };
    expect(resultFromJson(resultToJson(ruined)).metrics.annualization.ruinTs).toBe(1_000);
  });

  it('say which field is wrong when a result file is damaged', () => {
    const data = JSON.parse(resultToJson(aBacktestResult()));
    data.fills[0].price = '12e3';
    expect(() => resultFromJson(JSON.stringify(data), 'run/result.json')).toThrow(
      /run\/result\.json is not a Keel backtest result: fills\.0\.price: must be a decimal string/,
    );
    expect(() => resultFromJson('{', 'x.json')).toThrow(/x\.json is not JSON/);
  });

  it('write result.json and trades, fills, orders and equity CSVs that read back', async () => {
    const dir = aTempDir();
    const result = aBacktestResult();
    const paths = await writeResultFiles(result, join(dir, 'out'));
    expect(resultToJson(await readResult(paths.json))).toBe(resultToJson(result));
    const trades = (await readFile(paths.trades, 'utf8')).trimEnd().split('\n');
    expect(trades[0]).toBe(
      'sym,positionSide,direction,status,qty,entryTime,exitTime,entryPrice,exitPrice,grossPnl,fees,pnl,returnPct,durationMs,entryOrderId,exitOrderId,entryStrategyId,exitStrategyId',
    );
    expect(trades).toHaveLength(1 + result.trades.length + result.openTrades.length);
    expect(trades[1]).toContain(`,${[...result.trades][0]!.pnl.toFixed()},`);
    expect(trades[1]).toContain('2024-01-01T05:00:00.000Z');
    const fills = (await readFile(paths.fills, 'utf8')).trimEnd().split('\n');
    expect(fills).toHaveLength(1 + result.fills.length);
    const equity = (await readFile(paths.equity, 'utf8')).trimEnd().split('\n');
    expect(equity[1]).toBe('2024-01-01T00:00:00.000Z,1704067200000,10000,0');
    const orders = (await readFile(paths.orders, 'utf8')).trimEnd().split('\n');
    expect(orders).toHaveLength(1 + result.orders.length);
  });

  it('read a result file written before algo orders, denials and strategy ids back as it was', async () => {
    const dir = aTempDir();
    const old = aBacktestResult();
    const paths = await writeResultFiles(old, join(dir, 'out'));
    const text = await readFile(paths.json, 'utf8');
    expect(text).not.toMatch(/algoOrders|denials|strategyId/);
    for (const streamAboveBytes of [Number.POSITIVE_INFINITY, 0]) {
      const back = await readResult(paths.json, { streamAboveBytes });
      try {
        expect(back.algoOrders).toBeUndefined();
        expect(back.denials).toBeUndefined();
        expect(resultToJson(back)).toBe(text);
      } finally {
        back.dispose?.();
      }
    }
    expect(await readFile(paths.algoOrders, 'utf8')).toMatch(/^createTime,updateTime,algoOrderId,[^\n]*\n$/);
    expect(await readFile(paths.denials, 'utf8')).toBe(
      'time,ts,strategyId,source,check,intentKind,ref,sym,reason\n',
    );
  });

  it('rebuild the HTML report from a result file alone', async () => {
    const dir = aTempDir();
    const result = aBacktestResult(60, { title: 'Rebuilt from JSON' });
    const paths = await writeResultFiles(result, dir);
    const html = await readFile(await writeHtmlReportFromFile(paths.json), 'utf8');
    expect(html).toContain('<h1>Rebuilt from JSON</h1>');
    expect(html).toContain(`Trades (${result.trades.length})`);
  });

  it('quote CSV fields that hold commas, quotes or line breaks', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(D('1.50'))).toBe('1.5');
    expect(csvField(null)).toBe('');
  });

  it('write numbers as plain decimals, never in exponent form', () => {
    expect(csvField(0.000004 * 0.1)).toBe('0.0000004');
    expect(csvField(3.999993558601034e-7)).toBe('0.0000003999993558601034');
    expect(csvField(-1.5e-9)).toBe('-0.0000000015');
    expect(csvField(2e21)).toBe('2000000000000000000000');
    expect(csvField(12.25)).toBe('12.25');
    expect(csvField(0)).toBe('0');
  });

  it('name the file when it is missing or not a result', async () => {
    const dir = aTempDir();
    await expect(readResult(join(dir, 'missing.json'))).rejects.toThrow(/missing\.json/);
    await writeFile(join(dir, 'list.json'), '[]');
    await expect(readResult(join(dir, 'list.json'))).rejects.toThrow(
      /list\.json is not a Keel backtest result/,
    );
  });
});
