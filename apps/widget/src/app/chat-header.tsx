import type { PublicWidgetConfig } from '@omnibot/contracts';
import { Icon } from './icon';
import { agentSubtitleText } from './live-texts';
import { safeImage } from './markdown';

/** Languages the visitor can pick when the bot translates; the current one is always offered too. */
const LANGUAGE_CHOICES = [
  'en',
  'es',
  'fr',
  'de',
  'it',
  'pt',
  'nl',
  'pl',
  'sv',
  'da',
  'fi',
  'nb',
  'cs',
  'tr',
  'ru',
  'uk',
  'el',
  'ar',
  'he',
  'hi',
  'ja',
  'ko',
  'zh',
];

function languageName(code: string, display: string): string {
  try {
    return new Intl.DisplayNames([display], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

interface ChatHeaderProps {
  config: PublicWidgetConfig;
  language: string;
  /** The language picker is shown (the bot translates). */
  translating: boolean;
  onLanguageChange: (language: string) => void;
  muted: boolean;
  onToggleMute: () => void;
  /** The person answering, by name (shown instead of the bot's description). */
  agent: string | null;
  /** The close button is shown (not in the console's preview). */
  closable: boolean;
  onClose: () => void;
}

/** The bot's avatar, name and description (or who answers), with the language picker, the speaker and the close button. */
export function ChatHeader({
  config,
  language,
  translating,
  onLanguageChange,
  muted,
  onToggleMute,
  agent,
  closable,
  onClose,
}: ChatHeaderProps) {
  const { identity, titles, behaviour, launcher } = config;
  const avatar = safeImage(identity.avatarUri);
  const languageChoices = LANGUAGE_CHOICES.includes(language)
    ? LANGUAGE_CHOICES
    : [language, ...LANGUAGE_CHOICES];

  return (
    <header className="ob-header">
      {avatar !== null ? (
        <img className="ob-avatar" src={avatar} alt="" />
      ) : (
        <span className="ob-avatar" aria-hidden="true">
          {identity.botName.slice(0, 1).toUpperCase()}
        </span>
      )}
      <div className="ob-title">
        <h1>{identity.botName}</h1>
        {agent !== null ? (
          <p>{agentSubtitleText(agent)}</p>
        ) : (
          identity.description !== '' && <p>{identity.description}</p>
        )}
      </div>
      {translating && (
        <select
          className="ob-language"
          aria-label="Language"
          title="Language"
          value={language}
          onChange={(event) => onLanguageChange(event.target.value)}
        >
          {languageChoices.map((code) => (
            <option key={code} value={code}>
              {languageName(code, language)}
            </option>
          ))}
        </select>
      )}
      {behaviour.speaker_enabled && (
        <button
          type="button"
          className="ob-icon-button"
          aria-pressed={muted}
          aria-label={muted ? titles.unMuteTitle : titles.muteTitle}
          title={muted ? titles.unMuteTitle : titles.muteTitle}
          onClick={onToggleMute}
        >
          <Icon>
            <path d="M11 5 6 9H2v6h4l5 4z" />
            {muted ? (
              <path d="m22 9-6 6m0-6 6 6" />
            ) : (
              <path d="M15.5 8.5a5 5 0 0 1 0 7M19 5a10 10 0 0 1 0 14" />
            )}
          </Icon>
        </button>
      )}
      {closable && (
        <button
          type="button"
          className="ob-icon-button"
          aria-label={launcher.openText || 'Close'}
          title={launcher.openText || 'Close'}
          onClick={onClose}
        >
          <Icon>
            <path d="M6 6l12 12M18 6 6 18" />
          </Icon>
        </button>
      )}
    </header>
  );
}
