/**
 * The editor message catalogue: the validation messages of templates seed §5 and the editor
 * and upload wording of seed §8, quoted character for character. Pure, so any editor code,
 * browser or server, formats the same text. `{name}` marks a placeholder.
 */
export const EDITOR_MESSAGES = {
  // Seed §5 "Editor messages".
  invalidEmail: 'Please enter a valid email.',
  emailFormat: 'Emails must be formatted as {email}.',
  // The seed repeats {host}: both places take the same value.
  linkFormat: 'Links must be formatted as {host} or {host}.',
  invalidPageUrl: '{val} is not a valid page URL.',
  unexpectedOption: '{val} is not one of the expected options.',
  listRequired: 'A List must be selected.',
  fileNameRequired: 'Please enter a file name.',
  unsupportedFile: 'The file {fileName} does not appear to be a supported file.',
  fileTooLarge: 'The file {fileName} is too large. The maximum allowed file size is {maxSize}.',
  datasetNoColumn: 'Your dataset must have at least one column.',
  datasetNoRow: 'Your dataset must have at least one row.',
  datasetMissingData: 'One or more rows was missing data.',
  tagExists: 'This {tagType} already exists.',
  tagEditOne: 'You may only edit one {tagType} at a time.',
  // Seed §8 "Editor and upload wording".
  loadResultsFailed: 'Unable to load results.',
  loadCollectionsFailed: 'Unable to load collections.',
  loadFontsFailed: 'Unable to load fonts.',
  loadFontPreviewFailed: 'Unable to load preview for {fontName}.',
  somethingWentWrong: 'Something went wrong.',
  networkError: 'Network error.',
  noJobResponse: 'No response data from job request.',
  processingFailed: 'File processing failed.',
  processingIncomplete: 'File processing failed to complete.',
  processingCancelled: 'File processing cancelled.',
  uploadIncomplete: 'File upload failed to complete.',
  // The seed ends each item of its list with a period and puts the title in parentheses
  // before it; the message is read as ending with that period.
  renameFailed: 'There was a problem while renaming your file.',
  renameFailedTitle: 'Unable to Rename File',
  uploadFailed: 'There was a problem while uploading your file.',
  uploadFailedTitle: 'Unable to Upload File',
  connectFailed: 'Unable to connect. Please try again.',
  contentNotFound: 'Unable to locate content.',
  timezoneLoadFailed: 'Failed to load timezone {timeZone}.',
  vimeoBasicUnsupported: 'Vimeo Basic accounts are unsupported; share a video from a different account.',
  codeEditingAndroid: 'Code editing is not available on Android.',
  noMailingLists: "You don't have any mailing lists; create one first.",
  retryLabel: 'Try again',
  retryShortLabel: 'Retry',
} as const;

export type EditorMessageId = keyof typeof EDITOR_MESSAGES;

/** Placeholder names of one message, each once, in order of appearance. */
export function messagePlaceholders(id: EditorMessageId): string[] {
  return [...new Set([...EDITOR_MESSAGES[id].matchAll(/\{(\w+)\}/g)].map((m) => m[1]!))];
}

export type FormatResult =
  | { ok: true; text: string }
  | { ok: false; code: 'UNKNOWN_MESSAGE' | 'MISSING_PARAM'; message: string };

/** Fills a message; an unknown id or a missing parameter is an error result, never a throw. */
export function formatEditorMessage(id: string, params: Record<string, string | number> = {}): FormatResult {
  if (!Object.prototype.hasOwnProperty.call(EDITOR_MESSAGES, id)) {
    return { ok: false, code: 'UNKNOWN_MESSAGE', message: `Unknown editor message ${id}` };
  }
  const known = id as EditorMessageId;
  const missing = messagePlaceholders(known).filter((name) => !Object.prototype.hasOwnProperty.call(params, name));
  if (missing.length > 0) return { ok: false, code: 'MISSING_PARAM', message: `Missing ${missing.join(', ')} for ${id}` };
  return { ok: true, text: EDITOR_MESSAGES[known].replace(/\{(\w+)\}/g, (_, name: string) => String(params[name])) };
}
