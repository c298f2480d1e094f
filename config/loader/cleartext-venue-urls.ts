import type { LoadedConfig } from './load-config.ts';

/** The venue URL fields of a live config; a WebSocket URL not written derives from `restUrl`. */
const URL_FIELDS = ['restUrl', 'privateWsUrl', 'marketDataWsUrl'] as const;

/** Schemes that carry the API key, signatures, orders and account data unencrypted. */
const CLEARTEXT: Readonly<Record<string, string>> = { 'http:': 'https://', 'ws:': 'wss://' };

/**
 * Whether a host name is this machine, where clear text never crosses a network (the embedded
 * paper venue, `keel venue`, a local TLS-terminating proxy).
 * @param hostname - a URL's hostname (IPv6 in brackets)
 * @returns true for localhost, *.localhost, 127.0.0.0/8 and ::1
 */
function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127\.\d+\.\d+\.\d+$/.test(hostname) ||
    hostname === '[::1]'
  );
}

/**
 * Venue URLs of a live config that are http:// or ws:// to another machine: the API key, each
 * request's signature, the orders and the account's data would cross the network readable and
 * alterable by anyone on the path. They validate (a venue's test host may be plain), so this is a
 * warning of `keel validate`, `keel run` and `keel record`. A WebSocket URL derived from a plain
 * `restUrl` is covered by that one's warning.
 * @param loaded - a validated config
 * @returns one sentence per such URL written in the file (or by `--set`), with where
 */
export function cleartextVenueUrlWarnings(loaded: LoadedConfig): string[] {
  const { venue, mode } = loaded.config;
  if (mode !== 'live' || venue === undefined) return [];
  return URL_FIELDS.flatMap((field) => {
    const path = ['venue', field];
    const written =
      loaded.source.lookup(path).node !== undefined || loaded.source.overrideUnder(path) !== undefined;
    if (!written) return [];
    const url = new URL(venue[field]);
    const secure = CLEARTEXT[url.protocol];
    if (secure === undefined || isLoopback(url.hostname)) return [];
    return [
      `venue.${field} is ${url.protocol}// to ${url.hostname}, not ${secure}: the API key, request signatures, orders and account data cross the network in clear text (${loaded.source.where(path).where})`,
    ];
  });
}
