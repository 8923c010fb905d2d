// A fresh PostgreSQL database for one bench group, on the server `url` points at, and its removal.
import pg from 'pg';

async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Drops and creates database `name` (a bench's own, never a user's); returns its URL. */
export async function freshBenchDatabase(url: string, name: string): Promise<string> {
  await admin(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(url, `CREATE DATABASE ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}

export async function dropBenchDatabase(url: string, name: string): Promise<void> {
  await admin(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
