import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { client, startTestApiServer, type ApiClient } from './apiserver';
import type { ApiServerConfig, RunningApiServer } from '../../pkg/server/app';
import type { ResourceRef } from '../../pkg/client';
import { stopControllerManagers } from './running-controller-managers';
import { waitFor } from './wait-for';

export const PERSONS = '/apis/example.com/v1alpha1/persons';
/** The same collection as pkg/client addresses it. */
export const PERSON_RES: ResourceRef = { group: 'example.com', version: 'v1alpha1', plural: 'persons', kind: 'Person' };
export const MODELS = '/apis/apiextensions.svc.run/v1alpha1/models';

/** The example Person Model object, as shipped in manifests/examples. */
export const personModel = (): Record<string, any> =>
  yaml.load(readFileSync(join(__dirname, '..', '..', 'manifests', 'examples', 'person-model.yaml'), 'utf8')) as Record<
    string,
    any
  >;

/** Creates the Person model and waits until its API answers. */
export async function applyPersonModel(api: ApiClient): Promise<void> {
  const res = await api('POST', MODELS, personModel());
  if (res.status !== 201) throw new Error(`creating the Person model: ${res.status} ${res.text}`);
  await waitFor(async () => (await api('GET', PERSONS)).status === 200, { what: 'the persons API to be served' });
}

/** A valid Person with the given name and spec fields. */
export const person = (name: string, spec: Record<string, unknown> = {}, labels?: Record<string, string>) => ({
  apiVersion: 'example.com/v1alpha1',
  kind: 'Person',
  metadata: labels ? { name, labels } : { name },
  spec: { name: name.toUpperCase(), age: 30, ...spec },
});

/** A suite's apiserver with the Person model applied, and a raw client of it. */
export interface PersonsApi {
  server: RunningApiServer;
  api: ApiClient;
}

/**
 * Registers a suite's hooks: one apiserver (with `config`) serving the Person
 * model for the whole suite, stopped after it. The returned object is filled
 * in before the suite's own `beforeAll` hooks run.
 *
 * @example const suite = usePersonsApi(); … await suite.api('GET', PERSONS);
 */
export function usePersonsApi(config: Partial<ApiServerConfig> = {}): PersonsApi {
  const suite = {} as PersonsApi;
  beforeAll(async () => {
    suite.server = await startTestApiServer(config);
    suite.api = client(suite.server.url);
    await applyPersonModel(suite.api);
  });
  afterAll(async () => {
    await stopControllerManagers(suite.server.url);
    await suite.server.stop();
  });
  return suite;
}
