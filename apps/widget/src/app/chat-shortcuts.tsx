import type { PublicWidgetConfig } from '@omnibot/contracts';
import { ChipMenu } from './chip-menu';
import { TALK_TO_AGENT } from './live-texts';

interface ChatShortcutsProps {
  config: PublicWidgetConfig;
  /** The start suggestions are offered (until the visitor has written). */
  suggesting: boolean;
  /** A person can be asked for (none is answering or awaited already). */
  canHandover: boolean;
  onSend: (text: string) => void;
  onHandover: () => void;
}

/**
 * What the visitor can pick instead of writing: the start suggestions and, with live agents, "Talk to an agent"; out
 * of business hours the bot's offline text in its place.
 */
export function ChatShortcuts({ config, suggesting, canHandover, onSend, onHandover }: ChatShortcutsProps) {
  const suggestions = config.welcome.start_suggestions;
  return (
    <>
      {suggesting && suggestions.length > 0 && (
        <ChipMenu
          className="ob-suggestions"
          label="Suggestions"
          chips={suggestions.map((suggestion) => ({ label: suggestion, text: suggestion }))}
          onPick={onSend}
        />
      )}
      {config.liveAgent.offlineText !== null && canHandover && (
        <p className="ob-offline" role="status">
          {config.liveAgent.offlineText}
        </p>
      )}
      {config.liveAgent.enabled && canHandover && (
        <div className="ob-actions">
          <button type="button" className="ob-link-button" onClick={onHandover}>
            {TALK_TO_AGENT}
          </button>
        </div>
      )}
    </>
  );
}
