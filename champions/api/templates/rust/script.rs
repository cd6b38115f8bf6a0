//! The Rust kit's `script` champion: the cross-language script
//! (champions/api/scenario.toml), every answer logged as `script: <call> = <answer>`
//! (champions/api/README.md) with `println!`, which the kit sends to the log.
//!
{% for line in notice | wrap(88) %}
//! {{ line }}
{% endfor %}

use prologin::{Api, Champion, TAILLE_CARTE};

struct Script;

/// Calls `name` with `args` and logs the answer.
fn say(api: &mut dyn Api, name: &str, args: &[i32]) {
    let answer = match (name, args) {
{% for f in api.functions %}
        ("{{ f.name }}", &[{{ f.args | map(attribute="name") | join(", ") }}]) => api.{{ f.name }}({{ f.args | map(attribute="name") | join(", ") }}),
{% endfor %}
        _ => unreachable!("the generator checked every call of the scenario"),
    };
    let mut call = name.to_string();
    for a in args {
        call.push_str(&format!(" {a}"));
    }
    println!("script: {call} = {answer}");
}

/// One digest per cell getter over the whole map: h = (31 h + answer + 100) mod 1000003.
fn scan(api: &mut dyn Api) {
    let mut h = [0i64; 4];
    for y in 0..TAILLE_CARTE {
        for x in 0..TAILLE_CARTE {
            h[0] = (h[0] * 31 + i64::from(api.type_case(x, y)) + 100) % 1000003;
            h[1] = (h[1] * 31 + i64::from(api.valeur_case(x, y)) + 100) % 1000003;
            h[2] = (h[2] * 31 + i64::from(api.appartenance(x, y)) + 100) % 1000003;
            h[3] = (h[3] * 31 + i64::from(api.type_monument(x, y)) + 100) % 1000003;
        }
    }
    println!("script: scan = {} {} {} {}", h[0], h[1], h[2], h[3]);
}

fn start(api: &mut dyn Api, callback: &str) -> i32 {
    let t = api.numero_tour();
    println!("script: {callback} {t}");
    t
}

impl Champion for Script {
{% for cb in api.callbacks %}
    #[allow(unused_variables)]
    fn {{ cb.name }}(&mut self, api: &mut dyn Api) {
        let t = start(api, "{{ cb.name }}");
{% for step in scenario.steps if step.callback == cb.name %}
        if {{ "true" if step.turn == 0 else "t == " ~ step.turn }} {
{% for c in step.calls %}
{% if c.name == "scan" %}
            scan(api);
{% else %}
            say(api, "{{ c.name }}", &[{{ c.args | join(", ") }}]);
{% endif %}
{% endfor %}
        }
{% endfor %}
    }
{% endfor %}
}

fn main() -> std::process::ExitCode {
    prologin::run(&mut Script)
}
