// The request schemas every route shares, so one rule bounds every id and every page.
import { Type } from 'typebox';

/** Ids are PostgreSQL `integer`s: 1 … 2^31−1. Anything larger (1e300, Infinity) is refused, not sent to SQL. */
export const MAX_ID = 2_147_483_647;
export const Id = Type.Integer({ minimum: 1, maximum: MAX_ID });
