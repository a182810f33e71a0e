/** The part of the Web Speech API's SpeechRecognition the microphone button uses. */
export interface Recognition {
  lang: string;
  interimResults: boolean;
  continuous: boolean;
  onresult: ((event: { results: ArrayLike<ArrayLike<{ transcript: string }>> }) => void) | null;
  onend: (() => void) | null;
  onerror: (() => void) | null;
  start: () => void;
  stop: () => void;
}

type RecognitionWindow = Window & {
  SpeechRecognition?: new () => Recognition;
  webkitSpeechRecognition?: new () => Recognition;
};

/** The browser's speech recognition constructor (standard or webkit-prefixed), or null where there is none. */
export function recognitionOf(win: Window): (new () => Recognition) | null {
  const speech = win as RecognitionWindow;
  return speech.SpeechRecognition ?? speech.webkitSpeechRecognition ?? null;
}

/** The words of a Markdown answer as they should be read aloud: no link targets, no emphasis marks. */
export function spokenText(markdown: string): string {
  return markdown
    .replace(/```[^]*?```/g, ' ')
    .replace(/\[([^\]\n]+)\]\([^)\s]+\)/g, '$1')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/[*_`#>]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Reads a text with the browser's own voice; false where the browser has none. */
export function speakNatively(text: string, language: string, win: Window = window): boolean {
  const Utterance = (win as Window & { SpeechSynthesisUtterance?: typeof SpeechSynthesisUtterance })
    .SpeechSynthesisUtterance;
  if (!('speechSynthesis' in win) || typeof Utterance !== 'function') return false;
  const utterance = new Utterance(text);
  utterance.lang = language;
  win.speechSynthesis.cancel();
  win.speechSynthesis.speak(utterance);
  return true;
}

/** Stops whatever the speaker is reading. */
export function stopSpeaking(win: Window = window): void {
  if ('speechSynthesis' in win) win.speechSynthesis.cancel();
}

/** Plays audio from a URL; a browser that blocks autoplay just stays silent. */
export function playAudio(url: string): HTMLAudioElement {
  const audio = new Audio(url);
  Promise.resolve(audio.play()).catch(() => undefined);
  return audio;
}

type AudioWindow = Window & { AudioContext?: typeof AudioContext; webkitAudioContext?: typeof AudioContext };
let toneContext: AudioContext | null = null;

/** A short soft beep made with WebAudio, for bots that want a receive tone but give no sound file. */
export function playBeep(win: Window = window): void {
  const Context = (win as AudioWindow).AudioContext ?? (win as AudioWindow).webkitAudioContext;
  if (Context === undefined) return;
  toneContext ??= new Context();
  const context = toneContext;
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  oscillator.type = 'sine';
  oscillator.frequency.value = 880;
  gain.gain.setValueAtTime(0.08, context.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.0001, context.currentTime + 0.18);
  oscillator.connect(gain).connect(context.destination);
  oscillator.start();
  oscillator.stop(context.currentTime + 0.2);
}
