import { asPlugin } from './api-call';

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
