import { collectionPath } from '../api/paths';

/** A model as its console route names it: `/models/<group or core>/<version>/<plural>`. */
export interface ModelParams {
  group: string;
  version: string;
  plural: string;
}

export function modelOf(params: Record<string, string>): ModelParams {
  return { group: params.group === 'core' ? '' : params.group, version: params.version, plural: params.plural };
}

export const modelRoute = (m: ModelParams) => `/models/${m.group || 'core'}/${m.version}/${m.plural}`;
export const modelCollection = (m: ModelParams) => collectionPath(m.group, m.version, m.plural);
