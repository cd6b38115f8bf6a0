{ prolo_interface.pas -- the 2009 form of the Pascal kit's API: the unit the 2009
  generator gave (`uses prolo_interface;` in a `library champion`), with the constants
  (SUCCES, ROUTE, ...) and each function of the kit's unit api under the same name,
  `mon_tour` a boolean. pascal.mk builds such a champion with champion2009.pas.
  Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
  template champions/api/templates/pascal/prolo_interface.pas: edit those, not this
  file.
}
unit prolo_interface;

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
function score(num_joueur: longint): longint;
function finances(num_joueur: longint): longint;
function monument_en_cours: longint;
function distance(x1, y1, x2, y2: longint): longint;
function route_possible(x, y: longint): longint;
function construction_possible(x, y: longint): longint;
function cout_achat_maison: longint;
function cout_achat_route: longint;
function mon_tour: boolean;
function construire_route(x, y: longint): longint;
function construire_maison(x, y: longint): longint;
function reserver_case(x, y: longint): longint;
function detruire_maison(x, y: longint): longint;
function vendre_maison(x, y: longint): longint;
function encherir(montant: longint): longint;
function construire_monument(x, y: longint): longint;

implementation

uses api;

function type_case(x, y: longint): longint;
begin
  type_case := api.type_case(x, y);
end;

function valeur_case(x, y: longint): longint;
begin
  valeur_case := api.valeur_case(x, y);
end;

function appartenance(x, y: longint): longint;
begin
  appartenance := api.appartenance(x, y);
end;

function type_monument(x, y: longint): longint;
begin
  type_monument := api.type_monument(x, y);
end;

function portee_monument(num_monument: longint): longint;
begin
  portee_monument := api.portee_monument(num_monument);
end;

function prestige_monument(num_monument: longint): longint;
begin
  prestige_monument := api.prestige_monument(num_monument);
end;

function numero_tour: longint;
begin
  numero_tour := api.numero_tour;
end;

function commence: longint;
begin
  commence := api.commence;
end;

function montant_encheres(num_joueur: longint): longint;
begin
  montant_encheres := api.montant_encheres(num_joueur);
end;

function vainqueur_encheres: longint;
begin
  vainqueur_encheres := api.vainqueur_encheres;
end;

function score(num_joueur: longint): longint;
begin
  score := api.score(num_joueur);
end;

function finances(num_joueur: longint): longint;
begin
  finances := api.finances(num_joueur);
end;

function monument_en_cours: longint;
begin
  monument_en_cours := api.monument_en_cours;
end;

function distance(x1, y1, x2, y2: longint): longint;
begin
  distance := api.distance(x1, y1, x2, y2);
end;

function route_possible(x, y: longint): longint;
begin
  route_possible := api.route_possible(x, y);
end;

function construction_possible(x, y: longint): longint;
begin
  construction_possible := api.construction_possible(x, y);
end;

function cout_achat_maison: longint;
begin
  cout_achat_maison := api.cout_achat_maison;
end;

function cout_achat_route: longint;
begin
  cout_achat_route := api.cout_achat_route;
end;

function mon_tour: boolean;
begin
  mon_tour := api.mon_tour;
end;

function construire_route(x, y: longint): longint;
begin
  construire_route := api.construire_route(x, y);
end;

function construire_maison(x, y: longint): longint;
begin
  construire_maison := api.construire_maison(x, y);
end;

function reserver_case(x, y: longint): longint;
begin
  reserver_case := api.reserver_case(x, y);
end;

function detruire_maison(x, y: longint): longint;
begin
  detruire_maison := api.detruire_maison(x, y);
end;

function vendre_maison(x, y: longint): longint;
begin
  vendre_maison := api.vendre_maison(x, y);
end;

function encherir(montant: longint): longint;
begin
  encherir := api.encherir(montant);
end;

function construire_monument(x, y: longint): longint;
begin
  construire_monument := api.construire_monument(x, y);
end;

end.
