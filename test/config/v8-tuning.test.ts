import { describe, expect, it } from 'vitest';
import { KEEL_V8_FLAGS } from '../../config/v8-tuning.ts';
import { literalControlDecisions, pretenuringDecisions } from '../kit/allocation-site-decisions.ts';

describe('applyKeelV8Flags', () => {
  it('turns allocation-site pretenuring off at run time, so long-lived literals take no decision', () => {
    expect(KEEL_V8_FLAGS).toContain('--no-allocation-site-pretenuring');
    expect(literalControlDecisions().length).toBeGreaterThan(0);
    const decisions = pretenuringDecisions(`
      const { applyKeelV8Flags } = await import(repo('config/v8-tuning.ts'));
      applyKeelV8Flags();
      const held = [];
      for (let i = 0; i < 600_000; i++) held.push({ id: i, side: 'BUY', qty: i * 2 });
      console.error(held.length);
    `);
    expect(decisions).toEqual([]);
  });
});
