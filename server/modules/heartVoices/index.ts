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
import { remindUnconfirmed } from './reminders';
import { sweepOnce } from '../../jobs/sweeps';

const SWEEP_EVERY_MS = 24 * 3600 * 1000;
/** Reminders of unconfirmed 高危 messages are due to the hour; a quarter-hour timer keeps them on time. */
const REMIND_EVERY_MS = 15 * 60 * 1000;

export default async function heartVoices(app: FastifyInstance) {
  await app.register(voiceRoutes);
  await app.register(followUpRoutes);
  await app.register(revealRoutes);
  await app.register(statsRoutes);
  await app.register(noticeRoutes);
  await app.register(privacyRoutes);

  // Each once per period across all API processes (jobs/sweeps.ts).
  const sweep = () => sweepOnce(app.db, 'heart-voice-retention', SWEEP_EVERY_MS, () => sweepExpiredVoices(app.db)).catch((error) => app.log.warn({ err: error }, 'heart voice retention sweep failed'));
  const remind = () => sweepOnce(app.db, 'heart-voice-reminders', REMIND_EVERY_MS, () => remindUnconfirmed(app.db)).catch((error) => app.log.warn({ err: error }, 'heart voice reminders failed'));
  let timer: NodeJS.Timeout | undefined;
  let reminders: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    if (app.config.backgroundSweeps === false) return;
    void sweep().then(remind);
    timer = setInterval(sweep, SWEEP_EVERY_MS).unref();
    reminders = setInterval(remind, REMIND_EVERY_MS).unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    clearInterval(reminders);
  });
}
