import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate` writes SQL migrations from server/db/schema.ts; both drivers run them.
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  out: './server/db/migrations',
});
