/* prologin_api.c -- the API functions of prologin.h over the C kit's runtime
 * (prologin_kit.c includes this file after its primitives: the cache with `dirty`,
 * `refresh` and `figure`, `send_line`, `read_answer`, `act_answer`, and the board's rules
 * `rule_<function>` of prologin_rules.c).
 *
 * {{ notice | wrap(86) | join("\n * ") }}
 */

static const int PRESTIGE[MAX_MONUMENTS] = { {{- api.monuments.prestige | join(", ") -}} };
static const int PORTEE[MAX_MONUMENTS] = { {{- api.monuments.portee | join(", ") -}} };
{% for f in api.functions %}

int {{ f.name }}({% for a in f.args %}int {{ a.name }}{{ ", " if not loop.last }}{% else %}void{% endfor %}) {
{% if f.check == "coords" %}
  if (!ON_MAP(x, y)) return HORS_TERRAIN;
{% elif f.check == "player" %}
  if (num_joueur < 0 || num_joueur > 2) return JOUEUR_INCORRECT;
{% elif f.check == "monument" %}
  if (num_monument < 0 || num_monument >= MAX_MONUMENTS) return PAS_DE_MONUMENT;
{% endif %}
{% if f.answer == "cell" %}
  if (dirty) refresh();
{% for s in api.etat.strings if s.name == f.cell %}
{% if s.none is defined %}
  if ({{ s.name }}[CELL(x, y)] == '{{ s.none }}') return {{ s.none_answer }};
{% endif %}
  return {{ s.name }}[CELL(x, y)] - {{ s.offset }};
{% endfor %}
{% elif f.answer == "figure" %}
  return figure({{ f.figure }}{{ " + num_joueur" if f.check == "player" }});
{% elif f.answer == "table" %}
  return {{ f.table | upper }}[num_monument];
{% elif f.rule %}
#ifdef PROLOGIN_CHECK_RULES
  {
    /* The local answer first: it may ask `etat`, which must not come between. */
    int local = rule_{{ f.name }}({% for a in f.args %}{{ a.name }}{{ ", " if not loop.last }}{% endfor %});
    char request[80];
    snprintf(request, sizeof request, "{{ f.name }}{% for a in f.args %} %d{% endfor %}"{% for a in f.args %}, {{ a.name }}{% endfor %});
    send_line("%s", request);
    return checked_rule(request, local);
  }
#else
  return rule_{{ f.name }}({% for a in f.args %}{{ a.name }}{{ ", " if not loop.last }}{% endfor %});
#endif
{% else %}
  send_line("{{ f.name }}{% for a in f.args %} %d{% endfor %}"{% for a in f.args %}, {{ a.name }}{% endfor %});
  return {{ "act_answer" if f.answer == "act" else "read_answer" }}("{{ f.name }}");
{% endif %}
}
{% endfor %}
