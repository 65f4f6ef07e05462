import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { announcer, announcerHost, clearAttention, focusWithError } from '../runtime/announce.ts';
import { invalidAttrs } from '../runtime/form-fields.ts';
import { attrOf, hasClass, renderSnapshot, snapshotChildren, type SnapshotElement, type SnapshotNode } from '../runtime/revive.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { REVIEW_FIELDS, REVIEW_THANKS, reviewErrorId, reviewErrors, type ReviewField } from '../shared/review-rules.ts';
import type { IslandDefinition } from './island.ts';

// The review form of the reviews request page (209, issue 18): checks the fields as the
// server does, says each error next to its field (aria-describedby, aria-invalid) and moves
// focus to the first one, sends POST /api/commerce/reviews, and on success replaces the form
// by a thank-you that shows the review as sent, awaiting moderation.

export const REVIEWS_PATH = '/api/commerce/reviews';

interface Sent {
  rating: number;
  name: string;
  text: string;
}

type Errors = Partial<Record<ReviewField, string>>;

function ReviewForm({ runtime, snapshot }: { runtime: Runtime; snapshot: SnapshotNode[] }): ReactNode {
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState('');
  const [sent, setSent] = useState<Sent | null>(null);
  const formRef = useRef<HTMLFormElement | null>(null);
  const thanksRef = useRef<HTMLDivElement | null>(null);
  const busy = useRef(false);
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    setMounted(true);
    // A live region is read only if it is in the page before its text changes (focusWithError).
    if (formRef.current) announcer(announcerHost(formRef.current));
  }, []);

  // Once the thank-you is shown it takes focus: the form, and the button that had it, are hidden.
  useEffect(() => {
    if (sent) thanksRef.current?.focus();
  }, [sent]);

  /** Focus to the first wrong field (read with its error); with more than one, how many is said. */
  const focusFirst = (found: Errors) => {
    const form = formRef.current!;
    const count = REVIEW_FIELDS.filter((field) => found[field]).length;
    const target = found.rating
      ? form.querySelector<HTMLInputElement>('input[name="rating"]')
      : found.name
        ? form.querySelector<HTMLInputElement>('input[name="name"]')
        : form.querySelector<HTMLTextAreaElement>('textarea[name="text"]');
    const error = found.rating ?? found.name ?? found.text ?? '';
    if (target) focusWithError(target, error, count);
  };

  // A field corrected after a submit loses its error as it is typed (or chosen), by the same
  // rules; the count said goes quietly and the other errors are not said again.
  const onInput = (event: FormEvent) => {
    const target = event.target as HTMLInputElement | HTMLTextAreaElement;
    const field = target.name === 'rating' || target.name === 'name' || target.name === 'text' ? (target.name as ReviewField) : null;
    if (!field || !errors[field]) return;
    const form = formRef.current!;
    const now = reviewErrors({
      rating: form.querySelector<HTMLInputElement>('input[name="rating"]:checked')?.value ?? '',
      name: form.querySelector<HTMLInputElement>('input[name="name"]')?.value ?? '',
      text: form.querySelector<HTMLTextAreaElement>('textarea[name="text"]')?.value ?? '',
    });
    if (now[field]) return;
    setErrors(({ [field]: _fixed, ...rest }) => rest);
    clearAttention(target);
  };

  async function submit(): Promise<void> {
    if (busy.current) return;
    const form = formRef.current!;
    const rating = form.querySelector<HTMLInputElement>('input[name="rating"]:checked')?.value ?? '';
    const name = form.querySelector<HTMLInputElement>('input[name="name"]')?.value ?? '';
    const text = form.querySelector<HTMLTextAreaElement>('textarea[name="text"]')?.value ?? '';
    const found = reviewErrors({ rating, name, text });
    setErrors(found);
    setFailure('');
    if (Object.keys(found).length > 0) {
      focusFirst(found);
      return;
    }
    busy.current = true;
    try {
      const productId = form.getAttribute('data-product-id') ?? '';
      const result = await runtime.client.request('POST', REVIEWS_PATH, { json: { productId, rating: Number(rating), name, text } });
      if (result.ok) {
        setSent({ rating: Number(rating), name: name.trim(), text: text.trim() });
        return;
      }
      const fieldErrors = (result.body as { errors?: Errors } | null)?.errors;
      if (fieldErrors && REVIEW_FIELDS.some((field) => fieldErrors[field])) {
        setErrors(fieldErrors);
        focusFirst(fieldErrors);
      } else setFailure(result.message);
    } finally {
      busy.current = false;
    }
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit().catch((err: unknown) => runtime.reporter.reportError('review_form', { message: String(err) }));
  };

  const fieldOf = (node: SnapshotElement): ReviewField | null => {
    const name = attrOf(node, 'name');
    return (node.tag === 'input' || node.tag === 'textarea') && (name === 'name' || name === 'text') ? name : null;
  };
  const errorNode = (field: ReviewField, key: string) => (
    <p key={key} className="field-error" id={reviewErrorId(field)}>
      {errors[field]}
    </p>
  );

  const override = (node: SnapshotElement, renderDefault: (p?: Record<string, unknown>, c?: ReactNode) => ReactNode, path: string): ReactNode | undefined => {
    if (node.tag === 'form' && hasClass(node, 'sf-review-form')) return renderDefault({ ref: formRef, onSubmit, onInput, hidden: sent !== null });
    if (hasClass(node, 'sf-review-rating-choices')) {
      // The rating's error follows its legend and describes the whole group.
      const children = renderSnapshot(node.children, override, path);
      const withError = errors.rating ? [children[0], errorNode('rating', `${path}.error`), ...children.slice(1)] : children;
      return renderDefault(errors.rating ? { 'aria-describedby': reviewErrorId('rating') } : undefined, withError);
    }
    if (node.tag === 'input' && attrOf(node, 'name') === 'rating' && errors.rating) return renderDefault({ 'aria-invalid': true });
    if (hasClass(node, 'sf-review-field')) {
      const children = renderSnapshot(node.children, override, path);
      const field = node.children.map((c) => (typeof c === 'object' ? fieldOf(c) : null)).find((f) => f !== null) ?? null;
      // The message sits between the label and the control, read with the control.
      return renderDefault(undefined, field && errors[field] ? [children[0], errorNode(field, `${path}.error`), ...children.slice(1)] : children);
    }
    const field = fieldOf(node);
    if (field && errors[field]) return renderDefault(invalidAttrs(reviewErrorId(field)));
    if (hasClass(node, 'sf-review-error')) return renderDefault({ hidden: failure === '' }, failure);
    // Written disabled (review-rules.ts), so nothing goes as a GET before the island handles the
    // submit; the hydrating render keeps it so, the mounted one enables it.
    if (hasClass(node, 'sf-review-submit')) return renderDefault({ disabled: !mounted });
    if (hasClass(node, 'sf-review-thanks')) {
      return renderDefault(
        { ref: thanksRef, hidden: sent === null },
        sent ? (
          <>
            <p>{REVIEW_THANKS}</p>
            <blockquote className="sf-review sf-review-pending">
              <p className="sf-review-stars">{`${sent.rating} out of 5`}</p>
              <p>{sent.text}</p>
              <footer>{sent.name} · awaiting moderation</footer>
            </blockquote>
          </>
        ) : undefined,
      );
    }
    return undefined;
  };
  return renderSnapshot(snapshot, override);
}

export const reviewFormIsland: IslandDefinition = {
  prepare(container, runtime) {
    return <ReviewForm runtime={runtime} snapshot={snapshotChildren(container)} />;
  },
};
