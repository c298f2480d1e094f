import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  algoOrdersCsvLines,
  type BacktestResult,
  cashFlowsCsvLines,
  denialsCsvLines,
  equityCsvLines,
  fillsCsvLines,
  liquidationsCsvLines,
  ordersCsvLines,
  RESULT_FILES,
  symsCsvLines,
  tradesCsvLines,
  trailingStopsCsvLines,
} from '../../../../backtest/report/index.ts';
import { aBacktestResult } from '../../../kit/backtest-result-builders.ts';

const WRITERS: Readonly<Record<string, (result: BacktestResult) => Generator<string>>> = {
  [RESULT_FILES.trades]: tradesCsvLines,
  [RESULT_FILES.fills]: fillsCsvLines,
  [RESULT_FILES.orders]: ordersCsvLines,
  [RESULT_FILES.equity]: equityCsvLines,
  [RESULT_FILES.cashFlows]: cashFlowsCsvLines,
  [RESULT_FILES.liquidations]: liquidationsCsvLines,
  [RESULT_FILES.algoOrders]: algoOrdersCsvLines,
  [RESULT_FILES.denials]: denialsCsvLines,
  [RESULT_FILES.trailingStops]: trailingStopsCsvLines,
  [RESULT_FILES.syms]: symsCsvLines,
};

/** The README's "Read the report" section. */
function readTheReport(): string {
  const readme = readFileSync('README.md', 'utf8');
  const start = readme.indexOf('## Read the report');
  return readme.slice(start, readme.indexOf('\n## ', start + 1));
}

/** The columns the README's table lists for a file, in order: each `name` before its explanation. */
function documentedColumns(section: string, file: string): string[] | undefined {
  const row = section.split('\n').find((line) => line.startsWith(`| \`${file}\` |`));
  if (row === undefined) return undefined;
  const cells = row.split(' | ')[1] ?? '';
  // Top-level comma-separated items (commas inside parentheses are explanations).
  const items: string[] = [];
  let depth = 0;
  let item = '';
  for (const c of cells) {
    if (c === '(') depth++;
    if (c === ')') depth--;
    if (c === ',' && depth === 0) {
      items.push(item);
      item = '';
    } else item += c;
  }
  items.push(item);
  return items.flatMap((text) =>
    [...text.replace(/\(.*\)/s, '').matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1] as string),
  );
}

describe("the README's report section", () => {
  const section = readTheReport();
  const header = (file: string): string[] => {
    const lines = (WRITERS[file] as (result: BacktestResult) => Generator<string>)(aBacktestResult(10));
    return (lines.next().value ?? '').trimEnd().split(',');
  };

  it.each(Object.keys(WRITERS))('names every column of %s, in order', (file) => {
    expect(documentedColumns(section, file)).toEqual(header(file));
  });

  it('says a trade return is a percent in trades.csv and a fraction in result.json', () => {
    expect(section).toMatch(
      /`returnPct` \(percent[^)]*`returnFraction` in result\.json is the same figure as a fraction\)/,
    );
    expect(section).toMatch(/in `result\.json` every ratio is a fraction/);
  });
});
