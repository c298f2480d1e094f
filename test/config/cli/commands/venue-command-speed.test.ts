import { describe, expect, it } from 'vitest';
import { venueCommand } from '../../../../config/cli/commands/venue-command.ts';
import { EXIT } from '../../../../config/cli/exit-codes.ts';

/** Starts `keel venue` at a speed, stops it once it printed its addresses, and returns what it printed. */
async function startLines(speed: number): Promise<string> {
  let stdout = '';
  const run = venueCommand(
    { host: '127.0.0.1', port: 0, recording: undefined, seed: 7, speed },
    {
      stdout: {
        write: (text: string) => {
          stdout += text;
          if (text.includes('Ctrl-C stops it.')) process.emit('SIGINT');
        },
      },
      stderr: { write: () => true },
    },
  );
  expect(await run).toBe(EXIT.OK);
  return stdout;
}

describe('keel venue --speed', () => {
  it('says at start that its clock runs ahead of real time above speed 1', async () => {
    expect(await startLines(5)).toContain(
      "  clock:           the replay's, 5x real time: data, fills and the Date header on it, ahead of this machine's clock by 4 s more every second\n",
    );
  }, 30_000);

  it('says nothing of its clock at real time', async () => {
    expect(await startLines(1)).not.toContain('clock:');
  }, 30_000);
});
