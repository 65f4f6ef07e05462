import { useEffect, useId, useRef, type ReactNode } from 'react';
import { holdPage } from '../runtime/dialog.ts';
import { focusableIn, modalKey } from '../runtime/focus.ts';

// The admin's modal: the storefront's dialog pattern (role=dialog, aria-modal, named by its
// heading; the page held still with holdPage; Escape closes and Tab stays inside through
// modalKey), with focus moved in on open and given back to the opener on close.

export interface AdminDialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Described by this text (the dialog's first paragraph), when given. */
  description?: string;
  /** `alertdialog` for a confirmation that interrupts (delete). */
  role?: 'dialog' | 'alertdialog';
  /**
   * The dialog's step, for one that shows another content in place (the key dialog: a name,
   * then the key). A new step moves the focus to the first control again: the control that
   * had it left with the old content, and the focus with it, to the page behind.
   */
  step?: string;
}

export function AdminDialog({ title, onClose, children, description, role = 'dialog', step }: AdminDialogProps) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const doc = root.ownerDocument;
    const opener = doc.activeElement as HTMLElement | null;
    const release = holdPage(doc);
    const onKey = (event: KeyboardEvent) => modalKey(root, event, () => close.current());
    doc.addEventListener('keydown', onKey);
    return () => {
      doc.removeEventListener('keydown', onKey);
      release();
      if (opener && doc.contains(opener)) opener.focus();
    };
  }, []);

  // After the opener is noted above (effects run in order): into the dialog on open and on
  // each new step.
  useEffect(() => {
    const root = ref.current;
    if (root) (focusableIn(root)[0] ?? root).focus();
  }, [step]);

  return (
    <div className="admin-dialog-backdrop">
      <div
        ref={ref}
        className="admin-dialog"
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
      >
        <h2 id={titleId}>{title}</h2>
        {description ? <p id={descriptionId}>{description}</p> : null}
        {children}
      </div>
    </div>
  );
}
