// The Go kit's `script` champion: the cross-language script
// (champions/api/scenario.toml), every answer logged as `script: <call> = <answer>`
// (champions/api/README.md) with fmt.Println, which the kit sends to the log.
//
// {{ notice | wrap(86) | join("\n// ") }}

package main

import "fmt"

func say(call string, answer int) {
	fmt.Printf("script: %s = %d\n", call, answer)
}

// scan keeps one digest per cell getter over the whole map: h = (31 h + answer + 100) mod 1000003.
func scan() {
	var h [4]int
	for y := 0; y < TAILLE_CARTE; y++ {
		for x := 0; x < TAILLE_CARTE; x++ {
			h[0] = (h[0]*31 + TypeCase(x, y) + 100) % 1000003
			h[1] = (h[1]*31 + ValeurCase(x, y) + 100) % 1000003
			h[2] = (h[2]*31 + Appartenance(x, y) + 100) % 1000003
			h[3] = (h[3]*31 + TypeMonument(x, y) + 100) % 1000003
		}
	}
	fmt.Printf("script: scan = %d %d %d %d\n", h[0], h[1], h[2], h[3])
}

func start(callback string) int {
	t := NumeroTour()
	fmt.Printf("script: %s %d\n", callback, t)
	return t
}
{% for cb in api.callbacks %}

func {{ cb.name | upper_camel }}() {
	t := start("{{ cb.name }}")
	_ = t
{% for step in scenario.steps if step.callback == cb.name %}
	if {{ "true" if step.turn == 0 else "t == " ~ step.turn }} {
{% for c in step.calls %}
{% if c.name == "scan" %}
		scan()
{% else %}
		say("{{ c.name }}{% for a in c.args %} {{ a }}{% endfor %}", {{ c.name | upper_camel }}({{ c.args | join(", ") }}))
{% endif %}
{% endfor %}
	}
{% endfor %}
}
{% endfor %}
