import { EquitySampler } from '../../backtest/runner/index.ts';
import type { SessionRecord } from '../../config/compose/session-result.ts';
import { D } from '../../core/model/index.ts';

/**
 * What a paper session hands to `sessionResult`: no orders or fills, a flat 100 000 equity over
 * one minute, the touch fill model; override any field.
 * @param over - fields to replace
 * @returns the record
 */
export function aSessionRecord(over: Partial<SessionRecord> = {}): SessionRecord {
  const sampler = new EquitySampler(60_000, () => D(100_000));
  sampler.start(0);
  sampler.sample(60_000);
  return {
    title: 'Paper session',
    mode: 'paper',
    venue: 'Keel paper venue',
    synthetic: true,
    recording: undefined,
    instruments: [],
    slots: [],
    orders: [],
    fills: [],
    sampler,
    fillModel: { name: 'touch', description: 'The paper venue matches at the touch.' },
    runConfig: {},
    ...over,
  };
}
