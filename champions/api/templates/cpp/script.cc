// The C++ kit's `script` champion: the cross-language script (champions/api/scenario.toml),
// every answer logged as `script: <call> = <answer>` (champions/api/README.md) through
// std::cout, which the kit sends to the log.
//
// {{ notice | wrap(86) | join("\n// ") }}
#include <iostream>
#include <string>

#include "prologin.hh"

namespace {

void say(const std::string& call, int answer) {
  std::cout << "script: " << call << " = " << answer << std::endl;
}

// One digest per cell getter over the whole map: h = (31 h + answer + 100) mod 1000003.
void scan() {
  long h[4] = {0, 0, 0, 0};
  for (int y = 0; y < TAILLE_CARTE; y++)
    for (int x = 0; x < TAILLE_CARTE; x++) {
      h[0] = (h[0] * 31 + type_case(x, y) + 100) % 1000003;
      h[1] = (h[1] * 31 + valeur_case(x, y) + 100) % 1000003;
      h[2] = (h[2] * 31 + appartenance(x, y) + 100) % 1000003;
      h[3] = (h[3] * 31 + type_monument(x, y) + 100) % 1000003;
    }
  std::cout << "script: scan = " << h[0] << ' ' << h[1] << ' ' << h[2] << ' ' << h[3]
            << std::endl;
}

int start(const char* callback) {
  int t = numero_tour();
  std::cout << "script: " << callback << ' ' << t << std::endl;
  return t;
}

}  // namespace
{% for cb in api.callbacks %}

void {{ cb.name }}() {
  int t = start("{{ cb.name }}");
  (void)t;
{% for step in scenario.steps if step.callback == cb.name %}
  if ({{ "true" if step.turn == 0 else "t == " ~ step.turn }}) {
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
