% api.pl -- the runtime of the Prolog kit: the 26 functions of the 2009 API as
% predicates whose last argument is the result (`type_case(X, Y, Kind)`; `mon_tour`
% succeeds in your turn and fails otherwise), the protocol of protocol.md and the cached
% `etat` behind them.
%
% Owns: the protocol streams (given by run.pl), the state cache (one `etat` per callback
% and after each successful action; a cell read is one string_code/3), the local argument
% checks (HORS_TERRAIN, JOUEUR_INCORRECT, PAS_DE_MONUMENT) and the callback loop.
% Arguments are evaluated (`construire_route(X + 1, Y, R)` works) and truncated to
% integers, as C would convert them, in every function.
:- module(api,
          [ type_case/3, valeur_case/3, appartenance/3, type_monument/3,
            portee_monument/2, prestige_monument/2, numero_tour/1, commence/1,
            montant_encheres/2, vainqueur_encheres/1, score/2, finances/2,
            monument_en_cours/1, distance/5, route_possible/3,
            construction_possible/3, cout_achat_maison/1, cout_achat_route/1,
            mon_tour/0,
            construire_route/3, construire_maison/3, reserver_case/3,
            detruire_maison/3, vendre_maison/3, encherir/2, construire_monument/3,
            serve/3
          ]).
:- reexport(constants).

:- use_module(library(readutil)).

% The conversation with the referee broke down: report it and exit at once.
fail_kit(Format, Args) :-
    catch(flush_output(user_output), _, true),
    nb_getval(prologin_callback, Callback),
    format(atom(Message), Format, Args),
    format(user_error, "prologin kit (Prolog): error in ~w: ~w~n", [Callback, Message]),
    flush_output(user_error),
    halt(2).

send(Line) :-
    nb_getval(prologin_out, Out),
    catch(( write(Out, Line), nl(Out), flush_output(Out) ), E,
          ( message_to_codes(E, Text), fail_kit("writing to the referee: ~s", [Text]) )).

message_to_codes(E, Text) :- format(codes(Text), "~q", [E]).

read_answer_line(What, Line) :-
    nb_getval(prologin_in, In),
    read_line_to_string(In, Line0),
    (   Line0 == end_of_file
    ->  fail_kit("the referee closed the connection while we waited for `~w`", [What])
    ;   string_concat(Line1, "\r", Line0) -> Line = Line1
    ;   Line = Line0
    ).

% An argument as the wire's signed 32-bit integer: evaluated, truncated toward zero,
% clamped (a clamped value answers the same: off the map, unaffordable).
wire_arg(Expr, V) :-
    V0 is truncate(Expr),
    V is max(-2147483648, min(2147483647, V0)).

parse_int(Text, What, V) :-
    (   catch(number_string(V0, Text), _, fail), integer(V0)
    ->  V = V0
    ;   sub_string(Text, 0, _, _, Short0),
        (string_length(Text, L), L > 60 -> sub_string(Text, 0, 60, _, Short) ; Short = Short0),
        fail_kit("unparsable answer `~w` to `~w`: expected an integer", [Short, What])
    ).

ask(Name, Args, R) :-
    maplist(wire_arg, Args, Ints),
    atomic_list_concat([Name|Ints], ' ', Line),
    send(Line),
    read_answer_line(Name, Answer),
    parse_int(Answer, Name, R).

act(Name, Args, R) :-
    ask(Name, Args, R),
    (   R =:= 0 -> nb_setval(prologin_dirty, true) ; true ).

refresh :-
    send(etat),
    read_answer_line(etat, Line),
    split_string(Line, " ", " ", Fields0),
    exclude(==(""), Fields0, Fields),
    (   length(Fields, 20),
        length(Figures, 16),
        append(Figures, Strings, Fields),
        maplist([S]>>string_length(S, 10000), Strings),
        maplist([T, N]>>(catch(number_string(N, T), _, fail), integer(N)), Figures, Ints)
    ->  Term =.. [f|Ints],
        nb_setval(prologin_figures, Term),
        Strings = [Kinds, Owners, Monuments, Values],
        nb_setval(prologin_kinds, Kinds),
        nb_setval(prologin_owners, Owners),
        nb_setval(prologin_monuments, Monuments),
        nb_setval(prologin_values, Values),
        nb_setval(prologin_dirty, false),
        (   nb_getval(prologin_rules, true)
        ->  prologin_rules_board(Kinds, Owners)
        ;   true
        )
    ;   fail_kit("unparsable answer to `etat`: expected 16 integers and 4 strings of 10000 characters", [])
    ).

