/** Waiting on the event loop, for code that runs on one thread with others' messages to let through. */

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Lets what is queued (messages, a cancel, an answer's posting) run before the caller goes on. */
export function nextTask(): Promise<void> {
  return delay(0);
}
