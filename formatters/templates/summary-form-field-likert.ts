// `summary-form-field` value template for `likert` fields (PLUGINS §4). Private; runs on
// the view {rows: [{question, answer}]} the formatter builds, answers already localized.
export const SUMMARY_FORM_FIELD_LIKERT_TEMPLATE = `
<div style="padding-left:5px;">{.repeated section rows}
  <div><span style="font-weight:bold;">{question}:</span> {answer}</div>{.end}
</div>
`;
