import { useLayoutEffect, useRef, useState } from 'react';
import { focusWithError } from './announce.ts';

type Target = () => HTMLElement | null | undefined;

/**
 * focusWithError once the render that shows the error has committed, so that the field focus
 * reaches is already marked invalid and described by its error (read together), and a field
 * that had focus already says the error through the status region. Errors of one field tied to
 * it this way need no role="alert": an alert as well as the focus said the error twice when
 * focus moved (a button pressed). A request renders even when the error text is unchanged (the
 * same error again), so the effect always runs. `count` is how many fields the submit found
 * wrong (focusWithError says it when more than one).
 */
export function useFocusWithError(): (field: Target, error: string, count?: number) => void {
  const pending = useRef<{ field: Target; error: string; count: number } | null>(null);
  const [, setRequests] = useState(0);
  useLayoutEffect(() => {
    const next = pending.current;
    if (!next) return;
    pending.current = null;
    const el = next.field();
    if (el) focusWithError(el, next.error, next.count);
  });
  return (field, error, count = 1) => {
    pending.current = { field, error, count };
    setRequests((n) => n + 1);
  };
}
