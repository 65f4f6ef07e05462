// `summary-form-field` value template for `checkbox` fields (PLUGINS §4): the checked
// values joined by ", " and a newline, else the single `value`. Private.
export const SUMMARY_FORM_FIELD_CHECKBOX_TEMPLATE = `
{.if values}{.repeated section values}{@}{.alternates with}, {.end}
{.or}{.if value}{value}{.end}{.end}
`;
