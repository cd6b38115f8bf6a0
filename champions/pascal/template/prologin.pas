{ A Pascal champion that does nothing, but validly: copy this folder, fill in the
  callbacks and `make`. The API (construire_route, type_case, mon_tour, ...) and the
  constants (SUCCES, ROUTE, TAILLE_CARTE, ...) come with `uses api;`; writeln goes to
  your log. A callback you leave out of the interface does nothing. }
unit prologin;

{$mode objfpc}{$H+}

interface

uses api;

procedure init_game;
procedure jouer;
procedure enchere;
procedure placement;
procedure end_game;

implementation

{ Once, before turn 1 (10 s of CPU, start-up included): look at the map; actions answer
  ACTION_INTERDITE. }
procedure init_game;
begin
end;

{ Phase I of every turn 1..15 (1 s of CPU, as every later callback): build roads and
  houses when mon_tour. }
procedure jouer;
begin
  if not mon_tour then exit;
end;

{ Phase II of turns 1..14: encherir(montant) for monument_en_cours; sell houses. }
procedure enchere;
begin
  if not mon_tour then exit;
end;

{ Phase III, if you won the auction: construire_monument(x, y). }
procedure placement;
begin
  if not mon_tour then exit;
end;

{ Once, after turn 15: the final board, for your log. }
procedure end_game;
begin
end;

end.
