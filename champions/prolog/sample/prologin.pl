% sample: a Prolog champion that plays sensibly near the town hall (50, 50): a free road,
% houses on the best cells next to the roads, a bid worth the monument's prestige, and
% the monument placed where it helps its own houses most (or hurts the others' most).
% Deterministic: it needs no random numbers.

hall(50).
reach(15).      % only the cells within 15 of the town hall are considered

near_road(X, Y, Diagonals) :-
    route(Road),
    between(-1, 1, DY), between(-1, 1, DX),
    (DX =\= 0 ; DY =\= 0),
    (Diagonals == true ; DX =:= 0 ; DY =:= 0),
    type_case(X + DX, Y + DY, Road),
    !.

% candidates(+Diagonals, :Worth, -Cells): empty cells next to a road near the hall, as
% c(-Worth, Distance, Y, X), best first.
candidates(Diagonals, Worth, Cells) :-
    hall(H), reach(R), Lo is H - R, Hi is H + R, vide(Empty),
    findall(c(NW, D, Y, X),
            ( between(Lo, Hi, Y), between(Lo, Hi, X),
              type_case(X, Y, Empty),
              near_road(X, Y, Diagonals),
              call(Worth, X, Y, W), NW is -W,
              D is abs(X - H) + abs(Y - H) ),
            Found),
    msort(Found, Cells).

% build_best(:Build, +Diagonals, :Worth): builds on the first of the 5 best cells that
% accepts it; fails if none does.
build_best(Build, Diagonals, Worth) :-
    candidates(Diagonals, Worth, Cells),
    succes(Ok),
    first_n(5, Cells, Best),
    member(c(_, _, Y, X), Best),
    call(Build, X, Y, Ok),
    !.

first_n(N, List, Prefix) :-
    length(List, L), K is min(N, L), length(Prefix, K), append(Prefix, _, List).

nowhere(_, _, 0).

init_game :-
    commence(First),
    format("sample (Prolog): first player is ~w~n", [First]).

jouer :-
    mon_tour,
    finances(0, Money), cout_achat_route(Road),
    ( Road =< Money -> ignore(build_best(construire_route, false, nowhere)) ; true ),
    houses(2),
    % The second house brings a free road: take it.
    cout_achat_route(Next),
    ( Next =:= 0 -> ignore(build_best(construire_route, false, nowhere)) ; true ).

houses(0) :- !.
houses(N) :-
    cout_achat_maison(Price), finances(0, Money),
    Price =< Money,
    build_best(construire_maison, true, valeur_case),
    !,
    M is N - 1,
    houses(M).
houses(_).

enchere :-
    mon_tour,
    monument_en_cours(Id), prestige_monument(Id, Prestige),
    Prestige > 0,
    finances(0, Money),
    Bid is min(Prestige, Money // 3),
    encherir(Bid, _).

placement :-
    mon_tour,
    monument_en_cours(Id),
    prestige_monument(Id, Prestige), portee_monument(Id, Range),
    build_best(construire_monument, true, worth(Prestige, Range)).

% Its own houses in range count for it, the others' against (the other way round for a
% monument of negative prestige).
worth(Prestige, Range, X, Y, W) :-
    maison(House), NR is -Range,
    aggregate_all(sum(S),
                  ( between(NR, Range, DY), between(NR, Range, DX),
                    type_case(X + DX, Y + DY, House),
                    appartenance(X + DX, Y + DY, Owner),
                    ( Owner =:= 0 -> S = 1 ; S = -1 ) ),
                  W0),
    ( Prestige >= 0 -> W = W0 ; W is -W0 ).

end_game :-
    finances(0, Money), score(0, Worth),
    format("sample (Prolog) end: money ~w worth ~w~n", [Money, Worth]).
