/**
 * One field of a site form or the additional-fields lightbox, as the site data holds it.
 * Here so that the renderer (which writes the field markup) and the browser (which reads
 * the values back) share one definition.
 */
export interface FormField {
  id: string;
  type: string;
  title?: string;
  name?: string;
  required?: boolean;
  description?: string;
  placeholder?: string;
  options?: Array<string | { value?: string; label?: string }>;
  questions?: string[];
  maxLength?: number | null;
  showCountryCode?: boolean;
  value?: unknown;
}

/**
 * The text of a select field's empty first option (AF-6 needs it: a required select left on
 * it says `Required`). The seed gives an owner no placeholder for a select, and an empty
 * option showed the browser's blank grey box, as if the field were broken: it reads
 * `Select {title}`, as the variant selects do (A3), unless the data carries a placeholder
 * (the checkout's `Choose a country`). Designed here.
 */
export function selectPrompt(field: Pick<FormField, 'title' | 'placeholder'>): string {
  if (typeof field.placeholder === 'string' && field.placeholder !== '') return field.placeholder;
  const title = (field.title ?? '').trim();
  return title === '' ? '' : `Select ${title}`;
}
