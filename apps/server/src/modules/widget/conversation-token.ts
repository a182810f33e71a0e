import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

const VERSION = 'c1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MAC = /^[A-Za-z0-9_-]{43}$/;

/** Issues and checks the tokens that name a visitor's conversation with one bot. */
export interface ConversationTokens {
  /** `c1.<conversation id>.<HMAC-SHA256 of version, conversation and bot>` (base64url). */
  sign(conversationId: string, botId: string): string;
  /** The conversation id when `token` was issued by this installation for `botId`; null otherwise. */
  verify(token: string, botId: string): string | null;
}

/**
 * Tokens signed with HMAC-SHA256 under a key derived (HKDF) from the installation secret for this purpose only, so a
 * visitor can neither forge a conversation id nor carry one bot's conversation to another bot.
 */
export function createConversationTokens(installationSecret: string): ConversationTokens {
  if (installationSecret.length === 0) throw new Error('the installation secret is empty');
  const key = Buffer.from(
    hkdfSync('sha256', installationSecret, 'omnibot conversation-token', 'omnibot/conversation-token', 32),
  );
  const mac = (conversationId: string, botId: string) =>
    createHmac('sha256', key).update(`${VERSION}|${conversationId}|${botId.toLowerCase()}`).digest();
  return {
    sign(conversationId, botId) {
      return `${VERSION}.${conversationId}.${mac(conversationId, botId).toString('base64url')}`;
    },
    verify(token, botId) {
      const [version, conversationId, signature, ...rest] = token.split('.');
      if (version !== VERSION || rest.length > 0 || conversationId === undefined || signature === undefined)
        return null;
      if (!UUID.test(conversationId) || !MAC.test(signature)) return null;
      // Compared as text: two base64url spellings can decode to the same bytes, and only ours is valid.
      const given = Buffer.from(signature, 'latin1');
      const expected = Buffer.from(mac(conversationId, botId).toString('base64url'), 'latin1');
      return given.length === expected.length && timingSafeEqual(given, expected) ? conversationId : null;
    },
  };
}
