// A worker process for the queue's crash test: its handler records which worker ran the job and
// can be told to hang forever, so the test can kill it mid-job with SIGKILL.
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../server/db';
import { Worker } from '../../server/jobs/worker';

const [url, workerId, mode] = process.argv.slice(2);
const { db } = await openDatabase({ url, poolSize: 2 });
const worker = new Worker(
  db,
  [
    {
      kind: 'crash-test',
      async run() {
        console.log('claimed');
        if (mode === 'hang') await new Promise(() => undefined);
        return workerId;
      },
      async save(tx, job, who) {
        await tx.execute(sql`INSERT INTO crash_results (ref_id, worker) VALUES (${job.refId}, ${who as string})`);
      },
    },
  ],
  { id: workerId, leaseMs: 1000, pollMs: 100 },
);
worker.start();
