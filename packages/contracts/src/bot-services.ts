import { z } from 'zod';

/** The services of a bot that "test connection" can try with its saved settings. */
export const BOT_SERVICES = ['translate', 'tts', 'geolocation'] as const;
export type BotService = (typeof BOT_SERVICES)[number];

export const BotServiceTestBodySchema = z.object({
  service: z.enum(BOT_SERVICES, `The service is one of: ${BOT_SERVICES.join(', ')}.`),
});
export type BotServiceTestBody = z.infer<typeof BotServiceTestBodySchema>;
