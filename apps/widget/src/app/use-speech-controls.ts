import { VISITOR_TEXT_MAX, type PublicWidgetConfig } from '@omnibot/contracts';
import { useCallback, useRef, useState, type RefObject } from 'react';
import { fetchSpeech } from './api';
import { safeImage } from './markdown';
import {
  playAudio,
  playBeep,
  recognitionOf,
  speakNatively,
  spokenText,
  stopSpeaking,
  type Recognition,
} from './speech';

interface SpeechOptions {
  apiBase: string;
  botId: string;
  config: PublicWidgetConfig;
  /** A console preview of a bot not saved yet: no server voice. */
  offline: boolean;
  language: string;
  token: RefObject<string | undefined>;
  /** Words the microphone heard, for the message being written. */
  onHeard: (words: string) => void;
  /** The microphone stopped listening. */
  onListenEnd: () => void;
}

/** The speaker (mute, reading answers aloud, the receive tone) and the microphone of the chat window. */
export function useSpeechControls({
  apiBase,
  botId,
  config,
  offline,
  language,
  token,
  onHeard,
  onListenEnd,
}: SpeechOptions) {
  const { behaviour, services, titles } = config;
  const [muted, setMuted] = useState(behaviour.muted);
  const [listening, setListening] = useState(false);
  const [status, setStatus] = useState('');
  const recognition = useRef<Recognition | null>(null);
  const audio = useRef<HTMLAudioElement | null>(null);
  const mutedRef = useRef(muted);
  const Recognizer = behaviour.microphone_enabled ? recognitionOf(window) : null;

  const speak = useCallback(
    (text: string) => {
      if (!behaviour.speaker_enabled || mutedRef.current) return;
      const words = spokenText(text).slice(0, VISITOR_TEXT_MAX);
      if (words === '') return;
      if (
        behaviour.voice === 'native' ||
        !services.tts ||
        offline ||
        typeof URL.createObjectURL !== 'function'
      ) {
        speakNatively(words, language);
        return;
      }
      fetchSpeech(apiBase, { botId, conversationToken: token.current, text: words, language }).then(
        (blob) => {
          if (mutedRef.current) return;
          audio.current?.pause();
          audio.current = playAudio(URL.createObjectURL(blob));
        },
        // No server voice (501) or a failing one: the browser's own voice reads it instead.
        () => speakNatively(words, language),
      );
    },
    [apiBase, botId, behaviour.speaker_enabled, behaviour.voice, services.tts, offline, language, token],
  );

  /** The receive tone, then the answers read aloud. */
  const announce = useCallback(
    (texts: string[]) => {
      if (behaviour.msgRecvTone_enabled) {
        const tone = safeImage(behaviour.msgRecvTone);
        if (tone === null) playBeep();
        else playAudio(tone);
      }
      speak(texts.join('\n\n'));
    },
    [behaviour.msgRecvTone_enabled, behaviour.msgRecvTone, speak],
  );

  const toggleMute = () => {
    const next = !muted;
    mutedRef.current = next;
    setMuted(next);
    if (next) {
      stopSpeaking();
      audio.current?.pause();
    }
  };

  const toggleMicrophone = () => {
    if (Recognizer === null) {
      setStatus(titles.recognitionUnavailable);
      return;
    }
    if (listening) {
      recognition.current?.stop();
      return;
    }
    const listener = new Recognizer();
    listener.lang = language;
    listener.interimResults = false;
    listener.continuous = false;
    listener.onresult = (event) => {
      const heard = Array.from(event.results, (result) => result[0]?.transcript ?? '')
        .join(' ')
        .trim();
      if (heard !== '') onHeard(heard);
    };
    listener.onend = () => {
      setListening(false);
      recognition.current = null;
      onListenEnd();
    };
    listener.onerror = () => setStatus(titles.recognitionUnavailable);
    recognition.current = listener;
    setStatus('');
    setListening(true);
    listener.start();
  };

  return { muted, listening, status, canListen: Recognizer !== null, announce, toggleMute, toggleMicrophone };
}
