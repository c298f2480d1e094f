import { REDACTED } from '../../core/model/index.ts';

/**
 * A venue URL as Keel prints it (stdout, logs, result.json, reports, recording headers): every
 * query value (and a bare query word) becomes `[redacted]` and a fragment is dropped, since a
 * venue or proxy may take a token there (`wss://md.venue.example/ws?token=...`) and a label
 * cannot tell which ones are. The loader
 * refuses a user name or password in venue URLs, so there is none left to hide.
 * @param url - a venue URL (REST or WebSocket)
 * @returns the URL with its query values masked; the text unchanged when it has no query
 * @example
 * venueUrlLabel('wss://md.venue.example/ws?binary=false&token=abc'); // 'wss://md.venue.example/ws?binary=[redacted]&token=[redacted]'
 */
export function venueUrlLabel(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const hash = url.indexOf('#', query);
  const search = url.slice(query + 1, hash < 0 ? undefined : hash);
  const masked = search
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (pair === '') return pair;
      return equals < 0 ? REDACTED : `${pair.slice(0, equals)}=${REDACTED}`;
    })
    .join('&');
  return `${url.slice(0, query)}?${masked}`;
}

/**
 * Whether a URL names a user or password (`https://user:pass@host`).
 * @param url - the URL text
 * @returns true when it parses and carries either
 */
export function hasUserinfo(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  return parsed.username !== '' || parsed.password !== '';
}
