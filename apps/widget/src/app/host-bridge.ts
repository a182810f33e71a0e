import {
  PROTOCOL_SOURCE,
  parseHostMessage,
  type FrameToHostMessage,
  type HostToFrameMessage,
} from '@omnibot/contracts';
import { useCallback, useEffect, useEffectEvent } from 'react';

/** Posts a message to the embedding page (the loader), on `hostOrigin` only; outside a frame, nowhere. */
export function useHostPost(hostOrigin: string | null): (message: FrameToHostMessage) => void {
  return useCallback(
    (message: FrameToHostMessage) => {
      // Outside a frame the parent is this window, and the browser drops a message for another origin.
      if (hostOrigin !== null) window.parent.postMessage(message, hostOrigin);
    },
    [hostOrigin],
  );
}

/** What the chat does with the host page's messages. */
interface HostHandlers {
  onSend: (text: string) => void;
  onSetLanguage: (language: string) => void;
  /** The window was opened; any other message of the host page's is taken as this too. */
  onOpened: () => void;
}

/**
 * Takes the host page's messages (its origin and its window only) and then tells it the chat is ready: the loader
 * holds back what it has to post until then.
 */
export function useHostMessages(
  hostOrigin: string | null,
  postToHost: (message: FrameToHostMessage) => void,
  handlers: HostHandlers,
): void {
  const onHostMessage = useEffectEvent((message: HostToFrameMessage) => {
    if (message.type === 'send') handlers.onSend(message.text);
    else if (message.type === 'setLanguage') handlers.onSetLanguage(message.language);
    else handlers.onOpened();
  });

  useEffect(() => {
    if (hostOrigin === null) return;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== hostOrigin || event.source !== window.parent) return;
      const message = parseHostMessage(event.data);
      if (message !== null) onHostMessage(message);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [hostOrigin]);

  useEffect(() => {
    postToHost({ source: PROTOCOL_SOURCE, type: 'ready' });
  }, [postToHost]);
}
