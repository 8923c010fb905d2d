// From a config to what the shell needs: the adapter in the dataProvider registry, the resource's
// routes for canAccess, and the route screens. Views load lazily, so the configs stay in the
// first-load bundle at a few kilobytes and react-admin's list and form machinery does not.
import { createElement, lazy, type ComponentType } from 'react';
import type { RaRecord } from 'ra-core';
import { listResource, pagedResource, restResource, type ResourceAdapter } from '../dataProvider/adapters';
import type { HttpClient } from '../dataProvider/http';
import { RESOURCE_ADAPTERS } from '../dataProvider';
import { RESOURCE_ROUTES } from '../authProvider/startup';
import { SCREENS, type ScreenProps } from '../pages';
import type { ResourceConfig } from './types';

export interface ResourceViews {
  name: string;
  config: ResourceConfig;
  /** The react-admin Resource props (DESIGN.md): views bound to this config. */
  list: ComponentType;
  edit: ComponentType<{ id: RaRecord['id']; onDone?: () => void }>;
  create: ComponentType<{ onDone?: () => void }>;
  show: ComponentType<{ id: RaRecord['id'] }>;
  icon?: ComponentType;
  recordRepresentation: ResourceConfig['recordRepresentation'];
}

const views = () => import('./views');

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

export function defineResource(config: ResourceConfig): ResourceViews {
  const bind = <P extends object>(pick: (m: Awaited<ReturnType<typeof views>>) => ComponentType<P & { config: ResourceConfig }>) =>
    lazy(async () => {
      const View = pick(await views());
      return { default: (props: P) => createElement(View, { ...props, config }) };
    }) as unknown as ComponentType<P>;
  return {
    name: config.name,
    config,
    list: bind<object>((m) => m.ResourceList),
    edit: bind<{ id: RaRecord['id']; onDone?: () => void }>((m) => m.ResourceEdit),
    create: bind<{ onDone?: () => void }>((m) => m.ResourceCreate),
    show: bind<{ id: RaRecord['id'] }>((m) => m.ResourceShow),
    icon: config.icon,
    recordRepresentation: config.recordRepresentation,
  };
}

/**
 * Registers each resource with the shell: its adapter, the routes that make it accessible, and a
 * generic screen on each of its route paths (tabs when several resources share one), unless a
 * custom screen is already registered there.
 */
export function registerResources(resources: readonly ResourceViews[]): void {
  const byScreen = new Map<string, ResourceConfig[]>();
  for (const { config } of resources) {
    RESOURCE_ADAPTERS[config.name] = adapterOf(config);
    RESOURCE_ROUTES[config.name] = [...config.screens, ...(config.usedOn ?? [])];
    for (const path of config.screens) byScreen.set(path, [...(byScreen.get(path) ?? []), config]);
  }
  for (const [path, configs] of byScreen) {
    if (SCREENS[path]) continue;
    const ordered = [...configs].sort((a, b) => (a.tab ?? 0) - (b.tab ?? 0));
    SCREENS[path] = lazy(async () => {
      const { ResourceScreen } = await views();
      return { default: (props: ScreenProps) => createElement(ResourceScreen, { ...props, resources: ordered }) };
    });
  }
}
