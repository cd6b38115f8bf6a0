(* constants.ml -- the API surface of the OCaml kit: the constants of the 2009 API
   (docs/rules.md section 6), in lower case as OCaml values must be (`succes`,
   `hors_terrain`), each also with its 2009 name, `_` and the name in capitals (`_SUCCES`,
   `_HORS_TERRAIN`, as the 2009 generator wrote them), and the monument table; api.ml
   includes this module.
{% for line in notice | wrap(86) %}
   {{ line }}
{% endfor %}
*)
{% set headings = {"error": "Error codes and special answers.", "owner": "Ownership.", "kind": "Cell kinds.", "bound": "Bounds, sizes."} %}
{% set ns = namespace(group="") %}
{% for c in api.constants %}
{% if c.group != ns.group %}

(* {{ headings[c.group] }} *)
{% set ns.group = c.group %}
{% endif %}
let {{ c.name | lower }} = {{ c.value }}
let _{{ c.name }} = {{ c.name | lower }}
{% endfor %}

(* Monuments by id (0..{{ api.monuments.prestige | length - 1 }}): prestige and range (rule 5). *)
let prestige_table = [| {{ api.monuments.prestige | join("; ") }} |]
let portee_table = [| {{ api.monuments.portee | join("; ") }} |]
