-- constants.lua -- the API surface of the Lua kit: the constants of the 2009 API
-- (docs/rules.md section 6) and the monument table, as globals.
{% for line in notice | wrap(86) %}
-- {{ line }}
{% endfor %}

{% set headings = {"error": "Error codes and special answers.", "owner": "Ownership.", "kind": "Cell kinds.", "bound": "Bounds, sizes."} %}
{% set ns = namespace(group="") %}
{% for c in api.constants %}
{% if c.group != ns.group %}
-- {{ headings[c.group] }}
{% set ns.group = c.group %}
{% endif %}
{{ c.name }} = {{ c.value }}
{% endfor %}

-- Monuments by id (0..{{ api.monuments.prestige | length - 1 }}): prestige and range (rule 5).
local M = {}
M.PRESTIGE = { {{ api.monuments.prestige | join(", ") }} }
M.PORTEE = { {{ api.monuments.portee | join(", ") }} }
return M
