// Declared CRUD resources (server/modules/crud/crudRoutes.ts): a new one is a declaration and a
// line in CRUD_RESOURCES; tests/api/crud-resources.test.ts checks every one listed here.
import type { FastifyInstance } from 'fastify';
import { crudRoutes, type CrudResource } from './crudRoutes';
import { roomsResource } from './rooms';

export const CRUD_RESOURCES: readonly CrudResource[] = [roomsResource];

export default async function crud(app: FastifyInstance) {
  for (const resource of CRUD_RESOURCES) crudRoutes(app, resource);
}
