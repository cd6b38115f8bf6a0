// The constants of the 2009 API (docs/rules.md section 6.1) and the monument tables, Go
// kit.
//
// {{ notice | wrap(86) | join("\n// ") }}

package main
{% set headings = {"error": "Error codes.", "owner": "Ownership.", "kind": "Cell kinds.", "bound": "Bounds, sizes."} %}
{% set ns = namespace(group="") %}
{% for c in api.constants %}
{% if c.group != ns.group %}

// {{ headings[c.group] }}
{% set ns.group = c.group %}
{% endif %}

// {{ c.name }}: {{ c.en }}
const {{ c.name }} = {{ c.value }}
{% endfor %}

// Monument id -> prestige and range (rule 5).
var prestige = [MAX_MONUMENTS]int{ {{- api.monuments.prestige | join(", ") -}} }
var portee = [MAX_MONUMENTS]int{ {{- api.monuments.portee | join(", ") -}} }
