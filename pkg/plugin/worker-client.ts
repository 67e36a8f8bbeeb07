import { ApiClient } from '../client/api-client';
import type { PluginWorkerData } from './protocol';

/** The plugin's `ctx.client`: pkg/client's ApiClient acting as `system:plugin:<name>`, or undefined without access. */
export function pluginClient(data: PluginWorkerData): ApiClient | undefined {
  if (!data.api) return undefined;
  return new ApiClient({
    server: data.api.server,
    token: data.api.token,
    insecureSkipTlsVerify: data.api.insecureSkipTlsVerify,
    userAgent: `svc-plugin/${data.name}`,
  });
}
