import { DEFAULT_SETTINGS } from './handlers/deps';
import { httpServerOptions } from './http-options';

describe('httpServerOptions', () => {
  it('bounds a whole request by the request timeout, 60 s by default, checked every second', () => {
    expect(httpServerOptions(DEFAULT_SETTINGS)).toEqual({
      requestTimeout: 60_000,
      connectionsCheckingInterval: 1000,
    });
    expect(httpServerOptions({ ...DEFAULT_SETTINGS, requestTimeoutMs: 400 })).toEqual({
      requestTimeout: 400,
      connectionsCheckingInterval: 100,
    });
  });

  it('checks at least every second however long the timeout, so that a 408 is never more than a second late', () => {
    expect(httpServerOptions({ ...DEFAULT_SETTINGS, requestTimeoutMs: 600_000 }).connectionsCheckingInterval).toBe(
      1000,
    );
  });
});
