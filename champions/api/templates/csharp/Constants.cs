// The constants of the 2009 API (docs/rules.md section 6.1) and the monument tables, C#
// kit: this half of the partial class Prologin.Api holds them (`Api.SUCCES`).
//
// {{ notice | wrap(86) | join("\n// ") }}
{% set headings = {"error": "Error codes.", "owner": "Ownership.", "kind": "Cell kinds.", "bound": "Bounds, sizes."} %}
namespace Prologin
{
    public partial class Api
    {
{% set ns = namespace(group="") %}
{% for c in api.constants %}
{% if c.group != ns.group %}
        // {{ headings[c.group] }}
{% set ns.group = c.group %}
{% endif %}
        /// {{ c.en }}
        public const int {{ c.name }} = {{ c.value }};
{% endfor %}

        // Monument id -> prestige and range (rule 5).
        static readonly int[] Prestige = { {{ api.monuments.prestige | join(", ") }} };
        static readonly int[] Portee = { {{ api.monuments.portee | join(", ") }} };
    }
}
