# The constants of the 2009 API (docs/rules.md section 6.1), Ruby kit; api.rb requires
# this file (and `require 'constants.rb'` of 2009 finds it).
#
# {{ notice | wrap(86) | join("\n# ") }}
{% set headings = {"error": "Error codes.", "owner": "Ownership.", "kind": "Cell kinds.", "bound": "Bounds, sizes."} %}
{% set ns = namespace(group="") %}
{% for c in api.constants %}
{% if c.group != ns.group %}

# {{ headings[c.group] }}
{% set ns.group = c.group %}
{% endif %}
{{ c.name }} = {{ c.value }} # {{ c.en }}
{% endfor %}

# Monument id -> prestige and range (rule 5), for the kit.
module ProloginKit
  PRESTIGE = [{{ api.monuments.prestige | join(", ") }}].freeze
  PORTEE = [{{ api.monuments.portee | join(", ") }}].freeze
end
