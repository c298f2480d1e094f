import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keelStateDir } from '../../../config/compose/keel-state-dir.ts';

describe("Keel's per-user state directory", () => {
  it('is KEEL_STATE_DIR when set, else $XDG_STATE_HOME/keel, else ~/.local/state/keel', () => {
    expect(keelStateDir({ KEEL_STATE_DIR: '/srv/keel', XDG_STATE_HOME: '/x' })).toBe('/srv/keel');
    expect(keelStateDir({ KEEL_STATE_DIR: 'rel' })).toBe(resolve('rel'));
    expect(keelStateDir({ KEEL_STATE_DIR: '', XDG_STATE_HOME: '/x/state' })).toBe('/x/state/keel');
    expect(keelStateDir({})).toBe(join(homedir(), '.local', 'state', 'keel'));
  });

  it('ignores a relative XDG_STATE_HOME, as the XDG spec says', () => {
    expect(keelStateDir({ XDG_STATE_HOME: 'state' })).toBe(join(homedir(), '.local', 'state', 'keel'));
  });
});
