/**
 * The US equity market's time zone: New York, daylight saving included. Sessions, DAY and GTD
 * expiries, `timeToSend` and the report's trading days of US equities are read in it.
 */
export const US_EQUITY_ZONE = 'America/New_York';