fresh :-
    (   nb_getval(prologin_dirty, true) -> refresh ; true ).

figure(I, V) :-
    fresh,
    nb_getval(prologin_figures, F),
    I1 is I + 1,
    arg(I1, F, V).

% The character code of cell (X, Y) in cached string `Key`; fails off the map.
cell(Key, X0, Y0, Code) :-
    wire_arg(X0, X), wire_arg(Y0, Y),
    X >= 0, X < 100, Y >= 0, Y < 100,
    fresh,
    nb_getval(Key, String),
    I is Y * 100 + X + 1,
    string_code(I, String, Code).

% Information functions.

type_case(X, Y, R) :-
    (   cell(prologin_kinds, X, Y, C) -> R is C - 0'0 ; hors_terrain(R) ).

valeur_case(X, Y, R) :-
    (   cell(prologin_values, X, Y, C) -> R is C - 0'@ ; hors_terrain(R) ).

appartenance(X, Y, R) :-
    (   cell(prologin_owners, X, Y, C) -> R is C - 0'0 ; hors_terrain(R) ).

type_monument(X, Y, R) :-
    (   cell(prologin_monuments, X, Y, C)
    ->  ( C =:= 0'. -> pas_de_monument(R) ; R is C - 0'a )
    ;   hors_terrain(R)
    ).

monument_id(N0, N) :-
    wire_arg(N0, N), N >= 0, N < 14.

portee_monument(N0, R) :-
    (   monument_id(N0, N) -> monument_table(N, _, R) ; pas_de_monument(R) ).

prestige_monument(N0, R) :-
    (   monument_id(N0, N) -> monument_table(N, R, _) ; pas_de_monument(R) ).

numero_tour(R) :- figure(0, R).

%!  mon_tour is semidet.
%   True in your own turn (the API's bool; rule 16).
mon_tour :- figure(1, R), R =\= 0.

commence(R) :- figure(2, R).
monument_en_cours(R) :- figure(3, R).
vainqueur_encheres(R) :- figure(4, R).
cout_achat_maison(R) :- figure(5, R).
cout_achat_route(R) :- figure(6, R).

player_figure(Base, N0, R) :-
    wire_arg(N0, N),
    (   N >= 0, N =< 2
    ->  I is Base + N, figure(I, R)
    ;   joueur_incorrect(R)
    ).

finances(N, R) :- player_figure(7, N, R).
% The player's houses' worth, money excluded: not the final score (rule 9).
score(N, R) :- player_figure(10, N, R).
montant_encheres(N, R) :- player_figure(13, N, R).

distance(X1, Y1, X2, Y2, R) :-
    (   nb_getval(prologin_rules, true)
    ->  maplist(wire_arg, [X1, Y1, X2, Y2], [A, B, C, D]),
        fresh,
        prologin_rules_distance(A, B, C, D, R)
    ;   ask(distance, [X1, Y1, X2, Y2], R)
    ).
route_possible(X, Y, R) :-
    (   nb_getval(prologin_rules, true)
    ->  rule_xy(X, Y, IX, IY),
        fresh,
        prologin_rules_route_possible(IX, IY, R)
    ;   ask(route_possible, [X, Y], R)
    ).
construction_possible(X, Y, R) :-
    (   nb_getval(prologin_rules, true)
    ->  rule_xy(X, Y, IX, IY),
        fresh,
        prologin_rules_construction_possible(IX, IY, R)
    ;   ask(construction_possible, [X, Y], R)
    ).

% The board's rules (rules 19 to 21): the C kit's, one implementation for every kit
% (c/kit/prologin_rules_lib.c), as the foreign predicates of libprologin_rules_pl.so
% (c/kit/prologin_rules_pl.c), which scripts/build-champions.sh builds in the C kit:
% $PROLOGIN_KITS/c (/kits/c in the jail), or the file PROLOGIN_RULES_LIB names. The board
% is given to them at each fill of the cache. Without the library, each of the three
% calls is a round trip, said once on stderr.
:- dynamic kit_dir/1.
:- prolog_load_context(directory, Dir), assertz(kit_dir(Dir)).

load_rules :-
    (   getenv('PROLOGIN_RULES_LIB', Path), Path \== ''
    ->  true
    ;   getenv('PROLOGIN_KITS', Kits), Kits \== ''
    ->  atomic_list_concat([Kits, '/c/libprologin_rules_pl.so'], Path)
    ;   kit_dir(Dir),
        atomic_list_concat([Dir, '/../../c/kit/libprologin_rules_pl.so'], Path)
    ),
    catch(( load_foreign_library(Path, install_prologin_rules_pl),
            nb_setval(prologin_rules, true)
          ),
          E,
          ( message_to_codes(E, Text),
            format(user_error, "prologin kit (Prolog): no rules library (~s): construction_possible, route_possible and distance ask the referee, a round trip each (build it: scripts/build-champions.sh)~n", [Text]),
            nb_setval(prologin_rules, false)
          )).

rule_xy(X, Y, IX, IY) :-
    (   integer(X), integer(Y)
    ->  IX = X, IY = Y
    ;   wire_arg(X, IX), wire_arg(Y, IY)
    ).

% Actions.

construire_route(X, Y, R) :- act(construire_route, [X, Y], R).
construire_maison(X, Y, R) :- act(construire_maison, [X, Y], R).
reserver_case(X, Y, R) :- act(reserver_case, [X, Y], R).
detruire_maison(X, Y, R) :- act(detruire_maison, [X, Y], R).
vendre_maison(X, Y, R) :- act(vendre_maison, [X, Y], R).
encherir(M, R) :- act(encherir, [M], R).
construire_monument(X, Y, R) :- act(construire_monument, [X, Y], R).

callback_name("init_game", init_game).
callback_name("jouer", jouer).
callback_name("enchere", enchere).
callback_name("placement", placement).
callback_name("end_game", end_game).

%!  serve(+In, +Out, -Status)
%   Runs the protocol loop on the streams In and Out, calling the callbacks (predicates
%   of arity 0 in module user) the champion defined; a callback of arity 1 instead (the
%   2010 form, `jouer(void)`) is called with an unbound argument, as 2010's interface did. A callback that fails is a callback
%   that did nothing; one that raises an exception stops the champion (exit 1).
serve(In, Out, Status) :-
    nb_setval(prologin_in, In),
    nb_setval(prologin_out, Out),
    nb_setval(prologin_callback, '(none)'),
    nb_setval(prologin_dirty, true),
    load_rules,
    serve_loop(false, Status).

serve_loop(Ended, Status) :-
    nb_getval(prologin_in, In),
    read_line_to_string(In, Line0),
    (   Line0 == end_of_file
    ->  (   Ended == true
        ->  Status = 0
        ;   format(user_error, "prologin kit (Prolog): the referee closed the connection before end_game~n", []),
            Status = 1
        )
    ;   (string_concat(Line, "\r", Line0) -> true ; Line = Line0),
        (   callback_name(Line, Name)
        ->  true
        ;   nb_setval(prologin_callback, '(none)'),
            fail_kit("unknown callback `~w` from the referee", [Line])
        ),
        nb_setval(prologin_callback, Name),
        nb_setval(prologin_dirty, true),
        (   current_predicate(user:Name/0)
        ->  catch(ignore(user:Name), E, champion_error(Name, E))
        ;   current_predicate(user:Name/1)
        ->  catch(ignore(call(user:Name, _)), E, champion_error(Name, E))
        ;   true
        ),
        flush_output(user_output),
        send(fin),
        (Name == end_game -> Now = true ; Now = false),
        serve_loop(Now, Status)
    ).

champion_error(Name, E) :-
    print_message(error, E),
    format(user_error, "prologin kit (Prolog): the champion's ~w raised the exception above~n", [Name]),
    halt(1).
