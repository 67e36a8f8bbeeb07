import { badRequest } from '../../api/errors';
import type { FieldValidation, ObjectAccess, RequestOptions } from '../../registry/resource-store';
import type { UserInfo } from '../../auth/user';

const FIELD_VALIDATION: Record<string, FieldValidation> = { strict: 'Strict', warn: 'Warn', ignore: 'Ignore' };

/**
 * `?dryRun=All` and `?fieldValidation=Strict|Warn|Ignore`, as Kubernetes spells them; anything else is 400.
 * The caller rides along so that the registry knows who writes, with the objects they may write (`access`) when
 * conditional rules allow the request.
 */
export function writeOptions(query: URLSearchParams, user?: UserInfo, access?: ObjectAccess): RequestOptions {
  const options: RequestOptions = user ? { user } : {};
  if (access) options.access = access;
  const dryRun = query.getAll('dryRun');
  for (const value of dryRun) {
    if (value !== 'All') throw badRequest(`invalid dryRun "${value}": the only supported value is "All"`);
    options.dryRun = true;
  }
  const fv = query.get('fieldValidation');
  if (fv !== null && fv !== '') {
    const mode = FIELD_VALIDATION[fv.toLowerCase()];
    if (!mode) throw badRequest(`invalid fieldValidation "${fv}": use Strict, Warn or Ignore`);
    options.fieldValidation = mode;
  }
  return options;
}

const PROPAGATION_POLICIES = ['Orphan', 'Background', 'Foreground'];

/**
 * Checks a DeleteOptions `propagationPolicy` (from the body or the query): absent or one of
 * Kubernetes' values, which svc accepts and treats alike (there is no owner-reference garbage
 * collection); anything else is 400, so that a typo never deletes under a policy nobody asked for.
 */
export function checkPropagationPolicy(value: unknown, where: string): void {
  if (value === undefined || value === null) return;
  if (typeof value === 'string' && PROPAGATION_POLICIES.includes(value)) return;
  throw badRequest(`invalid ${where} ${JSON.stringify(value)}: must be one of ${PROPAGATION_POLICIES.join(', ')}`);
}
