import { Type } from '@sinclair/typebox';
import { formNotification } from '../../mail/form-notification.ts';
import { joinMailingList, welcomeAfterAnswer } from '../../mail/newsletter-welcome.ts';
import { enqueueMail } from '../../mail/outbox-worker.ts';
import { verifyCaptchaToken } from '../captcha.ts';
import { liveSession, mailOrigin, randomToken, requireSite } from '../context.ts';
import { ApiError } from '../errors.ts';
import { FIELD_MESSAGES, FIELD_TYPES, isValidEmail, parseFieldsObject, validateFormValues } from '../form-validation.ts';
import { jsonObjectBody } from '../http.ts';
import { addRoute, checkedInHandler, isNonEmptyString, takeRateLimit, type RouteKit } from '../route-kit.ts';
import { clientAddress } from '../rate-limits.ts';

// B6, B7, B15, B16: form schema, validation, submission keys and saved submissions.

export const SUBMISSION_KEY_LIFETIME_MS = 30 * 60 * 1000;

const formInvalid = (errors: Record<string, string>) =>
  new ApiError(400, 'FORM_INVALID', FIELD_MESSAGES.formInvalid, { errors });

const formParse = () => new ApiError(400, 'FORM_PARSE', 'Could not parse the form fields, please check your entries.');

// B16 checks `form` first; every later field is checked after the form key is spent or a
// lookup, where its table row puts it, so only `form` is checked before the handler.
const afterKey = (schema: Parameters<typeof checkedInHandler>[0]) =>
  checkedInHandler(schema, 'Checked in the handler, in B16 order (after the form key is spent).');

const SAVE_SCHEMA = {
  summary: 'B16: save a form submission.',
  body: Type.Object({
    form: Type.String({ description: 'A JSON object of field id to value, as text.' }),
    key: afterKey(Type.String({ minLength: 1, maxLength: 200 })),
    formId: afterKey(Type.String({ minLength: 1 })),
    captchaKey: Type.Optional(afterKey(Type.String())),
    pageTitle: Type.Optional(afterKey(Type.String())),
    pageId: Type.Optional(afterKey(Type.String())),
    contentSource: afterKey(Type.Union([Type.Literal('i'), Type.Literal('c')])),
    pagePath: afterKey(Type.String({ pattern: '^/' })),
    pagePermissionTypeValue: afterKey(Type.Integer({ minimum: -(2 ** 31 - 1), maximum: 2 ** 31 - 1 })),
  }),
};

