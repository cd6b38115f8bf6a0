% constants.pl -- the API surface of the Prolog kit: the constants of the 2009 API
% (docs/rules.md section 6), each a fact named after it in lower case (`succes(0)`,
% `hors_terrain(-12)`: a name in capitals would be a variable in Prolog), and the
% monument table.
% Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
% template champions/api/templates/prolog/constants.pl: edit those, not this file.
:- module(prologin_constants,
          [
            succes/1,
            pas_de_maison/1,
            pas_de_monument/1,
            finances_depassees/1,
            blocage/1,
            joueur_incorrect/1,
            non_connexe/1,
            case_occupee/1,
            action_interdite/1,
            hors_terrain/1,
            trop_loin/1,
            infini/1,
            mairie/1,
            vide/1,
            maison/1,
            reservation/1,
            monument/1,
            route/1,
            max_monuments/1,
            taille_carte/1,
            max_distance/1,
            argent_initial/1,
            monument_table/3
          ]).

% Error codes and special answers.
succes(0).
pas_de_maison(-2).
pas_de_monument(-3).
finances_depassees(-4).
blocage(-5).
joueur_incorrect(-7).
non_connexe(-8).
case_occupee(-9).
action_interdite(-10).
hors_terrain(-12).
trop_loin(50).
infini(30000).

% Ownership.
mairie(3).

% Cell kinds.
vide(0).
maison(1).
reservation(2).
monument(3).
route(4).

% Bounds, sizes.
max_monuments(14).
taille_carte(100).
max_distance(12).
argent_initial(10).

%!  monument_table(?Id, ?Prestige, ?Portee)
%   The 14 monuments (rule 5).
monument_table(0, 5, 1).
monument_table(1, 4, 1).
monument_table(2, 4, 1).
monument_table(3, 3, 1).
monument_table(4, 3, 2).
monument_table(5, 2, 2).
monument_table(6, 2, 2).
monument_table(7, 2, 2).
monument_table(8, 2, 1).
monument_table(9, 1, 3).
monument_table(10, 1, 3).
monument_table(11, 1, 2).
monument_table(12, -1, 2).
monument_table(13, -2, 1).
