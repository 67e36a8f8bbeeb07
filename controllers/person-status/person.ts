import type { ApiObject } from '../../pkg/api/object';
import type { ResourceRef } from '../../pkg/client';

/**
 * The Person example model (manifests/examples/person-model.yaml) as this
 * controller sees it. A controller declares the types of the objects it reads:
 * the API hands out plain JSON, and these interfaces say which fields to expect.
 */

/** Where Persons are served: `/apis/example.com/v1alpha1/persons`. */
export const PERSONS: ResourceRef = { group: 'example.com', version: 'v1alpha1', plural: 'persons', kind: 'Person' };

/** What a Person's owner asks for; every field is optional in the model's schema. */
export interface PersonSpec {
  name?: string;
  age?: number;
  gender?: 'MALE' | 'FEMALE';
  tags?: string[];
  otherPerson?: Person;
}

/** `Adult` from 18 years on, `Minor` below, `Unknown` when `spec.age` is absent. */
export type PersonPhase = 'Adult' | 'Minor' | 'Unknown';

/** What the controller observed, e.g. `{phase: 'Adult', message: '2 tags'}`; only the controller writes it. */
export interface PersonStatus {
  phase: PersonPhase;
  message: string;
}

/** A Person object as stored. */
export interface Person extends ApiObject {
  spec: PersonSpec;
  status?: PersonStatus;
}
