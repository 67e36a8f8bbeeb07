import { describe, expect, it } from 'vitest';
import { sessionEndReason } from './session';

describe('sessionEndReason', () => {
  const session = { token: 't', username: 'ada', expiresAt: '2026-01-01T12:00:00.000Z' };

  it('says the session expired once the login token is past its expiry', () => {
    expect(sessionEndReason(session, Date.parse('2026-01-01T12:00:01Z'))).toMatch(/^Your session expired at /);
  });

  it('names the causes it can be before then, and for a pasted token', () => {
    for (const reason of [
      sessionEndReason(session, Date.parse('2026-01-01T11:00:00Z')),
      sessionEndReason({ token: 't', username: 'ada' }),
    ]) {
      expect(reason).toMatch(/revoked/);
      expect(reason).toMatch(/disabled/);
      expect(reason).toMatch(/server restarted/);
    }
  });
});
