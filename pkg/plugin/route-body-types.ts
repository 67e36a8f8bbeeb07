import { BODY_TYPES } from '../apiserver/body';
import { PATCH_TYPES } from '../apiserver/patch/content-types';

/**
 * The body media types a plugin route reads: JSON and YAML, the patch types on PATCH, and those the route declares
 * (`contentTypes`). Any other (a form, `text/plain`: what a page of another site can make a browser send) is 415
 * before the plugin sees the request.
 */
export const bodyTypesOf = (route: { method: string; contentTypes: readonly string[] }): string[] => [
  ...BODY_TYPES,
  ...(route.method === 'PATCH' ? PATCH_TYPES : []),
  ...route.contentTypes,
];
