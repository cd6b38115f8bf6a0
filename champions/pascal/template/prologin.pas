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

procedure init_game;
begin
end;

procedure jouer;
begin
  if not mon_tour then exit;
end;

procedure enchere;
begin
  if not mon_tour then exit;
end;

procedure placement;
begin
  if not mon_tour then exit;
end;

procedure end_game;
begin
end;

end.
