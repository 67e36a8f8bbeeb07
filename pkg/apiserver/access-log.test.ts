import { loggedQuery } from './access-log';

describe('loggedQuery', () => {
  it('is empty for a URL without a query (or with an empty one)', () => {
    expect(loggedQuery('/api/v1/namespaces')).toBe('');
    expect(loggedQuery('/api/v1/namespaces?')).toBe('');
  });

  it("shows a list's selectors decoded, as typed", () => {
    expect(loggedQuery('/apis/g/v1/persons?labelSelector=app%3Dweb%2Ctier%21%3Ddb&limit=10')).toBe(
      'labelSelector=app=web,tier!=db&limit=10',
    );
  });

  it('redacts the value of a parameter whose name says it is a secret, whatever its case', () => {
    expect(
      loggedQuery('/x?access_token=s3cret&watch=true&Password=hunter2&client_secret=abc&authorization=Bearer%20t'),
    ).toBe('access_token=REDACTED&watch=true&Password=REDACTED&client_secret=REDACTED&authorization=REDACTED');
  });
});
