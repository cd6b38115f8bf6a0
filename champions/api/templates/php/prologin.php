<?php
// The PHP kit's `script` champion: the cross-language script
// (champions/api/scenario.toml), every answer logged as `script: <call> = <answer>`
// (champions/api/README.md) with echo, which the kit sends to the log.
//
// {{ notice | wrap(86) | join("\n// ") }}

function say($call, $answer)
{
    echo "script: $call = ", (int) $answer, "\n";
}

/** One digest per cell getter over the whole map: h = (31 h + answer + 100) mod 1000003. */
function scan()
{
    $h = [0, 0, 0, 0];
    for ($y = 0; $y < TAILLE_CARTE; $y++) {
        for ($x = 0; $x < TAILLE_CARTE; $x++) {
            $h[0] = ($h[0] * 31 + type_case($x, $y) + 100) % 1000003;
            $h[1] = ($h[1] * 31 + valeur_case($x, $y) + 100) % 1000003;
            $h[2] = ($h[2] * 31 + appartenance($x, $y) + 100) % 1000003;
            $h[3] = ($h[3] * 31 + type_monument($x, $y) + 100) % 1000003;
        }
    }
    echo 'script: scan = ', implode(' ', $h), "\n";
}

function start($callback)
{
    $t = numero_tour();
    echo "script: $callback $t\n";
    return $t;
}
{% for cb in api.callbacks %}

function {{ cb.name }}()
{
    $t = start('{{ cb.name }}');
{% for step in scenario.steps if step.callback == cb.name %}
    if ({{ "true" if step.turn == 0 else "$t === " ~ step.turn }}) {
{% for c in step.calls %}
{% if c.name == "scan" %}
        scan();
{% else %}
        say('{{ c.name }}{% for a in c.args %} {{ a }}{% endfor %}', {{ c.name }}({{ c.args | join(", ") }}));
{% endif %}
{% endfor %}
    }
{% endfor %}
}
{% endfor %}
