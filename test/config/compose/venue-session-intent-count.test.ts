import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aFreePort } from '../../kit/free-port.ts';
import { liveSessionRigs, SESSION_SYM } from '../../kit/live-session-rig.ts';

const SAME_REF = resolve('test/config/fixtures/same-ref-twice-plugin.ts');
const newRig = liveSessionRigs();

describe('the metrics of a live session as an operator scrapes them', () => {
  it('counts every intent a strategy emitted, the ones the kernel denied included, and never reads equity 0 before it is known', async () => {
    const rig = await newRig();
    const port = await aFreePort();
    const run = rig.run({
      strategies: `  - { id: s, use: ${JSON.stringify(SAME_REF)}, params: { sym: ${SESSION_SYM} } }`,
      durationSec: 3,
      extra: `metrics: { enabled: true, port: ${port} }\n`,
    });
    let ended = false;
    void run.finally(() => (ended = true));
    let last = '';
    const equities: string[] = [];
    while (!ended) {
      last = await fetch(`http://127.0.0.1:${port}/metrics`).then(
        (r) => r.text(),
        () => last,
      );
      equities.push(/^keel_equity (.*)$/m.exec(last)?.[1] ?? 'absent');
      await new Promise((r) => setTimeout(r, 50));
    }
    const outcome = await run;
    const lines = last.split('\n').filter((l) => /^keel_(intents|denials)_total/.test(l));
    console.log(
      lines.join('\n'),
      '\nsummary intents:',
      outcome.intents,
      'denials:',
      outcome.result.denials?.length,
    );
    // The strategy emitted two placeOrder intents; the second was denied (kernel.ref).
    expect(lines).toContain('keel_denials_total{check="kernel.ref"} 1');
    expect(outcome.intents).toBe(2);
    expect(lines).toContain('keel_intents_total{kind="placeOrder"} 2');
    // Absent until the first reconciliation read the account, then the account's equity: a
    // restart never looks like a 100 % drawdown.
    expect(equities).not.toContain('0');
    expect(Number(equities.at(-1))).toBeGreaterThan(0);
  }, 30_000);
});
