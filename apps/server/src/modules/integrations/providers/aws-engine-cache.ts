/**
 * The AWS runtime clients of the engine integrations, kept between turns: making an SDK client resolves its whole
 * configuration (endpoint rules, user agent, defaults), which costs far more than a turn's own work. A client is
 * keyed by its integration's id and last change, so a changed integration (new secret, region or endpoint) gets a new
 * one; the least recently used are dropped past `AWS_ENGINE_CLIENTS_MAX`.
 */
const AWS_ENGINE_CLIENTS_MAX = 200;

const clients = new Map<string, unknown>();

export function cachedAwsRuntime<T>(key: string, make: () => T): T {
  const found = clients.get(key) as T | undefined;
  if (found !== undefined) {
    // Seen again: it becomes the most recently used.
    clients.delete(key);
    clients.set(key, found);
    return found;
  }
  const made = make();
  clients.set(key, made);
  if (clients.size > AWS_ENGINE_CLIENTS_MAX) {
    const oldest = clients.keys().next().value;
    if (oldest !== undefined) clients.delete(oldest);
  }
  return made;
}
