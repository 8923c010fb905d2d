// Rules every input obeys, whatever its route's schema says: no string carries NUL, a lone
// surrogate or a text-direction control character (they break PostgreSQL, PDFs and spreadsheets,
// or disguise what a name says), and no number is infinite (ajv turns the text "Infinity" into a
// number and then skips its bounds). The query, the path, the JSON body and multipart fields are
// all held to them; a refusal is a Chinese 400 naming the field.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Multipart, MultipartFields } from '@fastify/multipart';
import { Type, type Static, type TObject } from 'typebox';
import { badRequest, validationMessage } from './envelope';
import { fieldLabel } from './fieldLabels';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The text fields a file upload takes besides its file, checked by multipartFields(). */
    multipartFields?: TObject;
  }
}

/** U+0000, U+202A–U+202E, U+2066–U+2069, and a high or low surrogate without its partner. */
const UNSAFE = /[\u0000\u202A-\u202E\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const hasUnsafeCharacters = (text: string) => UNSAFE.test(text);

const unsafeMessage = (label: string) => `${label}包含不支持的字符（如空字符、不完整的字符或文字方向控制符）`;

/**
 * The first rule a value breaks, as a message naming its field; undefined when all is well.
 * `labels`: the route's own field names, before FIELD_LABELS.
 */
export function inputProblem(value: unknown, label = '参数', labels: Record<string, string> = {}): string | undefined {
  // Iterative, so no nesting depth of a JSON body can overflow the stack.
  const stack: { value: unknown; label: string }[] = [{ value, label }];
  while (stack.length) {
    const item = stack.pop()!;
    const v = item.value;
    if (typeof v === 'string') {
      if (hasUnsafeCharacters(v)) return unsafeMessage(item.label);
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) return `${item.label}取值不正确`;
    } else if (Array.isArray(v)) {
      for (const element of v) stack.push({ value: element, label: item.label });
    } else if (v !== null && typeof v === 'object') {
      for (const [key, child] of Object.entries(v)) {
        if (hasUnsafeCharacters(key)) return unsafeMessage(item.label);
        stack.push({ value: child, label: (Object.hasOwn(labels, key) ? labels[key] : fieldLabel(key)) ?? item.label });
      }
    }
  }
  return undefined;
}

/** After schema validation and before any route guard or handler: the rules above, on every request. */
export function registerInputRules(app: FastifyInstance) {
  app.addHook('preHandler', async (request) => {
    const labels = request.routeOptions.config?.fieldLabels;
    const problem = inputProblem(request.params, undefined, labels) ?? inputProblem(request.query, undefined, labels) ?? inputProblem(request.body, undefined, labels);
    if (problem) throw badRequest(problem);
  });
}

/** Rows of an import workbook obey the same rule: one problem per column whose cell breaks it. */
export function unsafeCells(values: Record<string, string>): string[] {
  return Object.entries(values)
    .filter(([, text]) => hasUnsafeCharacters(text))
    .map(([column]) => unsafeMessage(column));
}

/** A file name as sent: the same characters are refused as in any other field. */
/**
 * The text fields of a multipart request, validated against the route's `multipartFields`
 * schema with the same rules (and the same Chinese messages) as a JSON body.
 */
export function multipartFields<T extends TObject>(request: FastifyRequest, fields: MultipartFields | Record<string, string>): Static<T> {
  const values: Record<string, unknown> = {};
  for (const [name, part] of Object.entries(fields)) {
    const parts = (Array.isArray(part) ? part : [part]) as (Multipart | string | undefined)[];
    // An empty field is a form's way of leaving it out.
    const texts = parts.flatMap((p) => (typeof p === 'string' ? [p] : p && p.type === 'field' ? [String(p.value ?? '')] : [])).filter((text) => text !== '');
    if (texts.length) values[name] = texts.length === 1 ? texts[0] : texts;
  }
  const schema = request.routeOptions.config.multipartFields ?? EMPTY;
  const validate = request.compileValidationSchema(schema, 'body');
  if (!validate(values)) throw badRequest(validationMessage(validate.errors ?? []));
  const problem = inputProblem(values);
  if (problem) throw badRequest(problem);
  return values as Static<T>;
}

const EMPTY = Type.Object({});
