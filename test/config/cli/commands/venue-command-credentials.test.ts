import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { venueCommand } from '../../../../config/cli/commands/venue-command.ts';
import { EXIT } from '../../../../config/cli/exit-codes.ts';
import { signedRest } from '../../../kit/paper-venue-client.ts';

/**
 * Runs `keel venue` in-process with the given environment; once it is up, runs `whileUp` against
 * its base URL and stops it.
 */
async function venueWith<T>(
  env: Record<string, string>,
  whileUp: (restUrl: string) => Promise<T>,
): Promise<{ readonly code: number; readonly stdout: string; readonly stderr: string; readonly seen?: T }> {
  let stdout = '';
  let stderr = '';
  let seen: Promise<T> | undefined;
  const code = await venueCommand(
    { host: '127.0.0.1', port: 0, recording: undefined, seed: 7, speed: 1 },
    {
      stdout: {
        write: (text: string) => {
          stdout += text;
          if (!text.includes('Ctrl-C stops it.')) return;
          const restUrl = /base URL: +(\S+)/.exec(text)?.[1] ?? '';
          seen = whileUp(restUrl).finally(() => process.emit('SIGINT'));
        },
      },
      stderr: { write: (text: string) => (stderr += text) },
    },
    env,
  );
  return { code, stdout, stderr, ...(seen === undefined ? {} : { seen: await seen }) };
}

describe('keel venue credentials from KEEL_API_KEY / KEEL_API_SECRET', () => {
  it('takes empty ones for unset: it makes its own, so a client sending an empty key is refused', async () => {
    const run = await venueWith({ KEEL_API_KEY: '', KEEL_API_SECRET: '' }, (restUrl) =>
      signedRest({ restUrl, apiKey: '', apiSecret: '' }, 'GET', '/api/v1/trading/account'),
    );
    expect(run.code).toBe(EXIT.OK);
    expect(run.stdout).toMatch(/ {2}API key: +\S+\n {2}API secret: +\S+\n/);
    expect(run.seen?.status).not.toBe(200);
  }, 30_000);

  it("states its account's id, which US-equity orders must name as brokerClientId", async () => {
    const run = await venueWith({}, async () => undefined);
    expect(run.code).toBe(EXIT.OK);
    expect(run.stdout).toMatch(/\n {2}account id: +PAPER-MAIN \(US-equity orders' brokerClientId/);
  }, 30_000);

  it('takes them from the files KEEL_API_KEY_FILE / KEEL_API_SECRET_FILE name, and refuses a file it cannot read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-venue-secrets-'));
    try {
      writeFileSync(join(dir, 'key'), 'file-key\n');
      writeFileSync(join(dir, 'secret'), 'file-secret\n');
      const env = { KEEL_API_KEY_FILE: join(dir, 'key'), KEEL_API_SECRET_FILE: join(dir, 'secret') };
      const run = await venueWith(env, (restUrl) =>
        signedRest(
          { restUrl, apiKey: 'file-key', apiSecret: 'file-secret' },
          'GET',
          '/api/v1/trading/account',
        ),
      );
      expect(run.code).toBe(EXIT.OK);
      expect(run.stdout).toMatch(/ {2}API key: +file-key \(KEEL_API_KEY\)\n/);
      expect(run.seen?.status).toBe(200);
      const missing = join(dir, 'nope');
      const refused = await venueWith({ ...env, KEEL_API_SECRET_FILE: missing }, async () => undefined);
      expect(refused.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
      expect(refused.stderr).toBe(
        `✖ keel venue: KEEL_API_SECRET is not set, and KEEL_API_SECRET_FILE names ${missing}, which cannot be read (ENOENT)\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('refuses an empty one beside a set one, as only one set', async () => {
    const run = await venueWith({ KEEL_API_KEY: '', KEEL_API_SECRET: 'a-secret' }, async () => undefined);
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(run.stderr).toBe(
      '✖ keel venue: set both KEEL_API_KEY and KEEL_API_SECRET, or neither (an empty one counts as unset)\n',
    );
  }, 30_000);
});
