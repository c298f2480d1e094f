import { afterEach } from 'vitest';
import type { LiveVenue } from '../../core/venue/index.ts';
import type { FakeVenueWs } from './venue-ws-server.ts';

/**
 * Stops, after each test, the live venues a test opened against a fake venue socket, and closes
 * those sockets. Call it in a `describe` block.
 * @returns notes a venue and its socket, to stop and close after the test
 */
export function liveVenuesStoppedAfterEach(): (live: LiveVenue, socket: FakeVenueWs) => void {
  const opened: { live: LiveVenue; socket: FakeVenueWs }[] = [];
  afterEach(async () => {
    for (const { live, socket } of opened.splice(0)) {
      await live.stop();
      await socket.close();
    }
  });
  return (live, socket) => {
    opened.push({ live, socket });
  };
}
