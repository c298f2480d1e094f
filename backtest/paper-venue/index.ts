/**
 * The paper venue: the trading service's REST interface, private WebSocket and market-data
 * WebSocket served over loopback, backed by the simulated venue (Keel's embedded default venue).
 * @packageDocumentation
 */
export { COMMAND_LOG_FILE } from './command-log.ts';
export { DataDirInUseError, lockDataDir } from './data-dir-lock.ts';
export { DataDirReplayError } from './data-dir-replay-error.ts';
export { PaperApiError } from './envelope.ts';
export type { LostReplyOptions, RestFault } from './faults.ts';
export { PaperFaults } from './faults.ts';
export { previewFeed } from './feed-preview.ts';
export { LOCKSTEP_SETTLE_EVENT } from './lockstep-settle.ts';
export { LOCKSTEP_PRIVATE_SENT_FIELD, LOCKSTEP_TIME_EVENT, lockstepTickFrame } from './lockstep-tick.ts';
export type {
  FeedItem,
  FeedPacing,
  FeedSettleRounds,
  FeedSource,
  FeedTick,
  LockstepAckExtras,
} from './market-feed.ts';
export { LOCKSTEP_SETTLE_ROUNDS, listFeed, MarketFeed } from './market-feed.ts';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './paging.ts';
export type { PaperVenue, PaperVenueOptions } from './paper-venue.ts';
export { LOCKSTEP_ACK_PATH, startPaperVenue } from './paper-venue.ts';
export type { JournalEntry, PaperSnapshot } from './persistence.ts';
export { SNAPSHOT_FILE, writeWhole } from './persistence.ts';
export type { PaperPortfolioOptions } from './portfolio-book.ts';
export { PAPER_RATE_LIMITS } from './rate-limits.ts';
export { recordingFeed } from './recording-feed.ts';
export { REST_ROUTES } from './rest-router.ts';
export type { SyntheticFeedOptions } from './synthetic-feed.ts';
export { syntheticFeed } from './synthetic-feed.ts';
export type { LockstepStall } from './venue-latency.ts';
export { MARKET_DATA_WS_PATH, PRIVATE_WS_PATH } from './venue-server.ts';
