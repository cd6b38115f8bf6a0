{ champion.pas -- the Pascal kit's main program: serves the callbacks of the champion's
  unit prologin (prologin.pas), those it does not declare in its interface being empty
  ones. }
program champion;

{$mode objfpc}{$H+}

uses api, prologin;

procedure nothing;
begin
end;

begin
  ExitCode := api.serve(
    {$if declared(init_game)} @prologin.init_game {$else} @nothing {$endif},
    {$if declared(jouer)} @prologin.jouer {$else} @nothing {$endif},
    {$if declared(enchere)} @prologin.enchere {$else} @nothing {$endif},
    {$if declared(placement)} @prologin.placement {$else} @nothing {$endif},
    {$if declared(end_game)} @prologin.end_game {$else} @nothing {$endif});
end.
