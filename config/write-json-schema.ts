/**
 * Writes config/keel.schema.json and config/CONFIG-REFERENCE.md from the zod schema, and the
 * parameter tables of strategies/README.md from the built-in strategies' schemas
 * (`npm run schema`), formatted by biome so `npm run lint` accepts them. Tests fail when a
 * committed file differs in content, so run this after changing anything in config/schema or a
 * strategy's params.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import {
  CONFIG_REFERENCE_FILE,
  configReferenceMarkdown,
  JSON_SCHEMA_FILE,
  keelJsonSchemaText,
} from './schema/index.ts';
import { STRATEGIES_README, withStrategyParams } from './strategy-params-reference.ts';

writeFileSync(JSON_SCHEMA_FILE, keelJsonSchemaText());
writeFileSync(CONFIG_REFERENCE_FILE, configReferenceMarkdown());
writeFileSync(STRATEGIES_README, withStrategyParams(readFileSync(STRATEGIES_README, 'utf8')));
const files = [JSON_SCHEMA_FILE, CONFIG_REFERENCE_FILE, STRATEGIES_README];
const format = spawnSync('node_modules/.bin/biome', ['format', '--write', ...files], { stdio: 'inherit' });
if (format.status !== 0) {
  console.error(`✖ biome could not format ${files.join(' and ')} (exit ${format.status})`);
  process.exit(1);
}
console.log(`wrote ${files.join(' and ')}`);
