/**
 * `npm start`: paper-trades the market-maker example against the embedded paper venue on
 * SYNTHETIC data for about 30 s (KEEL_START_SECONDS changes it), then prints the fills, the PnL
 * and where the recording, result and HTML report went (under out/).
 * @packageDocumentation
 */
import { fileURLToPath } from 'node:url';
import { processIo } from './cli/cli-io.ts';
import { runStart } from './start-run.ts';
import { applyKeelV8Flags } from './v8-tuning.ts';

applyKeelV8Flags();
const config = fileURLToPath(new URL('./examples/market-maker-paper.yaml', import.meta.url));
const seconds = Number(process.env.KEEL_START_SECONDS ?? 30);
process.exitCode = await runStart(config, Number.isFinite(seconds) && seconds > 0 ? seconds : 30, processIo);
