import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ConnectionEvent,
  hmacSigner,
  PrivateWsClient,
  type PrivateWsOptions,
  ServerClock,
  VenueRestClient,
  VenueTimeoutError,
} from '../../../../core/venue/index.ts';
import { type FakeTimer, fakeTimer } from '../../../kit/venue-fake-timer.ts';
import { type FakeVenueHttp, startFakeVenueHttp } from '../../../kit/venue-http-server.ts';
import { advanceUntil, waitFor } from '../../../kit/venue-wait.ts';
import { ok, WIRE_ACCOUNT } from '../../../kit/venue-wire-samples.ts';
import { type FakeVenueWs, startFakeVenueWs } from '../../../kit/venue-ws-server.ts';

const signer = hmacSigner('ws-key', 'ws-secret');
const logger = pino({ level: 'silent' });

describe('private WebSocket client: recovery from a hung upgrade, a silent login and a stepped clock', () => {
  let venue: FakeVenueWs;
  let timer: FakeTimer;
  let client: PrivateWsClient;
  const cleanup: (() => Promise<unknown>)[] = [];

  const start = (options: Partial<PrivateWsOptions> = {}) => {
    client = new PrivateWsClient({
      url: venue.url,
      signer,
      timer,
      random: { next: () => 0 },
      requestTimeoutMs: 1_000,
      reconnect: { baseMs: 100, capMs: 1_000 },
      logger,
      ...options,
    });
    cleanup.push(() => client.close());
    return client;
  };

  beforeEach(async () => {
    venue = await startFakeVenueWs();
    timer = fakeTimer(1_700_000_000_000);
    cleanup.push(() => venue.close());
  });
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('abandons a reconnect whose upgrade never completes after 10 s (the default) and reconnects with backoff', async () => {
    start();
    const connections: ConnectionEvent[] = [];
    client.connection.subscribe((e) => connections.push(e));
    await client.connect();
    venue.hangUpgrades = 1;
    venue.dropAll();
    await waitFor(() => connections.some((e) => e.kind === 'dropped'), 'the drop');
    await timer.advance(1_000);
    await waitFor(() => venue.upgrades === 2, 'the reconnect reaching the venue');
    await timer.advance(9_999);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect({ upgrades: venue.upgrades, loggedIn: client.isLoggedIn }).toEqual({
      upgrades: 2,
      loggedIn: false,
    });
    await timer.advance(1);
    await advanceUntil(timer, () => client.isLoggedIn, 'the login after the abandoned attempt');
    expect({ upgrades: venue.upgrades, logins: venue.logins }).toEqual({ upgrades: 3, logins: 2 });
    expect(connections.map((e) => e.kind)).toEqual(['loggedIn', 'dropped', 'loggedIn']);
  });

  it('fails a first connect whose upgrade never completes with VenueTimeoutError after openTimeoutMs, and keeps trying', async () => {
    start({ openTimeoutMs: 3_000 });
    venue.hangUpgrades = 1;
    const connecting = client.connect().catch((e: unknown) => e);
    await waitFor(() => venue.upgrades === 1, 'the upgrade reaching the venue');
    await timer.advance(3_000);
    const error = await connecting;
    expect(error).toBeInstanceOf(VenueTimeoutError);
    expect((error as VenueTimeoutError).message).toBe(
      'private WebSocket opening handshake got no answer within 3000 ms',
    );
    await advanceUntil(timer, () => client.isLoggedIn, 'the login of the next attempt');
    expect(venue.upgrades).toBe(2);
  });

  it('drops a connection whose login reply never comes once the reply timeout passes, and logs in on the next attempt', async () => {
    start();
    venue.onLogin = () => null;
    const connecting = client.connect().catch((e: unknown) => e);
    await waitFor(() => venue.logins === 1, 'the login reaching the venue');
    await timer.advance(1_000);
    expect(await connecting).toBeInstanceOf(VenueTimeoutError);
    venue.onLogin = () => 0;
    await advanceUntil(timer, () => client.isLoggedIn, 'the login of the next attempt');
    expect({ upgrades: venue.upgrades, logins: venue.logins }).toEqual({ upgrades: 2, logins: 2 });
  });

  describe('the machine clock steps while the socket is up', () => {
    let http: FakeVenueHttp;
    let localAhead: number;
    let log: string[];
    const venueNow = () => timer.now() - localAhead;

    beforeEach(async () => {
      localAhead = 0;
      log = [];
      http = await startFakeVenueHttp(() => {
        log.push('rest');
        return { body: ok({ ...WIRE_ACCOUNT, assets: [] }), date: new Date(venueNow()).toUTCString() };
      });
      cleanup.push(() => http.close());
    });

    /** A venue that refuses a login timestamp more than 60 s off its clock with `code`. */
    const refuseStaleTimestamps = (code: number) => {
      venue.onLogin = (args) => {
        const answer = Math.abs(Number(args.timestamp) * 1000 - venueNow()) > 60_000 ? code : 0;
        log.push(`login ${answer}`);
        return answer;
      };
    };

    /**
     * The clock steps 2 min in one fake advance: no ping falls due in it (its pong could not come
     * back within the advance), and replies have time to come over loopback between steps.
     */
    const slowSteps = { pingIntervalMs: 600_000, requestTimeoutMs: 5_000 };

    /** Steps the local clock 2 min ahead of the venue's, then drops the socket. */
    const stepClockAndDrop = async () => {
      localAhead = 120_000;
      await timer.advance(120_000);
      venue.dropAll();
      await waitFor(() => !client.isLoggedIn, 'the drop');
    };

    it.each([
      [7000, 'nonce out of range'],
      [60009, 'login failed, the only login refusal public venue docs name'],
    ])(
      're-learns the venue clock before the attempt after a login refused with %i (%s), and logs in',
      async (code) => {
        const serverClock = new ServerClock(timer, logger);
        const rest = new VenueRestClient({
          baseUrl: http.url,
          signer,
          timer,
          serverClock,
          logger,
          retry: { maxRetries: 0, baseMs: 1, capMs: 1 },
        });
        cleanup.push(() => rest.close());
        start({ ...slowSteps, serverClock, refreshServerClock: () => rest.getTradingAccount() });
        refuseStaleTimestamps(code);
        await rest.getTradingAccount();
        await client.connect();
        await stepClockAndDrop();
        await advanceUntil(timer, () => client.isLoggedIn, 'the login after the clock step');
        expect(log).toEqual(['rest', 'login 0', `login ${code}`, 'rest', 'login 0']);
        expect(serverClock.offsetMs).toBeLessThanOrEqual(-119_000);
      },
    );

    it('does not ask for the clock after a login refused for a reason a clock cannot explain (2002, invalid API key)', async () => {
      let refreshes = 0;
      start({
        refreshServerClock: async () => {
          refreshes++;
        },
      });
      venue.loginCode = 2002;
      await expect(client.connect()).rejects.toMatchObject({ code: 2002 });
      await advanceUntil(timer, () => venue.logins === 2, 'the next attempt');
      expect(refreshes).toBe(0);
    });

    it('does not ask for the clock after a 60009 login refusal whose message says it was rate limited', async () => {
      let refreshes = 0;
      start({
        refreshServerClock: async () => {
          refreshes++;
        },
      });
      venue.loginCode = 60009;
      venue.loginMsg = 'login failed: rate limited: wsLogin allows 1 requests per 1 s per trading portfolio';
      await expect(client.connect()).rejects.toMatchObject({ code: 60009 });
      await advanceUntil(timer, () => venue.logins === 2, 'the next attempt');
      expect(refreshes).toBe(0);
    });

    it('goes on with the attempt when re-learning the clock fails, and re-learns again after the next refusal', async () => {
      let refreshes = 0;
      start({
        ...slowSteps,
        refreshServerClock: () => {
          refreshes++;
          return Promise.reject(new Error('REST unreachable'));
        },
      });
      refuseStaleTimestamps(7000);
      await client.connect();
      await stepClockAndDrop();
      await advanceUntil(timer, () => log.length === 3, 'the attempt after the failed re-learning');
      expect({ log, refreshes }).toEqual({ log: ['login 0', 'login 7000', 'login 7000'], refreshes: 1 });
      await advanceUntil(timer, () => refreshes === 2, 're-learning after the second refusal');
    });
  });
});
