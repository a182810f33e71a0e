const withBot = (path: string, botId?: string | null) =>
  botId ? `${path}?${new URLSearchParams({ bot_id: botId }).toString()}` : path;

/** The console addresses of the bot pages; each screen of one bot takes it from `?bot_id=`. */
export const botPaths = {
  manage: '/bot/manage',
  customize: (botId?: string | null) => withBot('/bot/customize', botId),
  install: (botId?: string | null) => withBot('/bot/install', botId),
  message: (botId?: string | null) => withBot('/bot/config/message', botId),
  rag: (botId?: string | null) => withBot('/bot/config/rag', botId),
  /** The demo host page, a customer-like page that embeds the bot. */
  demo: (botId: string) => `/demo?${new URLSearchParams({ bot: botId }).toString()}`,
  /** The widget in preview mode, for the live preview iframe. */
  preview: (botId: string) => `/widget/?${new URLSearchParams({ preview: '1', bot: botId }).toString()}`,
  rags: '/rag',
  gallery: '/bot/gallery',
  /** Where a contact-centre integration of `engine` is added, for a bot to hand over to. */
  addContactCentre: (engine: 'genesys' | 'connect') => `/bot/integration/add?kind=ccaas&engine=${engine}`,
  /** Where a Dialogflow CX, Lex or Bedrock integration is added for a bot's answers. */
  addChatbotEngine: (engine: 'dialogflowcx' | 'lex' | 'bedrock') => `/bot/integration/add?engine=${engine}`,
  /** Where business hours are added for a bot's hand-over. */
  schedules: '/schedule/add',
};

/** The embed snippet a customer pastes into its pages. */
export function installSnippet(origin: string, botId: string): string {
  const id = encodeURIComponent(botId);
  return `<script src="${origin}/widget.js?bot=${id}" data-bot="${id}" async></script>`;
}
