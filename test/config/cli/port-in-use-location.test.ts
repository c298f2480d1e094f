import { describe, expect, it } from 'vitest';
import { portInUseLocation } from '../../../config/cli/port-in-use-location.ts';
import { PortInUse } from '../../../config/compose/port-in-use.ts';
import { parseConfigText } from '../../../config/loader/index.ts';

/** The source of a paper config ending with `metrics`. */
function sourceWith(metrics: string) {
  const parsed = parseConfigText(
    `mode: paper
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: mm, use: market-maker, params: { sym: BINANCE_PERP_BTC_USDT, qty: 0.001, halfSpreadTicks: 20, maxPosition: 0.01 } }
paper: { source: { kind: synthetic } }
${metrics}`,
    { file: 'mm.yaml', env: {} },
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed));
  return parsed.source;
}

describe('where a taken port is set', () => {
  it('names the line that sets it', () => {
    const source = sourceWith('metrics:\n  enabled: true\n  port: 9464\n');
    expect(portInUseLocation(source, new PortInUse('metrics.port', '127.0.0.1', 9464))).toBe(
      ' → at metrics.port (mm.yaml:8:9)',
    );
  });

  it('says a port the config leaves unset is its default', () => {
    const source = sourceWith('metrics: { enabled: true }\n');
    expect(portInUseLocation(source, new PortInUse('metrics.port', '127.0.0.1', 9464))).toBe(
      ' (metrics.port is not set in mm.yaml: 9464 is its default)',
    );
  });
});
