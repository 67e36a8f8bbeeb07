import { asPlugin, oversizedCall } from './api-call';

describe('asPlugin', () => {
  it("puts the plugin's token on a ctx.client request, whatever credentials its code set", () => {
    const call = asPlugin(
      {
        method: 'GET',
        url: '/api/v1alpha1/users',
        headers: {
          Authorization: 'Basic YWRtaW46c2VjcmV0',
          Cookie: 'svc_session=stolen',
          'Impersonate-User': 'system:plugin:other',
          Accept: 'application/json',
        },
      },
      'plugin-token',
    );
    expect(call).toEqual({
      method: 'GET',
      url: '/api/v1alpha1/users',
      headers: { accept: 'application/json', authorization: 'Bearer plugin-token' },
    });
  });
});

describe('oversizedCall', () => {
  it("refuses a body over the apiserver's limit, in bytes", () => {
    const call = (body?: string) => ({ method: 'POST', url: '/apis/x/v1/things', headers: {}, body });
    expect(oversizedCall(call(), 4)).toBeUndefined();
    expect(oversizedCall(call('abcd'), 4)).toBeUndefined();
    const refused = oversizedCall(call('abcé'), 4);
    expect(refused?.status).toBe(413);
    expect(JSON.parse(refused!.body)).toMatchObject({
      kind: 'Status',
      code: 413,
      reason: 'RequestEntityTooLarge',
      message: 'the request body is larger than the limit of 4 bytes',
    });
  });
});
