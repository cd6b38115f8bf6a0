{ api.pas -- the Pascal kit: the 26 functions of the 2009 API (`uses api;` in
  prologin.pas), the protocol of protocol.md and the cached `etat` behind them.

  Owns: the protocol descriptors (taken when this unit is initialised, before the
  champion's unit: the real stdin and stdout are duplicated for the protocol, fd 0 then
  reads /dev/null and fd 1 writes to stderr, so writeln goes to the log), the state
  cache (one `etat` per callback and after each successful action; a cell read is one
  string index), the local argument checks (HORS_TERRAIN, JOUEUR_INCORRECT,
  PAS_DE_MONUMENT) and the callback loop (serve, called by the kit's champion.pas).
  `distance`, `route_possible` and `construction_possible` are the C kit's rules
  (prologin_rules_lib.c, linked in by pascal.mk), answered from the cached board without
  a round trip. }
unit api;

{$mode objfpc}{$H+}

interface

{$i constants.inc}

function type_case(x, y: longint): longint;
function valeur_case(x, y: longint): longint;
function appartenance(x, y: longint): longint;
function type_monument(x, y: longint): longint;
function portee_monument(num_monument: longint): longint;
function prestige_monument(num_monument: longint): longint;
function numero_tour: longint;
function commence: longint;
function montant_encheres(num_joueur: longint): longint;
function vainqueur_encheres: longint;
{ The player's houses' worth, money excluded: not the final score (rule 9). }
function score(num_joueur: longint): longint;
function finances(num_joueur: longint): longint;
function monument_en_cours: longint;
function distance(x1, y1, x2, y2: longint): longint;
function route_possible(x, y: longint): longint;
function construction_possible(x, y: longint): longint;
function cout_achat_maison: longint;
function cout_achat_route: longint;
{ True in your own turn (the API's bool; rule 16). }
function mon_tour: boolean;

function construire_route(x, y: longint): longint;
function construire_maison(x, y: longint): longint;
function reserver_case(x, y: longint): longint;
function detruire_maison(x, y: longint): longint;
function vendre_maison(x, y: longint): longint;
function encherir(montant: longint): longint;
function construire_monument(x, y: longint): longint;

type
  TCallback = procedure;

{ Runs the protocol loop with the callbacks init_game, jouer, enchere, placement and
  end_game. Returns the exit status. }
function serve(init_game, jouer, enchere, placement, end_game: TCallback): longint;

implementation

uses BaseUnix, SysUtils;

{ The board's rules (rules 19 to 21), the C kit's prologin_rules_lib.c, compiled by
  pascal.mk into _build and linked in: the board is given to them at each fill of the
  cache; a call costs a C call. }
{$L prologin_rules_lib.o}
procedure rules_board(kind_chars, owner_chars: PChar); cdecl;
  external name 'prologin_rules_board';
function rules_route_possible(x, y: cint): cint; cdecl;
  external name 'prologin_rules_route_possible';
function rules_construction_possible(x, y: cint): cint; cdecl;
  external name 'prologin_rules_construction_possible';
function rules_distance(x1, y1, x2, y2: cint): cint; cdecl;
  external name 'prologin_rules_distance';

{ The two functions of the C library the rules use: the champion is linked statically,
  without it. }
function c_memset(p: pointer; c: cint; n: SizeUInt): pointer; cdecl; public name 'memset';
begin
  FillChar(p^, n, byte(c));
  c_memset := p;
end;

function c_memcpy(dest, src: pointer; n: SizeUInt): pointer; cdecl; public name 'memcpy';
begin
  Move(src^, dest^, n);
  c_memcpy := dest;
end;

const
  CELLS = TAILLE_CARTE * TAILLE_CARTE;

var
  proto_in, proto_out: cint;
  buf: array[0..65535] of char;
  buf_pos, buf_len: longint;
  current: string = '(none)';
  dirty: boolean = true;
  figures: array[0..15] of longint;
  kinds, owners, monuments, values: string;

{ The conversation with the referee broke down: report it and exit at once. }
procedure fail(const message: string);
begin
  Flush(Output);
  writeln(StdErr, 'prologin kit (Pascal): error in ', current, ': ', message);
  Flush(StdErr);
  Halt(2);
end;

procedure send(const line: string);
var
  data: string;
  done, n: longint;
begin
  data := line + #10;
  done := 0;
  while done < Length(data) do
  begin
    n := fpWrite(proto_out, data[done + 1], Length(data) - done);
    if n <= 0 then
    begin
      if (n < 0) and (fpgeterrno = ESysEINTR) then continue;
      fail('writing to the referee: error ' + IntToStr(fpgeterrno));
    end;
    done := done + n;
  end;
end;

{ Reads one line without its end; false at end of file. }
function read_line(out line: string): boolean;
var
  start, n: longint;
begin
  line := '';
  repeat
    if buf_pos >= buf_len then
    begin
      repeat
        n := fpRead(proto_in, buf, SizeOf(buf));
      until (n >= 0) or (fpgeterrno <> ESysEINTR);
      if n < 0 then fail('reading from the referee: error ' + IntToStr(fpgeterrno));
      if n = 0 then
      begin
        read_line := line <> '';
        exit;
      end;
      buf_pos := 0;
      buf_len := n;
    end;
    start := buf_pos;
    while (buf_pos < buf_len) and (buf[buf_pos] <> #10) do Inc(buf_pos);
    if buf_pos > start then
    begin
      n := Length(line);
      SetLength(line, n + buf_pos - start);
      Move(buf[start], line[n + 1], buf_pos - start);
    end;
  until buf_pos < buf_len;
  Inc(buf_pos); { the newline }
  if (Length(line) > 0) and (line[Length(line)] = #13) then SetLength(line, Length(line) - 1);
  read_line := true;
end;

function parse_int(const s, what: string): longint;
var
  v: int64;
begin
  if (Length(s) = 0) or (Length(s) > 12) or not TryStrToInt64(s, v)
    or (v < -2147483648) or (v > 2147483647) or (Pos(' ', s) > 0) or (s[1] = '$') then
    fail('unparsable answer `' + Copy(s, 1, 60) + '` to `' + what + '`: expected an integer');
  parse_int := v;
end;

function ask(const name: string; const args: array of longint): longint;
var
  line: string;
  i: longint;
begin
  line := name;
  for i := 0 to High(args) do line := line + ' ' + IntToStr(args[i]);
  send(line);
  if not read_line(line) then
    fail('the referee closed the connection while we waited for `' + name + '`');
  ask := parse_int(line, name);
end;

function act(const name: string; const args: array of longint): longint;
begin
  act := ask(name, args);
  if act = SUCCES then dirty := true;
end;

procedure refresh;
var
  line, field: string;
  p, q, n: longint;
begin
  send('etat');
  if not read_line(line) then
    fail('the referee closed the connection while we waited for `etat`');
  n := 0;
  p := 1;
  while p <= Length(line) do
  begin
    while (p <= Length(line)) and (line[p] = ' ') do Inc(p);
    if p > Length(line) then break;
    q := p;
    while (q <= Length(line)) and (line[q] <> ' ') do Inc(q);
    field := Copy(line, p, q - p);
    if n < 16 then figures[n] := parse_int(field, 'etat')
    else if (n < 20) and (Length(field) = CELLS) then
      case n of
        16: kinds := field;
        17: owners := field;
        18: monuments := field;
        19: values := field;
      end
    else
      n := 99;
    Inc(n);
    p := q;
  end;
  if n <> 20 then
    fail('unparsable answer to `etat`: expected 16 integers and 4 strings of 10000 characters');
  rules_board(PChar(kinds), PChar(owners));
  dirty := false;
end;

function figure(i: longint): longint; inline;
begin
  if dirty then refresh;
  figure := figures[i];
end;

function on_map(x, y: longint): boolean; inline;
begin
  on_map := (x >= 0) and (x < TAILLE_CARTE) and (y >= 0) and (y < TAILLE_CARTE);
end;

function type_case(x, y: longint): longint;
begin
  if not on_map(x, y) then exit(HORS_TERRAIN);
  if dirty then refresh;
  type_case := Ord(kinds[y * TAILLE_CARTE + x + 1]) - Ord('0');
end;

function valeur_case(x, y: longint): longint;
begin
  if not on_map(x, y) then exit(HORS_TERRAIN);
  if dirty then refresh;
  valeur_case := Ord(values[y * TAILLE_CARTE + x + 1]) - Ord('@');
end;

function appartenance(x, y: longint): longint;
begin
  if not on_map(x, y) then exit(HORS_TERRAIN);
  if dirty then refresh;
  appartenance := Ord(owners[y * TAILLE_CARTE + x + 1]) - Ord('0');
end;

function type_monument(x, y: longint): longint;
var
  c: char;
begin
  if not on_map(x, y) then exit(HORS_TERRAIN);
  if dirty then refresh;
  c := monuments[y * TAILLE_CARTE + x + 1];
  if c = '.' then type_monument := PAS_DE_MONUMENT
  else type_monument := Ord(c) - Ord('a');
end;

function portee_monument(num_monument: longint): longint;
begin
  if (num_monument < 0) or (num_monument >= MAX_MONUMENTS) then exit(PAS_DE_MONUMENT);
  portee_monument := PORTEE_TABLE[num_monument];
end;

function prestige_monument(num_monument: longint): longint;
begin
  if (num_monument < 0) or (num_monument >= MAX_MONUMENTS) then exit(PAS_DE_MONUMENT);
  prestige_monument := PRESTIGE_TABLE[num_monument];
end;

function numero_tour: longint; begin numero_tour := figure(0); end;
function mon_tour: boolean; begin mon_tour := figure(1) <> 0; end;
function commence: longint; begin commence := figure(2); end;
function monument_en_cours: longint; begin monument_en_cours := figure(3); end;
function vainqueur_encheres: longint; begin vainqueur_encheres := figure(4); end;
function cout_achat_maison: longint; begin cout_achat_maison := figure(5); end;
function cout_achat_route: longint; begin cout_achat_route := figure(6); end;

function of_player(base, n: longint): longint;
begin
  if (n < 0) or (n > 2) then exit(JOUEUR_INCORRECT);
  of_player := figure(base + n);
end;

function finances(num_joueur: longint): longint; begin finances := of_player(7, num_joueur); end;
function score(num_joueur: longint): longint; begin score := of_player(10, num_joueur); end;
function montant_encheres(num_joueur: longint): longint;
begin
  montant_encheres := of_player(13, num_joueur);
end;

function distance(x1, y1, x2, y2: longint): longint;
begin
  if dirty then refresh;
  distance := rules_distance(x1, y1, x2, y2);
end;

function route_possible(x, y: longint): longint;
begin
  if dirty then refresh;
  route_possible := rules_route_possible(x, y);
end;

function construction_possible(x, y: longint): longint;
begin
  if dirty then refresh;
  construction_possible := rules_construction_possible(x, y);
end;

function construire_route(x, y: longint): longint;
begin
  construire_route := act('construire_route', [x, y]);
end;

function construire_maison(x, y: longint): longint;
begin
  construire_maison := act('construire_maison', [x, y]);
end;

function reserver_case(x, y: longint): longint;
begin
  reserver_case := act('reserver_case', [x, y]);
end;

function detruire_maison(x, y: longint): longint;
begin
  detruire_maison := act('detruire_maison', [x, y]);
end;

function vendre_maison(x, y: longint): longint;
begin
  vendre_maison := act('vendre_maison', [x, y]);
end;

function encherir(montant: longint): longint;
begin
  encherir := act('encherir', [montant]);
end;

function construire_monument(x, y: longint): longint;
begin
  construire_monument := act('construire_monument', [x, y]);
end;

function serve(init_game, jouer, enchere, placement, end_game: TCallback): longint;
var
  line: string;
  ended: boolean;
  callback: TCallback;
begin
  ended := false;
  while read_line(line) do
  begin
    case line of
      'init_game': callback := init_game;
      'jouer': callback := jouer;
      'enchere': callback := enchere;
      'placement': callback := placement;
      'end_game': callback := end_game;
    else
      fail('unknown callback `' + Copy(line, 1, 60) + '` from the referee');
    end;
    current := line;
    dirty := true;
    callback();
    Flush(Output);
    send('fin');
    ended := line = 'end_game';
  end;
  if not ended then
  begin
    writeln(StdErr, 'prologin kit (Pascal): the referee closed the connection before end_game');
    exit(1);
  end;
  serve := 0;
end;

var
  null: cint;

initialization
  proto_in := fpDup(0);
  proto_out := fpDup(1);
  null := fpOpen('/dev/null', O_RDONLY);
  fpDup2(null, 0);
  fpClose(null);
  fpDup2(2, 1);
  fpFcntl(proto_in, F_SETFD, 1) { FD_CLOEXEC };
  fpFcntl(proto_out, F_SETFD, 1) { FD_CLOEXEC };
  buf_pos := 0;
  buf_len := 0;
end.
