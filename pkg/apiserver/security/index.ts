import type { AccessIndex } from '../../auth/insight/access-index';
import type { RouteTable } from '../routes';
import { registerAccessReviewRoutes } from './access-reviews';
import type { SecurityDeps } from './deps';
import { registerInsightRoutes } from './insight-reviews';
import { registerPasswordRoutes } from './passwords';
import { registerPermissionRoutes } from './permissions';
import { registerSelfReviewRoutes } from './self-reviews';
import { registerTokenRoutes } from './tokens';

export type { SecurityDeps } from './deps';

/** Adds every security endpoint (docs/security.md) to the route table. */
/** Returns the who-can index the insight reviews answer from. */
export function registerSecurityRoutes(routes: RouteTable, deps: SecurityDeps): AccessIndex {
  registerPasswordRoutes(routes, deps);
  registerTokenRoutes(routes, deps);
  registerPermissionRoutes(routes, deps);
  registerAccessReviewRoutes(routes, deps);
  registerSelfReviewRoutes(routes, deps);
  return registerInsightRoutes(routes, deps);
}
