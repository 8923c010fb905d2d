// The reply envelope and the page of every JSON call (SPEC §7, DESIGN.md), declared once for the
// server's route schemas, the data provider and the tests. `EnvelopeSchema(X)` and `PageSchema(X)`
// build the TypeBox schema of a reply whose data is X; `Envelope<T>` and `Page<T>` are their types.
import { Type, type Static, type TSchema } from 'typebox';

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  success: boolean;
  data: T;
}

/** The backend family's paging: `current,size` in, this out. */
export interface Page<T> {
  records: T[];
  total: number;
  current: number;
  size: number;
  pages: number;
}

export const PageSchema = <T extends TSchema>(record: T) =>
  Type.Object({
    records: Type.Array(record),
    total: Type.Integer(),
    current: Type.Integer(),
    size: Type.Integer(),
    pages: Type.Integer(),
  });

/** A route's `schema.response[200]`: Fastify serialises `data` by X and drops what X does not name. */
export const EnvelopeSchema = <T extends TSchema>(data: T) =>
  Type.Object({
    code: Type.Integer(),
    msg: Type.String(),
    success: Type.Boolean(),
    data,
  });

export type PageOf<T extends TSchema> = Static<ReturnType<typeof PageSchema<T>>>;

/** A reply field that may be null: without the null, the serialiser would turn null into 0 or "". */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
