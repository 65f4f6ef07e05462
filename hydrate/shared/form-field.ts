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
