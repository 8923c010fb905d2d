// Route schemas compiled on a route's first request instead of at start. Fastify's own compilers
// (ajv for input, fast-json-stringify for output) turn ~470 routes' schemas into code when the app
// is built: about 0.4 s of a start's CPU, and heap the server keeps for routes a given install may
// never serve. The compilers and their options are Fastify's defaults, unchanged; only when they run
// moves. A schema that cannot compile still fails loudly (a 500 and the error in the log) on its
// first request; tests/api/input.test.ts compiles every route's schemas as the server would, so none
// reaches a user.
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

/** ajv's options for every request schema: query strings and params arrive as text. */
export const AJV_OPTIONS = { customOptions: { coerceTypes: true, removeAdditional: false, allErrors: false } };

type Validate = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };

/** Fastify's `schemaController.compilersFactory`: the default builders, each compiling lazily. */
export function lazyCompilersFactory(): CompilersFactory {
  const validators = AjvCompiler();
  const serializers = SerializerSelector();
  const factory = {
    buildValidator(externalSchemas: unknown, options: unknown) {
      const compile = validators(externalSchemas as never, options as never) as (route: unknown) => Validate;
      return (route: unknown): Validate => {
        let validate: Validate | undefined;
        const lazy: Validate = (data, context) => {
          validate ??= compile(route);
          // The context carries the request part's parent, through which ajv writes back a coerced
          // value when the schema's root is a scalar.
          const result = validate(data, context);
          // Fastify reads a failed validation's reasons from the function it was given.
          lazy.errors = validate.errors;
          return result;
        };
        // Fastify passes that context only to a function with ajv's schemaEnv, as ajv's own have.
        lazy.schemaEnv = true;
        return lazy;
      };
    },
    buildSerializer(externalSchemas: unknown, options: unknown) {
      const compile = serializers(externalSchemas as never, options as never) as (route: unknown) => (data: unknown) => string;
      return (route: unknown) => {
        let serialize: ((data: unknown) => string) | undefined;
        return (data: unknown) => (serialize ??= compile(route))(data);
      };
    },
  };
  // Typed as ajv's validate function (with its schema and source), of which Fastify only calls it
  // and reads `errors`.
  return factory as unknown as CompilersFactory;
}
