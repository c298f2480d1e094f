import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordingDamage } from '../../../backtest/recording/index.ts';
import { warmUpOf } from '../../../config/compose/warm-up-history.ts';
import { loadValidConfig } from '../../../config/loader/index.ts';
import type { MarketEvent } from '../../../core/model/index.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const aTempDir = tempDirsRemovedAfterAll('warm-up-csv-skipped-');
const T0 = Date.UTC(2025, 0, 6, 14, 30);
const MIN = 60_000;

/** The warm-up of a paper config whose history is the one CSV entry, read whole, and what it told. */
async function warmUpOn(
  csv: string,
  instrument: string,
  entry: string,
): Promise<{ events: MarketEvent[]; told: string[] }> {
  const dir = aTempDir();
  writeFileSync(join(dir, 'h.csv'), csv);
  const file = join(dir, 'paper.yaml');
  writeFileSync(
    file,
    `mode: paper
paper: { lockstep: true }
instruments: [${instrument}]
strategies:
  - { id: mm, use: market-maker }
warmUp:
  period: 3m
  history:
    - ${entry}
`,
  );
  const told: string[] = [];
  const damage = new RecordingDamage((w) => told.push(w.message));
  const warmUp = await warmUpOf(loadValidConfig(file), damage, (m) => told.push(m));
  const events: MarketEvent[] = [];
  for await (const batch of warmUp?.history ?? []) events.push(...batch);
  return { events, told };
}

describe('warmUp.history CSV entries tell what their reading skipped or doubts, as a backtest of the entry does', () => {
  it('tells of the rows skipInvalid skipped, naming the file and the line', async () => {
    const rows = ['time,open,high,low,close,volume'];
    for (let i = 0; i < 5; i++) rows.push(`${T0 + i * MIN},100,101,99,100.5,7`);
    rows[3] = `${T0 + 2 * MIN},100,oops,99,100.5,7`; // one bad row in the middle, line 4
    const { events, told } = await warmUpOn(
      `${rows.join('\n')}\n`,
      'BINANCE_PERP_BTC_USDT',
      '{ csv: h.csv, sym: BINANCE_PERP_BTC_USDT, interval: 1m, skipInvalid: true }',
    );
    expect(events).toHaveLength(4);
    expect(told).toEqual([expect.stringMatching(/^warm-up: .*h\.csv: 1 row\(s\) skipped \(line 4: /)]);
  });

  it("tells of a US equity's times that look like New York time read as UTC", async () => {
    const rows = ['time,open,high,low,close,volume'];
    // 09:30-15:59 New York local time written without an offset, read as UTC.
    for (let i = 0; i < 390; i += 5) {
      const at = new Date(Date.UTC(2025, 0, 6, 9, 30) + i * MIN).toISOString().slice(0, 19).replace('T', ' ');
      rows.push(`${at},100,101,99,100.5,7`);
    }
    const { told } = await warmUpOn(
      `${rows.join('\n')}\n`,
      'US_EQUITY_AAPL',
      '{ csv: h.csv, sym: US_EQUITY_AAPL, interval: 5m }',
    );
    expect(told).toEqual([
      expect.stringMatching(/^warm-up: .*h\.csv: .*import it with --zone America\/New_York/),
    ]);
  });
});
