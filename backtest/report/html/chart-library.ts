import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const STANDALONE_BUILD = 'dist/lightweight-charts.standalone.production.js';

let cached: string | undefined;

/**
 * The lightweight-charts standalone build (it defines `window.LightweightCharts`), read from
 * the installed package when a report is generated, so the report opens offline. The package's
 * `exports` map hides `dist/`, hence the path from its package.json.
 * @returns the library's JavaScript source
 * @throws Error when lightweight-charts is not installed
 */
export function lightweightChartsSource(): string {
  if (cached === undefined) {
    const require = createRequire(import.meta.url);
    let packageJson: string;
    try {
      packageJson = require.resolve('lightweight-charts/package.json');
    } catch (cause) {
      throw new Error('HTML report: the lightweight-charts package is not installed (npm install)', {
        cause,
      });
    }
    cached = readFileSync(join(dirname(packageJson), STANDALONE_BUILD), 'utf8');
  }
  return cached;
}
