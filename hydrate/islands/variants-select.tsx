import { useEffect, useMemo, type ChangeEvent, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
import { announce, announcer, announcerHost } from '../runtime/announce.ts';
import { isActivationKey } from '../runtime/focus.ts';
import { createProductDisplay } from '../runtime/product-display.ts';
import { readChosenValues, scopeOf, VARIANT_CHANGE_EVENT, type SelectionStore } from '../runtime/product-scope.ts';
import type { VariantData } from '../runtime/page-context.ts';
import { attrOf, hasClass, renderSnapshot, snapshotChildren, type SnapshotNode } from '../runtime/revive.ts';
import type { Runtime } from '../runtime/runtime.ts';
import type { IslandDefinition } from './island.ts';

interface Props {
  runtime: Runtime;
  container: HTMLElement;
  snapshot: SnapshotNode[];
  selection: SelectionStore;
  itemId: string;
}

function optionGroup(container: HTMLElement, name: string) {
  const select = [...container.querySelectorAll<HTMLSelectElement>('select[data-variant-option-name]')].find(
    (el) => el.getAttribute('data-variant-option-name') === name,
  );
  const wrapper = [...container.querySelectorAll('.variant-radiobtn-wrapper[data-variant-option-name]')].find(
    (el) => el.getAttribute('data-variant-option-name') === name,
  );
  const radios = wrapper ? [...wrapper.querySelectorAll<HTMLInputElement>('input.variant-radiobtn')] : [];
  return { select, radios };
}

/** Suffix of an option no variant has together with the other chosen values (issue 16). */
export const UNAVAILABLE_SUFFIX = ' (unavailable)';

/**
 * Whether choosing `value` for option `name` can still lead to a variant, given the values
 * chosen for the other options (unchosen ones match anything).
 */
export function valueAvailable(variants: readonly VariantData[], chosen: Record<string, string>, name: string, value: string): boolean {
  // A value no variant spells that way (the formatter's escaping of odd option text) is left
  // alone: only the data can say a value is impossible.
  if (!variants.some((variant) => variant.attributes?.[name] === value)) return true;
  return variants.some(
    (variant) =>
      variant.attributes?.[name] === value &&
      Object.entries(chosen).every(([other, wanted]) => other === name || variant.attributes?.[other] === wanted),
  );
}

/**
 * Marks the values that no variant has with the current choice: the dropdown's option is
 * disabled and says `(unavailable)`, the radio is disabled and its label aria-disabled. The
 * dropdown's options are inner HTML to React (revive.ts), and the radios' `disabled` is no prop
 * of theirs, so these DOM edits are never undone by a render.
 */
function markUnavailable(container: HTMLElement, variants: readonly VariantData[], originalText: WeakMap<HTMLOptionElement, string>): void {
  const chosen = readChosenValues(container);
  for (const select of container.querySelectorAll<HTMLSelectElement>('select[data-variant-option-name]')) {
    const name = select.getAttribute('data-variant-option-name') ?? '';
    for (const option of select.options) {
      if (option.value === '') continue;
      if (!originalText.has(option)) originalText.set(option, option.textContent ?? '');
      const available = valueAvailable(variants, chosen, name, option.value);
      option.disabled = !available;
      const text = originalText.get(option)! + (available ? '' : UNAVAILABLE_SUFFIX);
      if (option.textContent !== text) option.textContent = text;
    }
    for (const radio of optionGroup(container, name).radios) {
      const available = valueAvailable(variants, chosen, name, radio.value);
      radio.disabled = !available;
      const label = radio.id ? [...container.querySelectorAll('label[for]')].find((el) => el.getAttribute('for') === radio.id) : undefined;
      if (label) {
        if (available) label.removeAttribute('aria-disabled');
        else label.setAttribute('aria-disabled', 'true');
      }
    }
  }
}

function VariantsSelect({ runtime, container, snapshot, selection, itemId }: Props): ReactNode {
  const display = useMemo(
    () =>
      createProductDisplay(scopeOf(container), itemId, runtime.context, runtime.context.products[itemId]?.customSoldOutText ?? ''),
    [container, itemId, runtime],
  );

  const originalText = useMemo(() => new WeakMap<HTMLOptionElement, string>(), []);
  useEffect(() => {
    markUnavailable(container, selection.info().variants, originalText);
    // A live region is read only if it is in the page before its text changes.
    announcer(announcerHost(container));
    // Back to this page without the back/forward cache (or a reload in Firefox), the browser
    // puts the visitor's last choice back into the dropdowns before the islands start: the
    // selection store reads it (Add To Cart said Sold Out), so the price, marks and restock
    // box must show it too, not the server's "from" price. Nothing is announced: the visitor
    // did not just choose it.
    if (Object.keys(readChosenValues(container)).length > 0) {
      selection.refresh();
      display.update(selection.get());
      container.dispatchEvent(new runtime.win.CustomEvent(VARIANT_CHANGE_EVENT, { bubbles: true, detail: selection.get() }));
    }
  }, [container, selection, originalText, display, runtime]);

  const publish = () => {
    markUnavailable(container, selection.info().variants, originalText);
    selection.refresh();
    const state = selection.get();
    display.update(state);
    announce(announcerHost(container), display.said(state));
    container.dispatchEvent(new runtime.win.CustomEvent(VARIANT_CHANGE_EVENT, { bubbles: true, detail: state }));
  };

  // The dropdown and the radio group of one option mirror each other (A3).
  const onSelectChange = (event: ChangeEvent<HTMLSelectElement>) => {
    const name = event.currentTarget.getAttribute('data-variant-option-name') ?? '';
    const value = event.currentTarget.value;
    for (const radio of optionGroup(container, name).radios) radio.checked = value !== '' && radio.value === value;
    publish();
  };
  const onRadioChange = (event: ChangeEvent<HTMLInputElement>) => {
    const wrapper = event.currentTarget.closest('.variant-radiobtn-wrapper');
    const name = wrapper?.getAttribute('data-variant-option-name') ?? '';
    const { select } = optionGroup(container, name);
    if (select && event.currentTarget.checked) select.value = event.currentTarget.value;
    publish();
  };
  // The reference's radio labels are role="button" with tabindex 0 (the storefront's pages drop
  // both: renderer/platform/variants-select-formatter.ts); on such a label Enter and Space choose its value.
  const onLabelKeyDown = (event: ReactKeyboardEvent<HTMLElement>) => {
    if (!isActivationKey(event)) return;
    event.preventDefault();
    const id = event.currentTarget.getAttribute('for');
    const radio = id ? container.ownerDocument.getElementById(id) : null;
    if (radio instanceof runtime.win.HTMLInputElement && !radio.checked) radio.click();
  };

  return renderSnapshot(snapshot, (node, renderDefault) => {
    if (node.tag === 'select' && attrOf(node, 'data-variant-option-name') !== null) return renderDefault({ onChange: onSelectChange });
    if (node.tag === 'input' && hasClass(node, 'variant-radiobtn')) return renderDefault({ onChange: onRadioChange });
    if (node.tag === 'label' && attrOf(node, 'for') !== null) return renderDefault({ onKeyDown: onLabelKeyDown });
    return undefined;
  });
}

export const variantsIsland: IslandDefinition = {
  prepare(container, runtime) {
    const itemId = container.getAttribute('data-item-id') ?? '';
    const selection = runtime.selection(scopeOf(container), itemId);
    return (
      <VariantsSelect runtime={runtime} container={container} snapshot={snapshotChildren(container)} selection={selection} itemId={itemId} />
    );
  },
};

function QuantityInput({ snapshot, selection }: { snapshot: SnapshotNode[]; selection: SelectionStore }): ReactNode {
  const onChange = (event: ChangeEvent<HTMLInputElement>) => selection.setQuantityText(event.currentTarget.value);
  return renderSnapshot(snapshot, (node, renderDefault) => (node.tag === 'input' ? renderDefault({ onChange }) : undefined));
}

export const quantityIsland: IslandDefinition = {
  prepare(container, runtime) {
    const itemId = container.getAttribute('data-item-id') ?? '';
    const selection = runtime.selection(scopeOf(container), itemId);
    return <QuantityInput snapshot={snapshotChildren(container)} selection={selection} />;
  },
};
