// The device API (docs/api-devices.md): print terminals report heartbeats, sign users in and upload
// print jobs. Not behind the user session: every request is signed by the terminal (auth.ts), then
// held to its terminal's limits (limits.ts). Registered encapsulated (no fastify-plugin), so its
// JSON parser, signature and limit hooks stay here.
import type { FastifyInstance } from 'fastify';
import { registerDeviceAuth } from './auth';
import { registerDeviceLimits, WindowLimiter } from './limits';
import heartbeatRoutes from './heartbeat';
import userRoutes from './users';
import printJobRoutes from './printJobs';
import heartVoiceDeviceRoutes from '../heartVoices/device';

export default async function devices(app: FastifyInstance) {
  registerDeviceAuth(app);
  const limiter = new WindowLimiter(app.config.deviceRateLimits);
  registerDeviceLimits(app, limiter);
  await app.register(heartbeatRoutes, { limiter });
  await app.register(userRoutes);
  await app.register(printJobRoutes);
  await app.register(heartVoiceDeviceRoutes, { limiter });
}
