import { VISITOR_TEXT_MAX, type PublicWidgetConfig } from '@omnibot/contracts';
import { useId, type FormEvent, type RefObject } from 'react';
import { ChipMenu } from './chip-menu';
import { Icon } from './icon';

interface ChatComposerProps {
  config: PublicWidgetConfig;
  draft: string;
  onDraftChange: (draft: string) => void;
  input: RefObject<HTMLInputElement | null>;
  /** Sends the draft. */
  onSubmit: () => void;
  onSend: (text: string) => void;
  menuOpen: boolean;
  onToggleMenu: () => void;
  /** The browser can listen (the microphone button is shown when the bot enables it either way). */
  canListen: boolean;
  listening: boolean;
  onToggleMicrophone: () => void;
}

/** The popup menu and the form the visitor writes in: menu button, text, microphone and send. */
export function ChatComposer({
  config,
  draft,
  onDraftChange,
  input,
  onSubmit,
  onSend,
  menuOpen,
  onToggleMenu,
  canListen,
  listening,
  onToggleMicrophone,
}: ChatComposerProps) {
  const { welcome, titles, behaviour } = config;
  const menuId = useId();
  const microphoneTitle = canListen ? titles.microphoneTitle : titles.recognitionUnavailable;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <>
      {menuOpen && (
        <ChipMenu
          id={menuId}
          className="ob-menu ob-popup-menu"
          label="Menu"
          chips={welcome.popupMenu}
          onPick={onSend}
        />
      )}
      <form className="ob-composer" onSubmit={submit}>
        {welcome.enablePopupMenu && welcome.popupMenu.length > 0 && (
          <button
            type="button"
            className="ob-icon-button"
            aria-label="Menu"
            title="Menu"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={onToggleMenu}
          >
            <Icon>
              <path d="M4 6h16M4 12h16M4 18h16" />
            </Icon>
          </button>
        )}
        <input
          ref={input}
          value={draft}
          onChange={(event) => onDraftChange(event.target.value)}
          aria-label={titles.inputTitle}
          placeholder={titles.inputTitle}
          title={titles.inputTitle}
          maxLength={VISITOR_TEXT_MAX}
          autoComplete="off"
        />
        {behaviour.microphone_enabled && (
          <button
            type="button"
            className="ob-icon-button"
            aria-label={microphoneTitle}
            title={microphoneTitle}
            aria-disabled={!canListen}
            aria-pressed={canListen ? listening : undefined}
            onClick={onToggleMicrophone}
          >
            <Icon>
              <rect x="9" y="3" width="6" height="11" rx="3" />
              <path d="M5 11a7 7 0 0 0 14 0M12 18v3" />
            </Icon>
          </button>
        )}
        <button type="submit" className="ob-send" disabled={draft.trim() === ''}>
          {titles.sendTitle}
        </button>
      </form>
    </>
  );
}
