-- prologin_table.lua -- the 2009 form of the Lua kit's API: the table `prologin`, whose
-- members are the API's functions (`prologin.type_case(x, y)`), as the 2009 generator
-- registered them. Each is the global function of the same name, except that a result the
-- API types as a boolean is a number, 1 or 0, as in 2009 (`prologin.mon_tour() == 1`;
-- the global `mon_tour()` gives true or false). run.lua loads it beside api.lua.
{% for line in notice | wrap(86) %}
-- {{ line }}
{% endfor %}

prologin = {
{% for f in api.functions %}
{% if f.result == "bool" %}
  {{ f.name }} = (function(f) return function(...) if f(...) then return 1 end return 0 end end)({{ f.name }}),
{% else %}
  {{ f.name }} = {{ f.name }},
{% endif %}
{% endfor %}
}
