import { NetworkError } from '../client';
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

  it('adds nothing to other network failures', () => {
    expect(describeFailure(new NetworkError('GET /api: connect ECONNREFUSED 127.0.0.1:8080')).text).toBe(
      'error: cannot reach the server: GET /api: connect ECONNREFUSED 127.0.0.1:8080',
    );
  });
});
