/** The console addresses of the bot chat and test screens, and of the screen where bots are made. */
export const botTestingPaths = {
  chat: (botId?: string) =>
    botId ? `/bot/prompt/test?bot=${encodeURIComponent(botId)}` : '/bot/prompt/test',
  testing: (botId?: string) => (botId ? `/bot/testing?bot=${encodeURIComponent(botId)}` : '/bot/testing'),
  create: '/bot/customize',
  /** The RAG screens, where a bot's knowledge comes from. */
  rags: '/rag',
};
