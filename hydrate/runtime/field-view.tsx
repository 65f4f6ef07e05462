import type { ReactNode } from 'react';
import { selectPrompt } from '../shared/form-field.ts';
import { FIELD_PARTS, invalidAttrs, LIKERT_ANSWERS, optionLabel, optionValue, phoneParts, type FieldValue, type FormField } from './form-fields.ts';

const TEXT_TYPES: Record<string, string> = {
  text: 'text', email: 'email', number: 'number', website: 'url', currency: 'text', password: 'password', twitter: 'text',
};

function asList(value: FieldValue | undefined): string[] {
  return Array.isArray(value) ? value : [];
}
function asText(value: FieldValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * One field of the A6 lightbox, in the `.sf-field` shape the value collector reads. The
 * error, when present, sits immediately above the title (A6).
 */
export function FieldView({
  field,
  error,
  initial,
  input,
}: {
  field: FormField;
  error?: string | null;
  initial?: FieldValue;
  /** Extra attributes of a one-control field's input or select (autofill tokens, keyboards). */
  input?: Record<string, string>;
}): ReactNode {
  const id = field.id;
  const required = field.required === true;
  const titleText = field.title ?? '';
  // The error is the field's description for assistive technology, and marks its controls invalid.
  const errorId = `${id}-error`;
  const errorEl = error ? (
    <div className="field-error" id={errorId}>
      {error}
    </div>
  ) : null;
  const invalid = invalidAttrs(error && errorId);
  const title = (
    <label className="title" htmlFor={id}>
      {titleText}
      {required ? (
        <>
          {' '}
          <span className="required">*</span>
        </>
      ) : null}
    </label>
  );
  const description = field.description ? <p className="description">{field.description}</p> : null;
  const common = {
    className: 'sf-field',
    'data-field-id': id,
    'data-field-type': field.type,
    'data-required': required ? 'true' : 'false',
  };

  if (field.type === 'section') {
    return (
      <div {...common}>
        <h3 className="title">{titleText}</h3>
        {description}
      </div>
    );
  }
  if (field.type === 'hidden') {
    const defaultValue = asText(initial) ?? (typeof field.value === 'string' ? field.value : '');
    return (
      <div {...common} hidden>
        <input type="hidden" name={field.name ?? titleText} defaultValue={defaultValue} />
      </div>
    );
  }

  let control: ReactNode;
  const parts = field.type === 'phone' ? phoneParts(field.showCountryCode === true) : FIELD_PARTS[field.type];
  if (parts) {
    const values = asList(initial);
    const offset = field.type === 'phone' && values.length === 4 && parts.length === 3 ? 1 : 0;
    control = parts.map((part, i) => (
      <input key={part} {...invalid} id={i === 0 ? id : undefined} name={`${id}-${part}`} type="text" placeholder={part} aria-label={`${titleText} ${part}`} defaultValue={values[i + offset] ?? ''} />
    ));
  } else if (field.type === 'checkbox' || field.type === 'radio') {
    const chosen = field.type === 'checkbox' ? asList(initial) : [asText(initial) ?? ''];
    control = (field.options ?? []).map((option, i) => (
      <label key={i} className="option">
        <input {...invalid} type={field.type} name={id} value={optionValue(option)} defaultChecked={chosen.includes(optionValue(option))} />
        {` ${optionLabel(option)}`}
      </label>
    ));
  } else if (field.type === 'select') {
    control = (
      <select {...input} {...invalid} id={id} name={id} defaultValue={asText(initial) ?? ''}>
        <option value="">{selectPrompt(field)}</option>
        {(field.options ?? []).map((option, i) => (
          <option key={i} value={optionValue(option)}>
            {optionLabel(option)}
          </option>
        ))}
      </select>
    );
  } else if (field.type === 'likert') {
    const answers = typeof initial === 'object' && initial !== null && !Array.isArray(initial) ? initial : {};
    control = (field.questions ?? []).map((question, q) => (
      <div key={q} className="likert-question" data-question={question}>
        <span className="likert-question-text">{question}</span>
        {LIKERT_ANSWERS.map((answer) => (
          <label key={answer} className="option">
            <input {...invalid} type="radio" name={`${id}-${q}`} value={answer} defaultChecked={answers[question] === answer} />
            {` ${answer}`}
          </label>
        ))}
      </div>
    ));
  } else if (field.type === 'textarea') {
    control = <textarea {...invalid} id={id} name={id} placeholder={field.placeholder} defaultValue={asText(initial) ?? ''} />;
  } else {
    control = (
      <input
        placeholder={field.placeholder}
        {...input}
        {...invalid}
        id={id}
        name={id}
        type={TEXT_TYPES[field.type] ?? 'text'}
        defaultValue={asText(initial) ?? (typeof field.value === 'string' ? field.value : '')}
      />
    );
  }
  return (
    <div {...common}>
      {errorEl}
      {title}
      {description}
      {control}
    </div>
  );
}
