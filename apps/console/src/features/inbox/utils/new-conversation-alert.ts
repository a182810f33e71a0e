/** Where the "Notify me" choice is remembered, per browser. */
export const NOTIFY_KEY = 'inboxNotify';

export function readNotifyChoice(): boolean {
  try {
    return window.localStorage.getItem(NOTIFY_KEY) === 'true';
  } catch {
    return false;
  }
}

export function rememberNotifyChoice(on: boolean): void {
  try {
    window.localStorage.setItem(NOTIFY_KEY, String(on));
  } catch {
    // Storage may be blocked; the choice then lasts until the page is left.
  }
}

/** Whether the browser may show notifications: granted, denied, not asked yet, or not a feature it has. */
export type NotificationAccess = NotificationPermission | 'unsupported';

export const notificationAccess = (): NotificationAccess =>
  typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;

/** Asks for permission to notify when it was never asked; otherwise says what the reader decided before. */
export async function askNotificationAccess(): Promise<NotificationAccess> {
  const access = notificationAccess();
  if (access !== 'default') return access;
  try {
    return await Notification.requestPermission();
  } catch {
    return notificationAccess();
  }
}

let audio: AudioContext | undefined;

/**
 * The one audio context of the page, created (and resumed) on the reader's click on "Notify me": browsers keep audio
 * silent until a page was used, so a beep made later for an event would not play otherwise.
 */
export function unlockSound(): void {
  if (typeof AudioContext === 'undefined') return;
  audio ??= new AudioContext();
  if (audio.state === 'suspended') void audio.resume().catch(() => undefined);
}

const BEEP_HZ = 880;
const BEEP_SECONDS = 0.18;

/** A short beep made by WebAudio, so no sound file has to be loaded. */
export function playBeep(): void {
  if (typeof AudioContext === 'undefined') return;
  try {
    audio ??= new AudioContext();
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.type = 'sine';
    oscillator.frequency.value = BEEP_HZ;
    const start = audio.currentTime;
    gain.gain.setValueAtTime(0.2, start);
    // Fading out avoids the click of a sound cut off at full volume.
    gain.gain.exponentialRampToValueAtTime(0.001, start + BEEP_SECONDS);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(start);
    oscillator.stop(start + BEEP_SECONDS);
  } catch {
    // A browser that refuses audio still shows the notification and the list.
  }
}

/** The browser notification for a conversation that waits; clicking it brings the console's tab forward. */
export function showWaitingNotification(conversationId: string): void {
  if (notificationAccess() !== 'granted') return;
  try {
    const notification = new Notification('A visitor is waiting', {
      body: 'A bot handed a conversation over to a person. Open the inbox to answer.',
      // One notification per conversation, however often its state is reported.
      tag: `inbox-${conversationId}`,
    });
    notification.onclick = () => {
      window.focus();
      notification.close();
    };
  } catch {
    // Some browsers only notify from a service worker; the beep and the list still tell the reader.
  }
}
