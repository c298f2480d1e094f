/**
 * The schema of a Keel run configuration (one YAML file per run).
 * @packageDocumentation
 */

export { REDACTED, Secret } from '../../core/model/index.ts';
export type { BacktestConfig } from './backtest-config.ts';
export {
  backtestConfigSchema,
  feeModelSchema,
  startingCashSchema,
  WINDOW_ENDS_BEFORE_START,
} from './backtest-config.ts';
export {
  CONFIG_REFERENCE_FILE,
  configReferenceMarkdown,
  normalizeMarkdownTables,
  referenceTable,
} from './config-reference.ts';
export { decimalValue, nonNegativeDecimal, positiveDecimal } from './decimal-value.ts';
export { EXTENSION_KEY } from './extension-key.ts';
export type { InstrumentConfig, InstrumentOverrides } from './instrument-config.ts';
export {
  instrumentConfigSchema,
  instrumentOverridesSchema,
  missingSpecFields,
  symSchema,
} from './instrument-config.ts';
export { JSON_SCHEMA_FILE, keelJsonSchemaText } from './json-schema.ts';
export type { KeelConfig, KeelConfigInput, RunMode } from './keel-config.ts';
export { keelConfigSchema, RUN_MODES } from './keel-config.ts';
export type { LoanTermsConfig } from './loan-terms-config.ts';
export { loanAssetTermsSchema, loanTermsConfigSchema } from './loan-terms-config.ts';
export type { OhlcvCsvConfig } from './ohlcv-csv-config.ts';
export { ohlcvCsvConfigSchema } from './ohlcv-csv-config.ts';
export {
  LOG_LEVELS,
  loggingConfigSchema,
  metricsConfigSchema,
  recordingConfigSchema,
  reportConfigSchema,
  shutdownConfigSchema,
} from './output-config.ts';
export type { PaperConfig } from './paper-config.ts';
export { paperConfigSchema, paperSourceSchema } from './paper-config.ts';
export type { PortfoliosConfig } from './portfolio-config.ts';
export { portfoliosConfigSchema, subPortfolioSchema } from './portfolio-config.ts';
export { LOG_REDACT_PATHS, redactConfig } from './redact-config.ts';
export type { RiskConfig } from './risk-config.ts';
export { riskConfigSchema, riskGateConfigOf, strategyRiskSchema } from './risk-config.ts';
export { fillModelConfigSchema, latencyLegSchema, latencyModelSchema } from './sim-models-config.ts';
export { accountCurrencyOf, spotBaseCoinsOf } from './starting-cash-check.ts';
export type { StrategyConfig, StrategySource } from './strategy-config.ts';
export { strategyConfigSchema, strategyName, strategySource, strategyUseSchema } from './strategy-config.ts';
export { timeValue } from './time-value.ts';
export type { VenueConfig } from './venue-config.ts';
export {
  brokerClientIdOf,
  deriveWsUrl,
  MARKET_DATA_WS_PATH,
  PRIVATE_WS_PATH,
  SECRET_PATHS,
  venueConfigSchema,
} from './venue-config.ts';
export { hasUserinfo, venueUrlLabel } from './venue-url.ts';
export type { HistorySource, WarmUpConfig } from './warm-up-config.ts';
export {
  durationValue,
  historySourceSchema,
  warmUpConfigSchema,
  warmUpPeriodOf,
} from './warm-up-config.ts';
