//! The API's constants: error codes, cell kinds, owners and bounds, with their 2009 values
//! (docs/rules.md section 6.1; `referee/tests/rules_doc.rs` checks its tables against this
//! file).
//!
{% for line in notice | wrap(88) %}
//! {{ line }}
{% endfor %}
{% set ns = namespace(group="") %}
{% for c in api.constants %}
{% if c.group != ns.group %}

{% set ns.group = c.group %}
{% endif %}
/// {{ c.en }}
pub const {{ c.name }}: i32 = {{ c.value }};
{% endfor %}

/// Number of turns: 14 full turns and a last Phase I. Not a 2009 constant (Rust only).
pub const LAST_TURN: u8 = 15;
