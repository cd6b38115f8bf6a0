% constants.pl -- the API surface of the Prolog kit: the constants of the 2009 API
% (docs/rules.md section 6), each a fact named after it in lower case (`succes(0)`,
% `hors_terrain(-12)`: a name in capitals would be a variable in Prolog), and the
% monument table.
{% for line in notice | wrap(86) %}
% {{ line }}
{% endfor %}
:- module(prologin_constants,
          [
{% for c in api.constants %}
            {{ c.name | lower }}/1,
{% endfor %}
            monument_table/3
          ]).
{% set headings = {"error": "Error codes and special answers.", "owner": "Ownership.", "kind": "Cell kinds.", "bound": "Bounds, sizes."} %}
{% set ns = namespace(group="") %}
{% for c in api.constants %}
{% if c.group != ns.group %}

% {{ headings[c.group] }}
{% set ns.group = c.group %}
{% endif %}
{{ c.name | lower }}({{ c.value }}).
{% endfor %}

%!  monument_table(?Id, ?Prestige, ?Portee)
%   The {{ api.monuments.prestige | length }} monuments (rule 5).
{% for p in api.monuments.prestige %}
monument_table({{ loop.index0 }}, {{ p }}, {{ api.monuments.portee[loop.index0] }}).
{% endfor %}
