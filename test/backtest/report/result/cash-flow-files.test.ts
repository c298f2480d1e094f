import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  readResult,
  renderHtmlReport,
  resultFromJson,
  resultToJson,
  writeHtmlReportFromFile,
  writeResultFiles,
} from '../../../../backtest/report/index.ts';
import { aBacktestResult, aBacktestResultWithCashFlows } from '../../../kit/backtest-result-builders.ts';
import { tempDirsRemovedAfterAll } from '../../../kit/temp-dirs.ts';

const aTempDir = tempDirsRemovedAfterAll('keel-cash-flow-files-');
const LIBRARY = '/* chart library */';

describe('result files: funding, interest and liquidations', () => {
  it('keep the cash flows, liquidations and their metrics through result.json, read whole or streamed', async () => {
    const result = aBacktestResultWithCashFlows();
    const text = resultToJson(result);
    expect(resultToJson(resultFromJson(text))).toBe(text);
    const paths = await writeResultFiles(result, aTempDir());
    const streamed = await readResult(paths.json, { streamAboveBytes: 0 });
    try {
      expect(resultToJson(streamed)).toBe(text);
      expect(streamed.cashFlows?.map((f) => f.amount.toFixed())).toEqual(['-1.02', '-0.1', '0.5']);
      expect(streamed.liquidations?.[0]?.fills[0]?.fee.toFixed()).toBe('12.5');
      expect(streamed.metrics).toMatchObject({ liquidationCount: 1, liquidationFills: 1 });
      expect(streamed.metrics.fundingPaid?.toFixed()).toBe('0.52');
      expect(streamed.metrics.interestPaid?.toFixed()).toBe('0.1');
    } finally {
      streamed.dispose?.();
    }
  });

  it('write byte-identical files for the same result, twice', async () => {
    const read = async (dir: string) => {
      const paths = await writeResultFiles(aBacktestResultWithCashFlows(), dir);
      return Promise.all(Object.values(paths).map((p) => readFile(p, 'utf8')));
    };
    expect(await read(aTempDir())).toEqual(await read(aTempDir()));
  });

  it('write cash-flows.csv and liquidations.csv, one row per flow and per liquidation fill', async () => {
    const paths = await writeResultFiles(aBacktestResultWithCashFlows(), aTempDir());
    expect((await readFile(paths.cashFlows, 'utf8')).trimEnd().split('\n')).toEqual([
      'time,ts,kind,asset,amount,sym',
      '2024-01-01T08:00:00.000Z,1704096000000,FUNDING_FEE,USDT,-1.02,BINANCE_PERP_BTC_USDT',
      '2024-01-01T09:00:00.000Z,1704099600000,DEDUCT_INTEREST,USDT,-0.1,',
      '2024-01-01T16:00:00.000Z,1704124800000,FUNDING_FEE,USDT,0.5,BINANCE_PERP_BTC_USDT',
    ]);
    expect((await readFile(paths.liquidations, 'utf8')).trimEnd().split('\n')).toEqual([
      'time,ts,liquidationEventId,eventType,equityBefore,maintenanceMargin,equityAfter,orderId,sym,side,quantity,price,liquidationFee',
      '2024-01-02T06:00:00.000Z,1704175200000,SIM-L-9,FULL_LIQUIDATION,4.5,4.6,-6.83125,SIM-O-10,BINANCE_PERP_BTC_USDT,SELL,1,1000,12.5',
    ]);
  });

  it('still read a result file written before Keel recorded cash flows, and write empty CSVs for it', async () => {
    const old = aBacktestResult(60);
    const data = JSON.parse(resultToJson(old));
    expect(data.cashFlows).toBeUndefined();
    expect(data.metrics.fundingPaid).toBeUndefined();
    const back = resultFromJson(JSON.stringify(data));
    expect(back.cashFlows).toBeUndefined();
    expect(back.metrics.liquidationCount).toBeUndefined();
    const html = renderHtmlReport(back, { chartLibrarySource: LIBRARY });
    expect(html).not.toContain('Funding Paid');
    expect(html).not.toContain('liquidation-warning');
    const paths = await writeResultFiles(back, aTempDir());
    expect(await readFile(paths.cashFlows, 'utf8')).toBe('time,ts,kind,asset,amount,sym\n');
  });

  it('say which field of a cash flow is wrong in a damaged file', () => {
    const data = JSON.parse(resultToJson(aBacktestResultWithCashFlows()));
    data.cashFlows[1].kind = 'REBATE';
    expect(() => resultFromJson(JSON.stringify(data), 'r.json')).toThrow(/r\.json .*cashFlows\.1\.kind/);
  });

  it('rebuild (keel report) the same HTML page as the run wrote, money labels with their currency included', async () => {
    const result = aBacktestResultWithCashFlows();
    const dir = aTempDir();
    const paths = await writeResultFiles(result, dir);
    const original = renderHtmlReport(result, { settleAsset: 'USDT' });
    const rebuilt = await readFile(
      await writeHtmlReportFromFile(paths.json, join(dir, 'rebuilt.html')),
      'utf8',
    );
    expect(rebuilt).toContain('Equity Start [USDT]');
    expect(rebuilt).toBe(original);
  });
});
