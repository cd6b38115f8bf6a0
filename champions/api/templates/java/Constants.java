// The constants of the 2009 API (docs/rules.md section 6.1) and the monument tables, Java
// kit. Class Interface implements this interface, so `Interface.SUCCES` works, and
// `SUCCES` alone in a champion that `extends Interface`.
//
// {{ notice | wrap(86) | join("\n// ") }}
{% set headings = {"error": "Error codes.", "owner": "Ownership.", "kind": "Cell kinds.", "bound": "Bounds, sizes."} %}
public interface Constants {
{% set ns = namespace(group="") %}
{% for c in api.constants %}
{% if c.group != ns.group %}
  // {{ headings[c.group] }}
{% set ns.group = c.group %}
{% endif %}
  /** {{ c.en }} */
  int {{ c.name }} = {{ c.value }};
{% endfor %}
}

/** Monument id -> prestige and range (rule 5), for the kit. */
final class MonumentTables {
  static final int[] PRESTIGE = { {{- api.monuments.prestige | join(", ") -}} };
  static final int[] PORTEE = { {{- api.monuments.portee | join(", ") -}} };

  private MonumentTables() {}
}
