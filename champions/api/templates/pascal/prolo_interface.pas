{ prolo_interface.pas -- the 2009 form of the Pascal kit's API: the unit the 2009
  generator gave (`uses prolo_interface;` in a `library champion`), with the constants
  (SUCCES, ROUTE, ...) and each function of the kit's unit api under the same name,
  `mon_tour` a boolean. pascal.mk builds such a champion with champion2009.pas.
{% for line in notice | wrap(86) %}
  {{ line }}
{% endfor %}
}
unit prolo_interface;

interface

{$i constants.inc}

{% for f in api.functions %}
function {{ f.name }}{% if f.args %}({% for a in f.args %}{{ a.name }}{{ ', ' if not loop.last }}{% endfor %}: longint){% endif %}: {{ 'boolean' if f.result == 'bool' else 'longint' }};
{% endfor %}

implementation

uses api;

{% for f in api.functions %}
function {{ f.name }}{% if f.args %}({% for a in f.args %}{{ a.name }}{{ ', ' if not loop.last }}{% endfor %}: longint){% endif %}: {{ 'boolean' if f.result == 'bool' else 'longint' }};
begin
  {{ f.name }} := api.{{ f.name }}{% if f.args %}({{ f.args | map(attribute='name') | join(', ') }}){% endif %};
end;

{% endfor %}
end.
