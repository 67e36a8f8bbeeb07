// The content module (docs/content.md): posts, built like a plugin and loaded by every apiserver. Its code runs in a
// plugin worker and reaches the apiserver through ctx.client only.
import type { PluginContext } from './plugin-context';
import { POST_INDEXES, POST_MODEL } from './post-model';
import { registerPublicRoutes } from './public-routes';
import { syncPublishStatus } from './publish-sync';
import { registerUserCentreRoutes } from './uc-routes';

let stopSync: AbortController | undefined;

export async function start(ctx: PluginContext): Promise<void> {
  await ctx.schemes.register(POST_MODEL, POST_INDEXES);
  registerUserCentreRoutes(ctx);
  registerPublicRoutes(ctx);
  stopSync = new AbortController();
  void syncPublishStatus(ctx, stopSync.signal);
}

export function stop(): void {
  stopSync?.abort();
}
