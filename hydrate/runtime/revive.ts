import { createElement, type ReactNode } from 'react';

/**
 * Formatter-made islands must reproduce the server's children exactly, whitespace text
 * nodes included (STOREFRONT §0). Rather than re-deriving the markup (and drifting from the
 * formatter's bytes), the island snapshots the container's children before hydrating and
 * renders that snapshot back as React elements, overriding only the nodes it animates.
 */
export type SnapshotNode = string | SnapshotElement;

export interface SnapshotElement {
  tag: string;
  attrs: Array<{ name: string; value: string }>;
  children: SnapshotNode[];
  /** Raw inner HTML for elements whose children React should not manage (select). */
  innerHtml: string | null;
  /** The class list, for quick matching in overrides. */
  classes: string[];
}

const OPAQUE_CHILDREN = new Set(['select', 'script', 'style', 'template', 'svg', 'math']);

export function snapshotNode(node: Node): SnapshotNode | null {
  if (node.nodeType === 3) return (node as Text).data;
  if (node.nodeType !== 1) return null; // comments are skipped by React's hydration as well
  const el = node as Element;
  const tag = el.tagName.toLowerCase();
  const opaque = OPAQUE_CHILDREN.has(tag) || el.namespaceURI !== 'http://www.w3.org/1999/xhtml';
  return {
    tag,
    attrs: [...el.attributes].map((a) => ({ name: a.name, value: a.value })),
    children: opaque ? [] : snapshotChildren(el),
    innerHtml: opaque ? el.innerHTML : null,
    classes: [...el.classList],
  };
}

export function snapshotChildren(parent: Node): SnapshotNode[] {
  const out: SnapshotNode[] = [];
  for (const child of parent.childNodes) {
    const snap = snapshotNode(child);
    if (snap !== null) out.push(snap);
  }
  return out;
}

const PROP_NAMES: Record<string, string> = {
  class: 'className', for: 'htmlFor', tabindex: 'tabIndex', readonly: 'readOnly', maxlength: 'maxLength',
  minlength: 'minLength', spellcheck: 'spellCheck', autocomplete: 'autoComplete', novalidate: 'noValidate',
  colspan: 'colSpan', rowspan: 'rowSpan', contenteditable: 'contentEditable', enctype: 'encType',
  'accept-charset': 'acceptCharset', crossorigin: 'crossOrigin', srcset: 'srcSet', fetchpriority: 'fetchPriority',
  referrerpolicy: 'referrerPolicy', autocapitalize: 'autoCapitalize', inputmode: 'inputMode', datetime: 'dateTime',
  autofocus: 'autoFocus', formaction: 'formAction', formnovalidate: 'formNoValidate', allowfullscreen: 'allowFullScreen',
  usemap: 'useMap', itemprop: 'itemProp', itemscope: 'itemScope', itemtype: 'itemType', accesskey: 'accessKey',
  enterkeyhint: 'enterKeyHint', playsinline: 'playsInline', frameborder: 'frameBorder', 'http-equiv': 'httpEquiv',
};

const BOOLEAN_ATTRS = new Set([
  'hidden', 'disabled', 'required', 'multiple', 'readonly', 'novalidate', 'autofocus', 'checked', 'selected',
  'open', 'inert', 'formnovalidate', 'allowfullscreen', 'playsinline', 'itemscope', 'muted', 'controls', 'loop',
]);

/** Input types whose `value` attribute is a label or token rather than the edited text. */
const STATIC_VALUE_TYPES = new Set(['submit', 'button', 'reset', 'radio', 'checkbox', 'hidden', 'image']);

function styleObject(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const decl of text.split(';')) {
    const colon = decl.indexOf(':');
    if (colon < 0) continue;
    const prop = decl.slice(0, colon).trim();
    if (!prop) continue;
    const key = prop.startsWith('--') ? prop : prop.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    out[key] = decl.slice(colon + 1).trim();
  }
  return out;
}

/** React props that reproduce a snapshot element's attributes exactly. */
export function propsOf(node: SnapshotElement): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  const type = node.attrs.find((a) => a.name === 'type')?.value.toLowerCase() ?? '';
  for (const { name, value } of node.attrs) {
    if (name === 'style') {
      props.style = styleObject(value);
    } else if (name === 'checked' && node.tag === 'input') {
      props.defaultChecked = true;
    } else if (name === 'value' && (node.tag === 'textarea' || (node.tag === 'input' && !STATIC_VALUE_TYPES.has(type)))) {
      props.defaultValue = value;
    } else if (BOOLEAN_ATTRS.has(name)) {
      props[PROP_NAMES[name] ?? name] = true;
    } else if (name.startsWith('on')) {
      // Inline handlers never come from the formatters; dropping them keeps React from warning.
      continue;
    } else {
      props[PROP_NAMES[name] ?? name] = value;
    }
  }
  if (node.innerHtml !== null) props.dangerouslySetInnerHTML = { __html: node.innerHtml };
  if (node.tag === 'textarea') {
    props.defaultValue = node.children.map((c) => (typeof c === 'string' ? c : '')).join('');
  }
  return props;
}

/**
 * Returns the replacement for a node, or undefined to render it as the snapshot says.
 * `renderDefault` renders the node unchanged, optionally with extra props and children.
 */
export type Override = (
  node: SnapshotElement,
  renderDefault: (extraProps?: Record<string, unknown>, children?: ReactNode) => ReactNode,
  path: string,
) => ReactNode | undefined;

const VOID_TAGS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

function renderNode(node: SnapshotNode, key: string, override: Override | undefined): ReactNode {
  if (typeof node === 'string') return node;
  const renderDefault = (extraProps?: Record<string, unknown>, children?: ReactNode): ReactNode => {
    const props: Record<string, unknown> = { ...propsOf(node), ...extraProps, key };
    if (VOID_TAGS.has(node.tag) || node.innerHtml !== null || node.tag === 'textarea') {
      return createElement(node.tag, props);
    }
    const kids = children !== undefined ? children : renderSnapshot(node.children, override, key);
    return createElement(node.tag, props, ...(Array.isArray(kids) ? kids : [kids]));
  };
  const replaced = override?.(node, renderDefault, key);
  return replaced === undefined ? renderDefault() : replaced;
}

/** Renders snapshot nodes; keys are tree paths, stable across renders. */
export function renderSnapshot(nodes: SnapshotNode[], override?: Override, prefix = 'n'): ReactNode[] {
  return nodes.map((node, i) => renderNode(node, `${prefix}.${i}`, override));
}

export function hasClass(node: SnapshotElement, name: string): boolean {
  return node.classes.includes(name);
}

export function attrOf(node: SnapshotElement, name: string): string | null {
  return node.attrs.find((a) => a.name === name)?.value ?? null;
}
