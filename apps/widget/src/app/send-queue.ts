import { useState } from 'react';

/**
 * Runs the tasks given to it one at a time, in order: each starts once the one before has settled. A task handles
 * its own failure (a message that could not be sent is marked failed), so none rejects.
 */
export function createSendQueue(): (task: () => Promise<void>) => void {
  let last = Promise.resolve();
  return (task) => {
    last = last.then(task);
  };
}

/** The chat's send queue: messages go out one at a time, so a conversation token issued by the first reaches the next. */
export function useSendQueue(): (task: () => Promise<void>) => void {
  const [enqueue] = useState(createSendQueue);
  return enqueue;
}
