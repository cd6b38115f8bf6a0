// The constants of the 2009 API (docs/rules.md section 6.1) and the monument tables,
// JavaScript kit. api.js exports the constants with the functions.
//
// {{ notice | wrap(86) | join("\n// ") }}
"use strict";
{% set headings = {"error": "Error codes.", "owner": "Ownership.", "kind": "Cell kinds.", "bound": "Bounds, sizes."} %}

exports.constants = {
{% set ns = namespace(group="") %}
{% for c in api.constants %}
{% if c.group != ns.group %}
  // {{ headings[c.group] }}
{% set ns.group = c.group %}
{% endif %}
  {{ c.name }}: {{ c.value }}, // {{ c.en }}
{% endfor %}
};

// Monument id -> prestige and range (rule 5).
exports.prestige = [{{ api.monuments.prestige | join(", ") }}];
exports.portee = [{{ api.monuments.portee | join(", ") }}];
