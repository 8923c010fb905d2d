// 学生心声 (docs/api-heart-voices.md): the psychology teacher's messages, follow-up, counts and
// notices; the school admin's read log and guardian consents; the retention sweep. The device
// side (device.ts) is registered with the device API, behind its signatures.
import type { FastifyInstance } from 'fastify';
import voiceRoutes from './voices';
import followUpRoutes from './followUps';
import revealRoutes from './reveal';
import statsRoutes from './stats';
import noticeRoutes from './notices';
import privacyRoutes from './privacy';
import { sweepExpiredVoices } from './retention';

const SWEEP_EVERY_MS = 24 * 3600 * 1000;

export default async function heartVoices(app: FastifyInstance) {
  await app.register(voiceRoutes);
  await app.register(followUpRoutes);
  await app.register(revealRoutes);
  await app.register(statsRoutes);
  await app.register(noticeRoutes);
  await app.register(privacyRoutes);

  const sweep = () => sweepExpiredVoices(app.db).catch((error) => app.log.warn({ err: error }, 'heart voice retention sweep failed'));
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    if (app.config.backgroundSweeps === false) return;
    void sweep();
    timer = setInterval(sweep, SWEEP_EVERY_MS).unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
