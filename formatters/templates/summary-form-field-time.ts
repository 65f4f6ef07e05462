// `summary-form-field` value template for `time` fields (PLUGINS §4): each part printed
// as given, `00` when falsy, then the AM/PM text after a space. Private.
export const SUMMARY_FORM_FIELD_TIME_TEMPLATE =
  '{.if values.Hour}{values.Hour}{.or}00{.end}:{.if values.Minute}{values.Minute}{.or}00{.end}:{.if values.Second}{values.Second}{.or}00{.end} {values.Ampm}';
