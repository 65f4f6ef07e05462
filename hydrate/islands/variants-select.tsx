import { useMemo, type ChangeEvent, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
import { isActivationKey } from '../runtime/focus.ts';
import { createProductDisplay } from '../runtime/product-display.ts';
import { scopeOf, VARIANT_CHANGE_EVENT, type SelectionStore } from '../runtime/product-scope.ts';
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

function VariantsSelect({ runtime, container, snapshot, selection, itemId }: Props): ReactNode {
  const display = useMemo(
    () =>
      createProductDisplay(scopeOf(container), itemId, runtime.context, runtime.context.products[itemId]?.customSoldOutText ?? ''),
    [container, itemId, runtime],
  );

  const publish = () => {
    selection.refresh();
    const state = selection.get();
    display.update(state);
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
  // The radio labels are role="button" with tabindex 0: Enter and Space choose their value.
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
