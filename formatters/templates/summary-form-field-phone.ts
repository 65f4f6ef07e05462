// `summary-form-field` value template for `phone` fields (PLUGINS §4). Private.
export const SUMMARY_FORM_FIELD_PHONE_TEMPLATE =
  '{.if values.Country}+{values.Country} {.end}{values.Areacode}-{values.Prefix}-{values.Line}';
