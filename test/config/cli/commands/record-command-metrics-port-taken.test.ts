import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordCommand } from '../../../../config/cli/commands/record-command.ts';
import { EXIT } from '../../../../config/cli/exit-codes.ts';
import { aFreePort } from '../../../kit/free-port.ts';
import { aPaperVenue, closedAfterEachTest } from '../../../kit/paper-venue-builders.ts';
import { recordConfig } from '../../../kit/record-config.ts';
import { tempDirsRemovedAfterEach } from '../../../kit/temp-dirs.ts';

const opened = closedAfterEachTest();
const aDir = tempDirsRemovedAfterEach('keel-record-port-taken-');
let squatter: Server | undefined;
afterEach(async () => {
  const server = squatter;
  squatter = undefined;
  if (server !== undefined) await new Promise<void>((done) => server.close(() => done()));
});

describe('keel record when metrics.port is taken by another process', () => {
  it('exits 2 as keel run does, before the earlier recording is moved aside', async () => {
    opened.venue = await aPaperVenue();
    const venue = opened.venue;
    const port = await aFreePort();
    const server = createServer();
    squatter = server;
    await new Promise<void>((done) => server.listen(port, '127.0.0.1', () => done()));
    const dir = aDir();
    const out = join(dir, 'market.jsonl');
    writeFileSync(out, "previous day's recording\n");
    const file = join(dir, 'rec.yaml');
    const parsed = recordConfig(
      venue,
      file,
      `metrics:
  enabled: true
  host: 127.0.0.1
  port: ${port}
`,
    );
    let stderr = '';
    const code = await recordCommand(
      { config: parsed.config, file, dir, source: parsed.source } as never,
      { out, durationSec: 0.3 },
      { stdout: { write: () => true }, stderr: { write: (text: string) => (stderr += text) } } as never,
    );
    expect(stderr).toContain(`metrics.port ${port} is already in use`);
    expect(stderr).toMatch(/ → at metrics\.port \(.*rec\.yaml:\d+:\d+\)\n$/);
    expect(readdirSync(dir), 'the earlier recording stays where it was').toEqual(['market.jsonl']);
    expect(readFileSync(out, 'utf8')).toBe("previous day's recording\n");
    expect(code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
  });
});
