import { describe, expect, it } from 'vitest';
import { CLOSE_AFTER_DEADLINE_MS } from '../../../config/compose/venue-session-shutdown.ts';
import { shutdownConfigSchema } from '../../../config/schema/output-config.ts';

/** `docker stop`'s default grace before it kills the process, ms. */
const DOCKER_STOP_GRACE_MS = 10_000;

describe('shutdownConfigSchema', () => {
  it('defaults to a stop that leaves docker stop at least 2 s to write the result after closing the connections', () => {
    const { timeoutMs } = shutdownConfigSchema.parse({});
    expect(DOCKER_STOP_GRACE_MS - timeoutMs - CLOSE_AFTER_DEADLINE_MS).toBeGreaterThanOrEqual(2_000);
  });
});
