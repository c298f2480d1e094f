import { describe, expect, it } from 'vitest';
import {
  hmacSigner,
  loginSignaturePayload,
  restSignaturePayload,
  signRequest,
  verifyLoginSignature,
  verifySignature,
} from '../../../core/venue/index.ts';

const PARAMS = { symList: ['BINANCE_PERP_BTC_USDT', 'OKX_SPOT_ETH_USDT'], portfolioId: 'p-1' };

// The public docs do not say how an array is written into the signed text, so the encoding is a
// setting (VENUE-NOTES: keep anything the sources leave open configurable).
describe('REST signing of array parameters', () => {
  it('joins arrays with commas by default, and writes them as JSON or as a bracketed list when asked', () => {
    expect(restSignaturePayload(PARAMS, '1700000000')).toBe(
      'portfolioId=p-1&symList=BINANCE_PERP_BTC_USDT,OKX_SPOT_ETH_USDT&1700000000',
    );
    expect(restSignaturePayload(PARAMS, '1700000000', 'comma')).toBe(
      restSignaturePayload(PARAMS, '1700000000'),
    );
    expect(restSignaturePayload(PARAMS, '1700000000', 'json')).toBe(
      'portfolioId=p-1&symList=["BINANCE_PERP_BTC_USDT","OKX_SPOT_ETH_USDT"]&1700000000',
    );
    expect(restSignaturePayload(PARAMS, '1700000000', 'brackets')).toBe(
      'portfolioId=p-1&symList=[BINANCE_PERP_BTC_USDT, OKX_SPOT_ETH_USDT]&1700000000',
    );
  });

  it('refuses a signature made with another array encoding than the one it verifies with', () => {
    const signer = hmacSigner('k', 'secret');
    const comma = signRequest(signer, PARAMS, 1_700_000_000);
    const json = signRequest(signer, PARAMS, 1_700_000_000, 'json');
    expect(comma.signature).not.toBe(json.signature);
    expect(verifySignature('secret', PARAMS, comma.nonce, comma.signature)).toBe(true);
    expect(verifySignature('secret', PARAMS, comma.nonce, comma.signature, 'json')).toBe(false);
    expect(verifySignature('secret', PARAMS, json.nonce, json.signature, 'json')).toBe(true);
    // Without an array the encodings sign alike.
    const plain = { portfolioId: 'p-1' };
    expect(signRequest(signer, plain, 1, 'json')).toEqual(signRequest(signer, plain, 1));
  });
});

describe('verifying a signature (server side)', () => {
  it('refuses the right signature with one hex digit more, which Node decodes to the same bytes', () => {
    const rest = signRequest(hmacSigner('k', 'secret'), PARAMS, 1_700_000_000);
    expect(verifySignature('secret', PARAMS, rest.nonce, rest.signature)).toBe(true);
    expect(verifySignature('secret', PARAMS, rest.nonce, `${rest.signature}0`)).toBe(false);
    const sign = hmacSigner('k', 'secret').sign(loginSignaturePayload('1700000000'));
    expect(verifyLoginSignature('secret', '1700000000', sign)).toBe(true);
    expect(verifyLoginSignature('secret', '1700000000', `${sign}0`)).toBe(false);
    expect(verifyLoginSignature('secret', '1700000000', `${sign}zz`)).toBe(false);
  });
});
