// 操作日志 (docs/api-audit.md): the read routes, and the sweep that keeps entries a year. Writes
// happen at each administrative route through recordAudit (record.ts).
import type { FastifyInstance } from 'fastify';
import auditRoutes from './routes';
import { pruneAuditLog } from './retention';
import { sweepOnce } from '../../jobs/sweeps';

const SWEEP_EVERY_MS = 24 * 3600 * 1000;

export default async function audit(app: FastifyInstance) {
  await app.register(auditRoutes);

  // Once a day across all API processes (jobs/sweeps.ts).
  const sweep = () => sweepOnce(app.db, 'audit-retention', SWEEP_EVERY_MS, () => pruneAuditLog(app.db)).catch((error) => app.log.warn({ err: error }, 'audit log retention sweep failed'));
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    if (app.config.backgroundSweeps === false) return;
    void sweep();
    timer = setInterval(sweep, SWEEP_EVERY_MS).unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
