// `summary-form-field` value template for `date` fields (PLUGINS §4). Private.
export const SUMMARY_FORM_FIELD_DATE_TEMPLATE = '{values.Month}/{values.Day}/{values.Year}';
