// From resource configs to what the shell needs, each built from the list it is given (no module
// registers itself): the data provider's adapters, and the generic screens of the routes that show
// resources. Views load lazily, so the configs stay in the first-load bundle at a few kilobytes and
// react-admin's list and form machinery does not.
import { createElement, lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { listResource, pagedResource, restResource, type ResourceAdapter } from '../dataProvider/adapters';
import type { HttpClient } from '../dataProvider/http';
import type { AdapterRegistry } from '../dataProvider';
import type { RouteDef } from '../domain/routes';
import type { ScreenProps } from '../pages/screen';
import type { ResourceConfig } from './types';

const views = () => import('./views');

/** Types a resource's config; the folder's index.ts exports it as default. */
export function defineResource(config: ResourceConfig): ResourceConfig {
  return config;
}

/** A named export of a lazily loaded module as a component (custom row, bulk and toolbar actions). */
export function lazyNamed<M, K extends keyof M>(load: () => Promise<M>, name: K): M[K] {
  return lazy(async () => ({ default: (await load())[name] as ComponentType<object> })) as unknown as M[K];
}

export function adapterOf(config: ResourceConfig): (http: HttpClient) => ResourceAdapter {
  const endpoints = config.endpoints;
  if (endpoints.kind === 'custom') return endpoints.adapter;
  const writable = endpoints.writable ?? config.fields.filter((f) => f.form !== false && f.type !== 'computed' && f.type !== 'status').map((f) => f.source);
  if (endpoints.kind === 'list') return (http) => listResource(http, { ...endpoints, writable });
  if (endpoints.kind === 'rest') return (http) => restResource(http, { ...endpoints, writable });
  return (http) => pagedResource(http, { ...endpoints, writable });
}

/** The data provider's registry: each resource's adapter by name. */
export function adaptersOf(resources: readonly ResourceConfig[]): AdapterRegistry {
  return Object.fromEntries(resources.map((config) => [config.name, adapterOf(config)]));
}

export type Screen = LazyExoticComponent<ComponentType<ScreenProps>>;

/**
 * The generic screen of every route that names the resources it shows (tabs when several, in the
 * route's order). A route naming a resource that is not in the list is a mistake caught here.
 */
export function resourceScreens(resources: readonly ResourceConfig[], routes: readonly RouteDef[]): Record<string, Screen> {
  const byName = new Map(resources.map((config) => [config.name, config]));
  const screens: Record<string, Screen> = {};
  for (const route of routes) {
    if (!route.resources?.length) continue;
    const shown = route.resources.map((name) => {
      const config = byName.get(name);
      if (!config) throw new Error(`Route ${route.path} shows unknown resource ${name}`);
      return config;
    });
    screens[route.path] = lazy(async () => {
      const { ResourceScreen } = await views();
      return { default: (props: ScreenProps) => createElement(ResourceScreen, { ...props, resources: shown }) };
    });
  }
  return screens;
}
