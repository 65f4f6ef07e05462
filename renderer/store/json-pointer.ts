// JSON Pointers (RFC 6901) as the site checks and the seed's findings name values: a key as a
// pointer token, and a pointer as the path a person reads.

/** `key` as one token of a pointer: `~` as `~0`, `/` as `~1`. */
export function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** `products[0].variants[1]` for the pointer `/products/0/variants/1`. */
export function pointerPlace(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(key) ? `[${key}]` : out === '' ? key : `.${key}`;
  }
  return out;
}
