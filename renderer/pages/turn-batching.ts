import { setImmediate } from 'node:timers';

// Page requests are served in step with the event loop: the requests that arrive in one turn
// are all read first, then rendered one after another, each answered as soon as it is done.
//
// Why: a page render is short (tens of µs) and touches a lot of code and data (the compiled
// templates, the formatters, the site's shared objects). Served one by one, each render ran
// right after the kernel's work for the previous response (the socket write wakes the client
// over loopback) and the HTTP parsing of the next request, which left the CPU caches and
// branch predictors cold: the same two renders took ~65 µs inside a request against ~37 µs
// when run twice in a row (bench/README.md, "HTTP"). Grouped, consecutive renders find them
// warm. Holding the answers back to the end of the turn as well was measured too: it lowered
// the system time per response but kept the client idle until the turn's last render, and
// served ~5% fewer pages. Under load a group is at most the requests open at once; a lone
// request waits for nothing but the end of the current turn.
//
// `node:timers` rather than the global: a test that fakes the global timers must not stop
// pages from being served.

let waiting: (() => void)[] = [];

function release(): void {
  const ready = waiting;
  waiting = [];
  for (const resolve of ready) resolve();
}

/**
 * Resolves at the end of the current event-loop turn (the check phase, after the turn's I/O
 * callbacks), together with every other caller of this turn, in call order.
 */
export function endOfTurn(): Promise<void> {
  return new Promise((resolve) => {
    if (waiting.push(resolve) === 1) setImmediate(release);
  });
}
