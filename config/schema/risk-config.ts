import { z } from 'zod';
import { killSwitchSchema, type RiskGateConfig, riskLimitsSchema } from '../../core/risk/index.ts';

/**
 * Global risk settings of a run: core/risk's limits plus its kill switch. The limit fields are
 * exactly `riskLimitsSchema`'s (the one the risk gate parses), so config and gate cannot drift.
 */
export const riskConfigSchema = riskLimitsSchema.extend({
  killSwitch: killSwitchSchema
    .extend({
      cancelOrdersOnHalt: z
        .boolean()
        .default(true)
        .describe(
          "When the kill switch trips to HALTED, cancel the strategies' resting orders and algo orders but those that protect an open position, as cancelOrdersOnFault keeps them (reduce-only orders, a hedge leg's closing orders, take-profit / stop-loss algo orders trading against a position open on their leg), so a stop-loss still fires after the trip; when it trips to REDUCING, those that would add risk, and again each time a position shrinks, goes flat or flips, those that no longer reduce it (not reduce-only, not a hedge leg's closing order, not a take-profit / stop-loss algo order, and not against the position within what the orders of its kind, plain or algo, kept before it left of it). Keel's choice; orders no strategy owns are left alone. Backtests do the same, so the backtest of a paper session's recording gives its fills.",
        ),
    })
    .prefault({}),
  cancelOrdersOnFault: z
    .boolean()
    .default(true)
    .describe(
      "When a strategy is halted by a fault (it threw, or returned something that is not intents), cancel its resting orders and algo orders that could open or add exposure, and keep those that protect its open positions: reduce-only orders, a hedge leg's closing orders and take-profit / stop-loss algo orders (an entry's tp / sl attachments) that trade against a position open on their leg, so a stop-loss still fires after the halt (Keel's choice; a protective order of a flat leg is cancelled). Backtests do the same, so the backtest of a paper session's recording gives its fills.",
    ),
});

/** Global risk settings, validated. */
export type RiskConfig = z.output<typeof riskConfigSchema>;

/** Per-strategy limits: core/risk's own schema, checked on top of the global ones. */
export const strategyRiskSchema = riskLimitsSchema;

/**
 * The risk gate's configuration from a run's config: global limits, each strategy's limits by
 * id, and the kill switch.
 * @param config - the validated `risk` section and strategy entries
 * @param config.risk - the global risk settings
 * @param config.strategies - strategy entries with their optional limits
 * @returns what `new RiskGate(...)` takes
 */
export function riskGateConfigOf(config: {
  readonly risk: RiskConfig;
  readonly strategies: readonly {
    readonly id: string;
    readonly risk?: z.output<typeof riskLimitsSchema> | undefined;
  }[];
}): RiskGateConfig {
  const { killSwitch: withCancel, cancelOrdersOnFault: _onFault, ...limits } = config.risk;
  const { cancelOrdersOnHalt: _onHalt, ...killSwitch } = withCancel;
  const strategies: Record<string, z.output<typeof riskLimitsSchema>> = {};
  for (const strategy of config.strategies)
    if (strategy.risk !== undefined) strategies[strategy.id] = strategy.risk;
  return { limits, strategies, killSwitch };
}
