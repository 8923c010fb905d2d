// The request schemas of registered routes, as JSON Schema (TypeBox schemas are JSON Schema), and
// walks over them: tests find every field and every bound without a list kept by hand.
import type { RouteOptions } from 'fastify';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  patternProperties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  default?: unknown;
}

export type Part = 'querystring' | 'params' | 'body' | 'multipart';

/** The parts of a request a route declares a schema for (multipart: its `config.multipartFields`). */
export function routeParts(route: RouteOptions): Partial<Record<Part, JsonSchema>> {
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const config = (route.config ?? {}) as { multipartFields?: unknown };
  const parts: Partial<Record<Part, JsonSchema>> = {};
  for (const part of ['querystring', 'params', 'body'] as const) if (schema[part]) parts[part] = schema[part] as JsonSchema;
  if (config.multipartFields) parts.multipart = config.multipartFields as JsonSchema;
  return parts;
}

/** Every sub-schema, with the name of the property it belongs to (undefined at the root). */
export function* walk(schema: JsonSchema, property?: string): Generator<{ schema: JsonSchema; property?: string }> {
  yield { schema, property };
  for (const [name, child] of Object.entries(schema.properties ?? {})) yield* walk(child, name);
  for (const child of Object.values(schema.patternProperties ?? {})) yield* walk(child, property);
  if (typeof schema.additionalProperties === 'object') yield* walk(schema.additionalProperties, property);
  if (schema.items) yield* walk(schema.items, property);
  for (const branch of schema.anyOf ?? []) yield* walk(branch, property);
}

export const typesOf = (schema: JsonSchema): string[] => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);

/** The routes of the API itself (HEAD routes are Fastify's copies of the GET ones). */
export const apiRoutes = (routes: RouteOptions[]) =>
  routes.filter((r) => r.url.startsWith('/api/') && [r.method].flat().some((m) => m !== 'HEAD'));

export const methodOf = (route: RouteOptions) => [route.method].flat().find((m) => m !== 'HEAD')!;
