import { describe, expect, test } from 'vitest';
import { EDITOR_MESSAGES, formatEditorMessage, messagePlaceholders } from './editor-messages.ts';

describe('editor message catalogue (seed §5, §8)', () => {
  test('the seed §5 editor messages, exactly', () => {
    expect([
      EDITOR_MESSAGES.invalidEmail,
      EDITOR_MESSAGES.emailFormat,
      EDITOR_MESSAGES.linkFormat,
      EDITOR_MESSAGES.invalidPageUrl,
      EDITOR_MESSAGES.unexpectedOption,
      EDITOR_MESSAGES.listRequired,
      EDITOR_MESSAGES.fileNameRequired,
      EDITOR_MESSAGES.unsupportedFile,
      EDITOR_MESSAGES.fileTooLarge,
      EDITOR_MESSAGES.datasetNoColumn,
      EDITOR_MESSAGES.datasetNoRow,
      EDITOR_MESSAGES.datasetMissingData,
      EDITOR_MESSAGES.tagExists,
      EDITOR_MESSAGES.tagEditOne,
    ]).toEqual([
      'Please enter a valid email.',
      'Emails must be formatted as {email}.',
      'Links must be formatted as {host} or {host}.',
      '{val} is not a valid page URL.',
      '{val} is not one of the expected options.',
      'A List must be selected.',
      'Please enter a file name.',
      'The file {fileName} does not appear to be a supported file.',
      'The file {fileName} is too large. The maximum allowed file size is {maxSize}.',
      'Your dataset must have at least one column.',
      'Your dataset must have at least one row.',
      'One or more rows was missing data.',
      'This {tagType} already exists.',
      'You may only edit one {tagType} at a time.',
    ]);
  });

  test('the seed §8 editor and upload wording, exactly', () => {
    expect(EDITOR_MESSAGES).toMatchObject({
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
    });
  });

  test('placeholders', () => {
    expect(messagePlaceholders('fileTooLarge')).toEqual(['fileName', 'maxSize']);
    expect(messagePlaceholders('linkFormat')).toEqual(['host']);
    expect(messagePlaceholders('invalidEmail')).toEqual([]);
  });

  test('formatting fills every placeholder', () => {
    expect(formatEditorMessage('fileTooLarge', { fileName: 'a.png', maxSize: '20 MB' })).toEqual({
      ok: true,
      text: 'The file a.png is too large. The maximum allowed file size is 20 MB.',
    });
    expect(formatEditorMessage('linkFormat', { host: 'example.com' })).toEqual({ ok: true, text: 'Links must be formatted as example.com or example.com.' });
    expect(formatEditorMessage('tagExists', { tagType: 'category' })).toEqual({ ok: true, text: 'This category already exists.' });
  });

  test('unknown ids and missing parameters are coded errors', () => {
    expect(formatEditorMessage('nope')).toMatchObject({ ok: false, code: 'UNKNOWN_MESSAGE' });
    expect(formatEditorMessage('toString')).toMatchObject({ ok: false, code: 'UNKNOWN_MESSAGE' });
    expect(formatEditorMessage('fileTooLarge', { fileName: 'a' })).toEqual({ ok: false, code: 'MISSING_PARAM', message: 'Missing maxSize for fileTooLarge' });
  });
});
