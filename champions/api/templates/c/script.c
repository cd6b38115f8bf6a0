/* The C kit's `script` champion: the cross-language script (champions/api/scenario.toml),
 * every answer logged as `script: <call> = <answer>` (champions/api/README.md).
 *
 * {{ notice | wrap(86) | join("\n * ") }}
 */
#include <stdio.h>

#include "prologin.h"

static void say(const char *call, int answer) { printf("script: %s = %d\n", call, answer); }

/* One digest per cell getter over the whole map: h = (31 h + answer + 100) mod 1000003. */
static void scan(void) {
  long h[4] = {0, 0, 0, 0};
  int x, y;
  for (y = 0; y < TAILLE_CARTE; y++)
    for (x = 0; x < TAILLE_CARTE; x++) {
      h[0] = (h[0] * 31 + type_case(x, y) + 100) % 1000003;
      h[1] = (h[1] * 31 + valeur_case(x, y) + 100) % 1000003;
      h[2] = (h[2] * 31 + appartenance(x, y) + 100) % 1000003;
      h[3] = (h[3] * 31 + type_monument(x, y) + 100) % 1000003;
    }
  printf("script: scan = %ld %ld %ld %ld\n", h[0], h[1], h[2], h[3]);
}

static int start(const char *callback) {
  int t = numero_tour();
  printf("script: %s %d\n", callback, t);
  return t;
}
{% for cb in api.callbacks %}

void {{ cb.name }}(void) {
  int t = start("{{ cb.name }}");
  (void)t;
{% for step in scenario.steps if step.callback == cb.name %}
  if ({{ "1" if step.turn == 0 else "t == " ~ step.turn }}) {
{% for c in step.calls %}
{% if c.name == "scan" %}
    scan();
{% else %}
    say("{{ c.name }}{% for a in c.args %} {{ a }}{% endfor %}", {{ c.name }}({{ c.args | join(", ") }}));
{% endif %}
{% endfor %}
  }
{% endfor %}
}
{% endfor %}
