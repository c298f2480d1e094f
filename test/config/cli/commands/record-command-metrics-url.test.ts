import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordCommand } from '../../../../config/cli/commands/record-command.ts';
import { EXIT } from '../../../../config/cli/exit-codes.ts';
import { aPaperVenue, closedAfterEachTest } from '../../../kit/paper-venue-builders.ts';
import { recordConfig } from '../../../kit/record-config.ts';
import { tempDirsRemovedAfterEach } from '../../../kit/temp-dirs.ts';

const opened = closedAfterEachTest();
const aDir = tempDirsRemovedAfterEach('keel-record-metrics-url-');

describe('keel record with metrics.port 0', () => {
  // The chosen URL was logged at info only: at logging.level warn nobody could know where to scrape.
  it('prints the /metrics URL the system chose on stdout, whatever the log level', async () => {
    opened.venue = await aPaperVenue();
    const dir = aDir();
    const file = join(dir, 'rec.yaml');
    const parsed = recordConfig(opened.venue, file, 'metrics: { enabled: true, host: 127.0.0.1, port: 0 }\n');
    let stdout = '';
    const code = await recordCommand(
      { config: parsed.config, file, dir, source: parsed.source } as never,
      { out: join(dir, 'market.jsonl'), durationSec: 0.3 },
      { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: () => true } } as never,
    );
    expect(code).toBe(EXIT.OK);
    expect(stdout).toMatch(
      /^metrics served at http:\/\/127\.0\.0\.1:[1-9]\d*\/metrics \(metrics\.port 0: chosen by the system\)\n/,
    );
  });
});
