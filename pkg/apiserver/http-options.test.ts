import { DEFAULT_SETTINGS } from './handlers/deps';
import { httpServerOptions } from './http-options';

describe('httpServerOptions', () => {
  it('bounds a whole request by the request timeout, 60 s by default, checked at least every quarter of it', () => {
    expect(httpServerOptions(DEFAULT_SETTINGS)).toEqual({
      requestTimeout: 60_000,
      connectionsCheckingInterval: 15_000,
    });
    expect(httpServerOptions({ ...DEFAULT_SETTINGS, requestTimeoutMs: 400 })).toEqual({
      requestTimeout: 400,
      connectionsCheckingInterval: 100,
    });
  });

  it('checks at most every 30 s, as Node does by default, however long the timeout', () => {
    expect(httpServerOptions({ ...DEFAULT_SETTINGS, requestTimeoutMs: 600_000 }).connectionsCheckingInterval).toBe(
      30_000,
    );
  });
});
