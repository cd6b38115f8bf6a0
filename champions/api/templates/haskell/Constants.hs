-- | Constants.hs -- the API surface of the Haskell kit: the constants of the 2009 API
-- (docs/rules.md section 6), in lower case as Haskell values must be (`succes`,
-- `hors_terrain`), and the monument table; Api.hs re-exports it.
{% for line in notice | wrap(86) %}
-- {{ line }}
{% endfor %}
module Constants where
{% set headings = {"error": "Error codes and special answers.", "owner": "Ownership.", "kind": "Cell kinds.", "bound": "Bounds, sizes."} %}
{% set ns = namespace(group="") %}
{% for c in api.constants %}
{% if c.group != ns.group %}

-- {{ headings[c.group] }}
{% set ns.group = c.group %}
{% endif %}

-- | {{ c.en }}
{{ c.name | lower }} :: Int
{{ c.name | lower }} = {{ c.value }}
{% endfor %}

-- | Monuments by id (0..{{ api.monuments.prestige | length - 1 }}): prestige and range (rule 5).
prestige_table, portee_table :: [Int]
prestige_table = [{{ api.monuments.prestige | join(", ") }}]
portee_table = [{{ api.monuments.portee | join(", ") }}]
