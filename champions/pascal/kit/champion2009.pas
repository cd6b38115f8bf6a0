{ champion2009.pas -- the Pascal kit's main program for a 2009 champion: serves the
  callbacks of a `library champion` (prologin.pas as the 2009 generator gave it, which
  `uses prolo_interface`). pascal.mk turns that library into the unit prologin2009
  (_build/prologin2009.pas, same lines: only its `library` line becomes the unit's
  header, declaring the callbacks it defines); those it does not define are empty. }
program champion;

{$mode objfpc}{$H+}

uses api, prologin2009;

procedure nothing;
begin
end;

procedure call_init_game;
begin
  {$if declared(init_game)} prologin2009.init_game; {$endif}
end;

procedure call_jouer;
begin
  {$if declared(jouer)} prologin2009.jouer; {$endif}
end;

procedure call_enchere;
begin
  {$if declared(enchere)} prologin2009.enchere; {$endif}
end;

procedure call_placement;
begin
  {$if declared(placement)} prologin2009.placement; {$endif}
end;

procedure call_end_game;
begin
  {$if declared(end_game)} prologin2009.end_game; {$endif}
end;

begin
  ExitCode := api.serve(@call_init_game, @call_jouer, @call_enchere, @call_placement,
    @call_end_game);
end.
