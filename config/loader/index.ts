/**
 * Loading a run configuration: YAML with positions, `--set` overrides, `${VAR}` substitution
 * from the environment and `.env`, zod validation, and one located sentence per problem.
 * @packageDocumentation
 */
export { cleartextVenueUrlWarnings } from './cleartext-venue-urls.ts';
export type { ConfigProblem } from './config-problem.ts';
export { ConfigInvalidError, formatConfigProblem } from './config-problem.ts';
export type { AppliedOverride, NodeLookup } from './config-source.ts';
export { ConfigSource } from './config-source.ts';
export { substituteEnv, substituteText } from './env-substitution.ts';
export type { EnvLookup, EnvValues } from './env-value.ts';
export { envValueOf } from './env-value.ts';
export type { IssueSentence } from './issue-sentence.ts';
export { describeInput, issueSentences } from './issue-sentence.ts';
export type { KnownKeys } from './known-keys.ts';
export { knownKeysOf } from './known-keys.ts';
export { livePortfolioWarnings } from './live-portfolio-settings.ts';
export type { ConfigLoadResult, LoadConfigOptions, LoadedConfig } from './load-config.ts';
export { loadConfig, loadValidConfig, readDotEnv } from './load-config.ts';
export type { ConfigParseResult, ParseConfigOptions } from './parse-config.ts';
export { parseConfigText } from './parse-config.ts';
export type { OverrideArg, SetOverride } from './set-override.ts';
export {
  applySetOverrides,
  formatSetPath,
  parseSetOverride,
  parseSetPath,
  unsetOverride,
} from './set-override.ts';
export type {
  StrategyParamsDefinition,
  StrategyParamsRegistry,
  StrategyParamsResult,
} from './strategy-params.ts';
export { validateStrategyParams } from './strategy-params.ts';
export { strictYamlValue } from './strict-yaml-value.ts';
export { unusedSectionWarnings } from './unused-sections.ts';
export type { YamlPath } from './yaml-path.ts';
export { formatYamlPath, isPathPrefix, subjectOf } from './yaml-path.ts';
