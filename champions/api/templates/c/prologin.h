/* prologin.h -- the API of "{{ api.game.name }}" (Prologin 2009 final), C kit.
 *
 * {{ notice | wrap(86) | join("\n * ") }}
 *
 * Same names, values and signatures as the 2009 API. The rules, and every function with
 * its error codes in the order they are checked: docs/rules.md (rule N, section 6).
 * Write the five callbacks below in your prologin.c; a callback you do not write does
 * nothing. The kit (prologin_kit.c) provides main() and speaks protocol.md with the referee.
 * Your stdout goes to stderr (the log): printf freely.
 */
#ifndef PROLOGIN_H
#define PROLOGIN_H

#ifndef __cplusplus
#include <stdbool.h> /* so that `if (mon_tour() == false)` compiles */
#endif
{% set headings = {"error": "Error codes.", "owner": "Ownership.", "kind": "Cell kinds.", "bound": "Bounds, sizes."} %}
{% set ns = namespace(group="") %}
{% for c in api.constants %}
{% if c.group != ns.group %}

/* {{ headings[c.group] }} */
{% set ns.group = c.group %}
{% endif %}
#define {{ c.name }} {{ c.value }} /* {{ c.en }} */
{% endfor %}

#ifdef __cplusplus
extern "C" {
#endif
{% set ns = namespace(kind="") %}
{% for f in api.functions %}
{% if f.kind != ns.kind %}

/* {{ "Information functions (answered from a cached state where possible)." if f.kind == "info" else "Actions." }} */
{% set ns.kind = f.kind %}
{% endif %}

/* {{ f.en | wrap(86) | join("\n * ") }}
 * 2009: {{ f.fr | wrap(80) | join("\n * ") }} */
int {{ f.name }}({% for a in f.args %}int {{ a.name }}{{ ", " if not loop.last }}{% else %}void{% endfor %});{{ " /* 1 or 0 */" if f.result == "bool" }}
{% endfor %}

/* Callbacks: yours to write. */
{% for c in api.callbacks %}
void {{ c.name }}(void); /* {{ c.en }} */
{% endfor %}

#ifdef __cplusplus
}
#endif

#endif /* PROLOGIN_H */
