/** What an authoriser is asked about (Kubernetes' authorizer.Attributes, cluster-scoped). */
export interface RequestAttributes {
  /** True for `/api/<v>/<resource>…` and `/apis/<g>/<v>/<resource>…`; false for every other path. */
  isResourceRequest: boolean;
  /** The normalised path; what non-resource rules match. */
  path: string;
  /** Resource requests: get, list, watch, create, update, patch, delete, deletecollection; others: the lower-cased method. */
  verb: string;
  /** `''` for the core group. */
  apiGroup: string;
  /** The plural, e.g. `persons`. */
  resource: string;
  /** e.g. `status`; `''` when none. */
  subresource: string;
  /** The object's name; `''` for a collection. */
  name: string;
}
