% The Prolog kit's `script` champion: the cross-language script
% (champions/api/scenario.toml), every answer logged as `script: <call> = <answer>`
% (champions/api/README.md) with format/2, which the kit sends to the log.
{% for line in notice | wrap(86) %}
% {{ line }}
{% endfor %}

% say(+Call, :Goal): Goal completed with the answer as its last argument.
say(Call, Goal) :-
    call(Goal, Answer),
    format("script: ~w = ~d~n", [Call, Answer]).

% mon_tour succeeds or fails: logged as 1 or 0.
say_bool(Call, Goal) :-
    ( call(Goal) -> Answer = 1 ; Answer = 0 ),
    format("script: ~w = ~d~n", [Call, Answer]).

% One digest per cell getter over the whole map: h = (31 h + answer + 100) mod 1000003.
scan :-
    numlist(0, 99, Xs),
    foldl(scan_row(Xs), Xs, h(0, 0, 0, 0), h(H1, H2, H3, H4)),
    format("script: scan = ~d ~d ~d ~d~n", [H1, H2, H3, H4]).

scan_row(Xs, Y, H0, H) :-
    foldl(scan_cell(Y), Xs, H0, H).

scan_cell(Y, X, h(A0, B0, C0, D0), h(A, B, C, D)) :-
    type_case(X, Y, T), valeur_case(X, Y, V), appartenance(X, Y, O), type_monument(X, Y, M),
    A is (A0 * 31 + T + 100) mod 1000003,
    B is (B0 * 31 + V + 100) mod 1000003,
    C is (C0 * 31 + O + 100) mod 1000003,
    D is (D0 * 31 + M + 100) mod 1000003.

start(Callback, T) :-
    numero_tour(T),
    format("script: ~w ~d~n", [Callback, T]).
{% for cb in api.callbacks %}

{{ cb.name }} :-
    start({{ cb.name }}, T),
{% for step in scenario.steps if step.callback == cb.name %}
    (   {{ "true" if step.turn == 0 else "T =:= " ~ step.turn }}
    ->  true
{% for c in step.calls %}
{% if c.name == "scan" %}
        , scan
{% elif c.name == "mon_tour" %}
        , say_bool('mon_tour', mon_tour)
{% elif c.args | length == 0 %}
        , say('{{ c.name }}', {{ c.name }})
{% else %}
        , say('{{ c.name }}{% for a in c.args %} {{ a }}{% endfor %}', {{ c.name }}({{ c.args | join(", ") }}))
{% endif %}
{% endfor %}
    ;   true
    ),
{% endfor %}
    true.
{% endfor %}
