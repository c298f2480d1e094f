import { describe, expect, it } from 'vitest';
import { venueCommand } from '../../../../config/cli/commands/venue-command.ts';
import { EXIT } from '../../../../config/cli/exit-codes.ts';

describe('keel venue stopped by a signal', () => {
  // It held SIGINT and SIGTERM only: a closed terminal's SIGHUP ended it through the launcher
  // (exit 129), its clients' sockets dropped and its data dir's snapshot not written at close.
  it('on SIGHUP closes the venue as on SIGTERM, exits 0, and leaves no signal handler behind', async () => {
    const before = ['SIGINT', 'SIGTERM', 'SIGHUP'].map((signal) => process.listenerCount(signal));
    let stdout = '';
    const code = await venueCommand(
      { host: '127.0.0.1', port: 0, recording: undefined, seed: 7, speed: 1 },
      {
        stdout: {
          write: (text: string) => {
            stdout += text;
            if (text.includes('Ctrl-C stops it.')) process.emit('SIGHUP');
            return true;
          },
        },
        stderr: { write: () => true },
      },
    );
    expect(code).toBe(EXIT.OK);
    expect(stdout.endsWith('paper venue closed\n')).toBe(true);
    expect(['SIGINT', 'SIGTERM', 'SIGHUP'].map((signal) => process.listenerCount(signal))).toEqual(before);
  }, 15_000);
});