export function registerFormRoutes(kit: RouteKit): void {
  const { deps } = kit;

  addRoute(kit, {
    method: 'GET',
    url: '/template/GetTemplateSchema',
    schema: { summary: 'B6: the form field types.', querystring: Type.Object({ type: Type.Literal('form') }) },
    invalid: () => new ApiError(400, 'UNSUPPORTED_TYPE', 'Unsupported schema type.'),
    handler: async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      return { type: 'form', fieldTypes: FIELD_TYPES };
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/rest/forms/validate/:formId',
    crumb: true,
    schema: {
      summary: 'B7: validate form values.',
      params: Type.Object({ formId: Type.String() }),
      // B7 answers an unknown form (404) before a body that is not an object.
      body: checkedInHandler(Type.Record(Type.String(), Type.Unknown()), 'Field id to value; read after the form lookup.'),
    },
    readBody: (request) => request.body,
    handler: async (request) => {
      const { formId } = request.params;
      const form = await deps.store.read.getForm(formId);
      if (!form) throw new ApiError(404, 'FORM_NOT_FOUND', 'Form not found.');
      const { errors } = validateFormValues(form, jsonObjectBody(request));
      if (Object.keys(errors).length > 0) throw formInvalid(errors);
      return { valid: true };
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/form/FormSubmissionKey',
    crumb: true,
    schema: { summary: 'B15: a single-use form submission key (any body is ignored).' },
    handler: async (request) => {
      // Any body is ignored (B15); reading it only classifies, so nothing to reject.
      await takeRateLimit(deps.limiters.formSubmissionKey, request);
      const key = randomToken();
      await deps.store.read.insertSubmissionKey(key, deps.now());
      return { key };
    },
  });

  addRoute(kit, {
    method: 'POST',
    url: '/form/SaveFormSubmission',
    crumb: true,
    schema: SAVE_SCHEMA,
    invalid: (failure) => (failure.field === 'form' ? formParse() : undefined),
    handler: async (request) => {
      const body = request.body;
      const values = parseFieldsObject(body.form);
      if (!values) throw formParse();
      const now = deps.now();
      // The key is spent as soon as it checks out, whatever fails afterwards (keys are single-use).
      const keyOk =
        isNonEmptyString(body.key) &&
        body.key.length <= 200 &&
        (await deps.store.read.consumeSubmissionKey(body.key, now, now - SUBMISSION_KEY_LIFETIME_MS));
      if (!keyOk) throw new ApiError(401, 'INVALID_KEY', 'Invalid or expired form submission key.');

      const form = isNonEmptyString(body.formId) ? await deps.store.read.getForm(body.formId) : null;
      if (!form || !form.storageConfigured) {
        throw new ApiError(404, 'FORM_NOT_CONFIGURED', 'This form has not been configured yet.');
      }
      await takeRateLimit(deps.limiters.saveFormSubmission, request, `${clientAddress(request)}\u0000${form.id}`);

      const { contentSource, pagePath, pagePermissionTypeValue, pageId, pageTitle } = body;
      const metadataOk =
        (contentSource === 'i' || contentSource === 'c') &&
        typeof pagePath === 'string' &&
        pagePath.startsWith('/') &&
        typeof pagePermissionTypeValue === 'number' &&
        Number.isInteger(pagePermissionTypeValue) &&
        Math.abs(pagePermissionTypeValue) <= 2 ** 31 - 1 &&
        (pageId === undefined || typeof pageId === 'string') &&
        (pageTitle === undefined || typeof pageTitle === 'string');
      if (!metadataOk) throw new ApiError(400, 'BAD_METADATA', 'Invalid submission metadata.');

      const site = await requireSite(deps);
      if (form.captchaEnabled && site.settings.captcha.siteKey) {
        const token = body.captchaKey;
        const solved =
          isNonEmptyString(token) && (await verifyCaptchaToken(deps.store.read, site.settings, token, now));
        if (!solved) throw new ApiError(400, 'CAPTCHA_REQUIRED', 'Complete CAPTCHA before submitting.');
      }

      const { errors, values: accepted } = validateFormValues(form, values);
      if (Object.keys(errors).length > 0) throw formInvalid(errors);

      const session = await liveSession(deps, request);
      const submissionId = deps.newId('s');
      const jobs: string[] = [];
      try {
        await deps.store.transaction(async (repo) => {
          jobs.length = 0;
          await repo.insertSubmission({
            id: submissionId,
            formId: form.id,
            values: accepted,
            pageId: (pageId as string | undefined) ?? '',
            pageTitle: (pageTitle as string | undefined) ?? '',
            pagePath: pagePath as string,
            contentSource: contentSource as string,
            pagePermissionTypeValue: pagePermissionTypeValue as number,
            siteUserId: session?.siteUserId ?? null,
            createdOn: now,
          });
          if (form.isNewsletter) {
            for (const field of form.fields) {
              const value = accepted[field.id];
              if (field.type === 'email' && typeof value === 'string' && isValidEmail(value.trim())) {
                jobs.push(await joinMailingList(deps, repo, { email: value, source: 'newsletter', now }));
              }
            }
          }
          // In the same transaction: the owner hears of exactly the submissions that were saved.
          if (form.notifyEmail) {
            const message = formNotification({ ...form, notifyEmail: form.notifyEmail }, accepted, pagePath as string);
            await enqueueMail(repo, { ...message, id: deps.newId('m'), queuedOn: now });
          }
        });
      } catch (error) {
        request.log.error({ err: error }, 'form submission not saved');
        throw new ApiError(500, 'STORAGE_FAILURE', 'Unable to save the submission.');
      }
      // After the answer: its timing must not say whether the address was already subscribed.
      for (const job of jobs) welcomeAfterAnswer(deps, request.log, job);
      return { success: true, submissionId };
    },
  });

}
