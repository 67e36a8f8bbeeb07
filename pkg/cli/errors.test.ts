import { ApiError, NetworkError } from '../client';
import { describeFailure } from './errors';

describe('describeFailure', () => {
  it('says how to trust a server whose certificate is not trusted', () => {
    const { code, text } = describeFailure(new NetworkError('GET /api: unable to verify the first certificate'));
    expect(code).toBe(1);
    expect(text).toBe(
      "error: cannot reach the server: GET /api: unable to verify the first certificate\n  the server's certificate is not one svcctl trusts: give its CA with --certificate-authority FILE (make run writes data/tls/ca.crt)",
    );
  });

  it('says to use http:// when an https:// URL names a plain HTTP port', () => {
    const err = new NetworkError('GET /api: write EPROTO …:ssl3_get_record:wrong version number:…');
    expect(describeFailure(err).text).toMatch(/\n {2}the server answers plain HTTP there: use an http:\/\/ URL$/);
  });

  it('says an http:// URL may name an HTTPS port when the server hangs up without answering', () => {
    const err = new NetworkError('POST /apis/x: other side closed', { url: 'http://127.0.0.1:8443/apis/x' });
    expect(describeFailure(err).text).toBe(
      'error: cannot reach the server: POST /apis/x: other side closed\n  the server hung up without answering: that port may serve HTTPS (make run serves it on 8443); use an https:// URL',
    );
    const overHttps = new NetworkError('GET /x: other side closed', { url: 'https://127.0.0.1:8443/x' });
    expect(describeFailure(overHttps).text).toBe('error: cannot reach the server: GET /x: other side closed');
  });

  it("says to log in again after a 401, keeping the server's message", () => {
    const err = new ApiError({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      reason: 'Unauthorized',
      code: 401,
      message: 'invalid bearer token: the token was revoked',
    });
    expect(describeFailure(err)).toEqual({
      code: 1,
      text: 'Error from server (Unauthorized): invalid bearer token: the token was revoked\n  run `svcctl login --server URL --username NAME` to log in (again); `svcctl config view` shows the current context',
    });
  });

  it('adds nothing to other network failures', () => {
    expect(describeFailure(new NetworkError('GET /api: connect ECONNREFUSED 127.0.0.1:8080')).text).toBe(
      'error: cannot reach the server: GET /api: connect ECONNREFUSED 127.0.0.1:8080',
    );
  });
});
