/** D5: one email rule for restock, site forms and login. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[A-Za-z0-9]{2,4}$/;

export function isValidEmail(email: string): boolean {
  return email.length >= 3 && email.length <= 256 && EMAIL_PATTERN.test(email);
}
