// The mail `npm start` sends, for a browser scenario file: an SMTP sink, and the outbox worker
// renderer/main.ts runs, here over the tier's store and driven by hand. Call it inside the
// file's describe block, after useBrowserTier, which registers the hooks.
import { afterAll, beforeAll } from 'vitest';
import { createOutboxWorker, smtpTransport, type OutboxWorker } from '../../../renderer/mail/outbox-worker.ts';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../../../renderer/test-support/smtp-sink.ts';
import type { BrowserTier } from './tier.ts';

export interface MailSink {
  /** One pass of the outbox, then the first `count` messages the sink has received. */
  delivered(count: number): Promise<ReceivedMail[]>;
}

export function useMailSink(tier: BrowserTier): MailSink {
  let sink: SmtpSink | undefined;
  let outbox: OutboxWorker | undefined;
  beforeAll(async () => {
    sink = await startSmtpSink();
    outbox = createOutboxWorker({ store: tier.server.store, transport: smtpTransport(sink.url), from: 'shop@quire.test', log: () => undefined });
  });
  afterAll(async () => {
    await outbox?.stop();
    await sink?.close();
  });
  return {
    async delivered(count) {
      if (!sink || !outbox) throw new Error('the sink starts in beforeAll');
      await outbox.tick();
      return sink.waitFor(count);
    },
  };
}
