/**
 * D5: one email rule for restock, site forms, checkout, sign-in and the admin (3 to 256
 * characters, user@domain with a 2 to 4 character top-level part), shared by the islands and
 * the server. D5's pattern alone let through characters that an unquoted address cannot hold
 * (RFC 5322 §3.4.1): a mail library reads `a,victim@x.co` as two addresses and `a;b@x.co` as a
 * group, so a sign-up stored as one address was mailed to another, and duplicate checks were
 * bypassed. Those specials, control characters and invisible format characters (a right-to-left
 * override makes `moc.x@a` read backwards in the admin) are refused too.
 */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[A-Za-z0-9]{2,4}$/;
const NOT_IN_AN_ADDRESS = /[\u0000-\u001f\u007f"(),:;<>[\\\]]|\p{Cf}/u;

export function isValidEmail(email: string): boolean {
  return email.length >= 3 && email.length <= 256 && EMAIL_PATTERN.test(email) && !NOT_IN_AN_ADDRESS.test(email);
}
