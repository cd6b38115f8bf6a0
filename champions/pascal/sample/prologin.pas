{ sample: a Pascal champion that plays sensibly near the town hall (50, 50): a free
  road, houses on the best cells next to the roads, a bid worth the monument's prestige,
  and the monument placed where it helps its own houses most (or hurts the others' most).
  Deterministic: it needs no random numbers. }
unit prologin;

{$mode objfpc}{$H+}
{$modeswitch nestedprocvars}

interface

uses api;

procedure init_game;
procedure jouer;
procedure enchere;
procedure placement;
procedure end_game;

implementation

const
  HALL = 50;
  REACH = 15; { only the cells within 15 of the town hall are considered }

type
  TBuild = function(x, y: longint): longint;
  TWorth = function(x, y: longint): longint is nested;
  TCell = record w, d, y, x: longint; end;

function near_road(x, y: longint; diagonals: boolean): boolean;
var
  dx, dy: longint;
begin
  for dy := -1 to 1 do
    for dx := -1 to 1 do
      if ((dx <> 0) or (dy <> 0)) and (diagonals or (dx = 0) or (dy = 0))
        and (type_case(x + dx, y + dy) = ROUTE) then
        exit(true);
  near_road := false;
end;

{ Better: more worth, then nearer the hall, then lower y, then lower x. }
function better(const a, b: TCell): boolean;
begin
  if a.w <> b.w then exit(a.w > b.w);
  if a.d <> b.d then exit(a.d < b.d);
  if a.y <> b.y then exit(a.y < b.y);
  better := a.x < b.x;
end;

{ Builds on the first of the 5 best empty cells next to a road near the hall that
  accepts it. }
function build_best(build: TBuild; diagonals: boolean; worth: TWorth): boolean;
var
  cells: array of TCell;
  n, x, y, i, j, tries: longint;
  c: TCell;
begin
  n := 0;
  SetLength(cells, (2 * REACH + 1) * (2 * REACH + 1));
  for y := HALL - REACH to HALL + REACH do
    for x := HALL - REACH to HALL + REACH do
      if (type_case(x, y) = VIDE) and near_road(x, y, diagonals) then
      begin
        c.w := worth(x, y);
        c.d := abs(x - HALL) + abs(y - HALL);
        c.y := y;
        c.x := x;
        cells[n] := c;
        Inc(n);
      end;
  { Selection of the 5 best, in order. }
  tries := 5;
  if n < tries then tries := n;
  for i := 0 to tries - 1 do
  begin
    for j := i + 1 to n - 1 do
      if better(cells[j], cells[i]) then
      begin
        c := cells[i];
        cells[i] := cells[j];
        cells[j] := c;
      end;
    if build(cells[i].x, cells[i].y) = SUCCES then exit(true);
  end;
  build_best := false;
end;

procedure init_game;
begin
  writeln('sample (Pascal): first player is ', commence);
end;

procedure jouer;
  function nowhere(x, y: longint): longint;
  begin
    nowhere := 0;
  end;
  function value(x, y: longint): longint;
  begin
    value := valeur_case(x, y);
  end;
var
  i: longint;
begin
  if not mon_tour then exit;
  if cout_achat_route <= finances(0) then
    build_best(@construire_route, false, @nowhere);
  for i := 1 to 2 do
  begin
    if cout_achat_maison > finances(0) then break;
    if not build_best(@construire_maison, true, @value) then break;
  end;
  { The second house brings a free road: take it. }
  if cout_achat_route = 0 then build_best(@construire_route, false, @nowhere);
end;

procedure enchere;
var
  prestige, bid: longint;
begin
  if not mon_tour then exit;
  prestige := prestige_monument(monument_en_cours);
  bid := finances(0) div 3;
  if prestige < bid then bid := prestige;
  if prestige > 0 then encherir(bid);
end;

procedure placement;
var
  id, prestige, range: longint;

  { Its own houses in range count for it, the others' against (the other way round for
    a monument of negative prestige). }
  function worth(x, y: longint): longint;
  var
    dx, dy, w: longint;
  begin
    w := 0;
    for dy := -range to range do
      for dx := -range to range do
        if type_case(x + dx, y + dy) = MAISON then
          if appartenance(x + dx, y + dy) = 0 then Inc(w) else Dec(w);
    if prestige >= 0 then worth := w else worth := -w;
  end;

begin
  if not mon_tour then exit;
  id := monument_en_cours;
  prestige := prestige_monument(id);
  range := portee_monument(id);
  build_best(@construire_monument, true, @worth);
end;

procedure end_game;
begin
  writeln('sample (Pascal) end: money ', finances(0), ' worth ', score(0));
end;

end.
