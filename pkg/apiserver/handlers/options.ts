import { badRequest } from '../../api/errors';
import type { RequestOptions, FieldValidation } from '../../registry/resource-store';

const FIELD_VALIDATION: Record<string, FieldValidation> = { strict: 'Strict', warn: 'Warn', ignore: 'Ignore' };

/** `?dryRun=All` and `?fieldValidation=Strict|Warn|Ignore`, as Kubernetes spells them; anything else is 400. */
export function writeOptions(query: URLSearchParams): RequestOptions {
  const options: RequestOptions = {};
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
