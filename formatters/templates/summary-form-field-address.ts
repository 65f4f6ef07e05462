// `summary-form-field` value template for `address` fields (PLUGINS §4); private, runs on
// the field node, inserts values unescaped.
export const SUMMARY_FORM_FIELD_ADDRESS_TEMPLATE = `
<div style="padding-left:5px;">
  <div>{values.Line1}</div>{.if values.Line2}
  <div>{values.Line2}</div>{.end}
  <div>{values.City}, {values.State} {values.Zip} {values.Country}</div>
</div>
`;
