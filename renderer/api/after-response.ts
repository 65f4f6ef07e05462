/**
 * Work a handler hands off so that its answer does not wait for it: the answer's timing then
 * cannot say what the work found. The password reset request (routes/password-reset-routes.ts)
 * looks the address up and, for an account, stores a token and queues a mail; done before
 * answering, a known address was answered 2–5 ms later than an unknown one, which told anyone
 * with a stopwatch which addresses have accounts.
 *
 * The work starts on the event loop's next check phase (`setImmediate`), after the handler's
 * answer was written; a failure goes to `onError` (the caller logs it without the visitor's
 * values). The app's close waits for `idle()`, so a shutdown never cuts a queued mail short.
 * Nothing here survives a crash: the visitor asks again, as after a lost mail.
 */
export class AfterResponse {
  readonly #pending = new Set<Promise<void>>();

  run(work: () => Promise<void>, onError: (error: unknown) => void): void {
    const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch(onError)
      .finally(() => this.#pending.delete(task));
    this.#pending.add(task);
  }

  /** How many handed-off tasks have not ended yet. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Resolves once every task handed off so far, and any they hand off, has ended. */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }
}
