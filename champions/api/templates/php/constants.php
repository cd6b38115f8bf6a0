<?php
// The constants of the 2009 API (docs/rules.md section 6.1) and the monument tables, PHP
// kit; api.php includes this file.
//
// {{ notice | wrap(86) | join("\n// ") }}
{% set headings = {"error": "Error codes.", "owner": "Ownership.", "kind": "Cell kinds.", "bound": "Bounds, sizes."} %}
{% set ns = namespace(group="") %}
{% for c in api.constants %}
{% if c.group != ns.group %}

// {{ headings[c.group] }}
{% set ns.group = c.group %}
{% endif %}
define('{{ c.name }}', {{ c.value }}); // {{ c.en }}
{% endfor %}

// Monument id -> prestige and range (rule 5), for the kit.
const PROLOGIN_KIT_PRESTIGE = [{{ api.monuments.prestige | join(", ") }}];
const PROLOGIN_KIT_PORTEE = [{{ api.monuments.portee | join(", ") }}];
