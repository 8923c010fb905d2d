// SPEC §2.1: open a hash route of the product in a new window, with query parameters
// (print previews and detail screens opened beside the list they came from).
import queryString from 'query-string';
import type { Query } from '../dataProvider/http';

/** '/printer' + {id: 3} → 'https://host/#/printer?id=3' (the product page, hash routing). */
export function hashRouteUrl(path: string, query: Query = {}, base: string = `${window.location.origin}${window.location.pathname}`): string {
  const search = queryString.stringify(query, { skipNull: true });
  return `${base}#${path.startsWith('/') ? path : `/${path}`}${search ? `?${search}` : ''}`;
}

export function openInNewWindow(path: string, query?: Query): Window | null {
  return window.open(hashRouteUrl(path, query), '_blank');
}
