{ The Pascal kit's `script` champion: the cross-language script
  (champions/api/scenario.toml), every answer logged as `script: <call> = <answer>`
  (champions/api/README.md) with writeln, which the kit sends to the log.
{% for line in notice | wrap(86) %}
  {{ line }}
{% endfor %}
}
unit prologin;

{$mode objfpc}{$H+}

interface

uses api;
{% for cb in api.callbacks %}

procedure {{ cb.name }};
{% endfor %}

implementation

procedure say(const call: string; answer: longint);
begin
  writeln('script: ', call, ' = ', answer);
end;

{ One digest per cell getter over the whole map: h = (31 h + answer + 100) mod 1000003. }
procedure scan;
var
  h: array[0..3] of longint;
  x, y: longint;
begin
  h[0] := 0; h[1] := 0; h[2] := 0; h[3] := 0;
  for y := 0 to TAILLE_CARTE - 1 do
    for x := 0 to TAILLE_CARTE - 1 do
    begin
      h[0] := (h[0] * 31 + type_case(x, y) + 100) mod 1000003;
      h[1] := (h[1] * 31 + valeur_case(x, y) + 100) mod 1000003;
      h[2] := (h[2] * 31 + appartenance(x, y) + 100) mod 1000003;
      h[3] := (h[3] * 31 + type_monument(x, y) + 100) mod 1000003;
    end;
  writeln('script: scan = ', h[0], ' ', h[1], ' ', h[2], ' ', h[3]);
end;

function start(const callback: string): longint;
begin
  start := numero_tour;
  writeln('script: ', callback, ' ', start);
end;
{% for cb in api.callbacks %}

procedure {{ cb.name }};
var
  t: longint;
begin
  t := start('{{ cb.name }}');
{% for step in scenario.steps if step.callback == cb.name %}
  if {{ "true" if step.turn == 0 else "t = " ~ step.turn }} then
  begin
{% for c in step.calls %}
{% if c.name == "scan" %}
    scan;
{% elif c.name == "mon_tour" %}
    say('mon_tour', Ord(mon_tour));
{% else %}
    say('{{ c.name }}{% for a in c.args %} {{ a }}{% endfor %}', {{ c.name }}{% if c.args %}({{ c.args | join(", ") }}){% endif %});
{% endif %}
{% endfor %}
  end;
{% endfor %}
  if t < 0 then say('impossible', t);
end;
{% endfor %}

end.
