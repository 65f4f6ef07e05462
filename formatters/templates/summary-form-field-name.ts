// `summary-form-field` value template for `name` fields (PLUGINS §4). Private.
export const SUMMARY_FORM_FIELD_NAME_TEMPLATE = '{values.First} {values.Last}';
