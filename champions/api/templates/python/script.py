"""The Python kit's `script` champion: the cross-language script
(champions/api/scenario.toml), every answer logged as `script: <call> = <answer>`
(champions/api/README.md) with print(), which the kit sends to the log.

{{ notice | wrap(86) | join("\n") }}
"""

from api import *


def _say(call, answer):
    print("script: %s = %d" % (call, int(answer)))


def _scan():
    """One digest per cell getter over the whole map: h = (31 h + answer + 100) mod 1000003."""
    h = [0, 0, 0, 0]
    for y in range(TAILLE_CARTE):
        for x in range(TAILLE_CARTE):
            h[0] = (h[0] * 31 + type_case(x, y) + 100) % 1000003
            h[1] = (h[1] * 31 + valeur_case(x, y) + 100) % 1000003
            h[2] = (h[2] * 31 + appartenance(x, y) + 100) % 1000003
            h[3] = (h[3] * 31 + type_monument(x, y) + 100) % 1000003
    print("script: scan = %d %d %d %d" % tuple(h))


def _start(callback):
    t = numero_tour()
    print("script: %s %d" % (callback, t))
    return t
{% for cb in api.callbacks %}


def {{ cb.name }}():
    t = _start("{{ cb.name }}")
{% for step in scenario.steps if step.callback == cb.name %}
    if {{ "True" if step.turn == 0 else "t == " ~ step.turn }}:
{% for c in step.calls %}
{% if c.name == "scan" %}
        _scan()
{% else %}
        _say("{{ c.name }}{% for a in c.args %} {{ a }}{% endfor %}", {{ c.name }}({{ c.args | join(", ") }}))
{% endif %}
{% endfor %}
{% endfor %}
{% endfor %}
