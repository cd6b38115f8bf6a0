/* prologin_api.c -- the API functions of prologin.h over the C kit's runtime
 * (prologin_kit.c includes this file after its primitives: the cache with `dirty`,
 * `refresh` and `figure`, `send_line`, `read_answer`, `act_answer`, and the board's rules
 * `rule_<function>` of prologin_rules.c).
 *
 * Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
 * template champions/api/templates/c/prologin_api.c: edit those, not this file.
 */

static const int PRESTIGE[MAX_MONUMENTS] = {5, 4, 4, 3, 3, 2, 2, 2, 2, 1, 1, 1, -1, -2};
static const int PORTEE[MAX_MONUMENTS] = {1, 1, 1, 1, 2, 2, 2, 2, 1, 3, 3, 2, 2, 1};

int type_case(int x, int y) {
  if (!ON_MAP(x, y)) return HORS_TERRAIN;
  if (dirty) refresh();
  return kinds[CELL(x, y)] - 48;
}

int valeur_case(int x, int y) {
  if (!ON_MAP(x, y)) return HORS_TERRAIN;
  if (dirty) refresh();
  return values[CELL(x, y)] - 64;
}

int appartenance(int x, int y) {
  if (!ON_MAP(x, y)) return HORS_TERRAIN;
  if (dirty) refresh();
  return owners[CELL(x, y)] - 48;
}

int type_monument(int x, int y) {
  if (!ON_MAP(x, y)) return HORS_TERRAIN;
  if (dirty) refresh();
  if (monuments[CELL(x, y)] == '.') return PAS_DE_MONUMENT;
  return monuments[CELL(x, y)] - 97;
}

int portee_monument(int num_monument) {
  if (num_monument < 0 || num_monument >= MAX_MONUMENTS) return PAS_DE_MONUMENT;
  return PORTEE[num_monument];
}

int prestige_monument(int num_monument) {
  if (num_monument < 0 || num_monument >= MAX_MONUMENTS) return PAS_DE_MONUMENT;
  return PRESTIGE[num_monument];
}

int numero_tour(void) {
  return figure(0);
}

int commence(void) {
  return figure(2);
}

int montant_encheres(int num_joueur) {
  if (num_joueur < 0 || num_joueur > 2) return JOUEUR_INCORRECT;
  return figure(13 + num_joueur);
}

int vainqueur_encheres(void) {
  return figure(4);
}

int score(int num_joueur) {
  if (num_joueur < 0 || num_joueur > 2) return JOUEUR_INCORRECT;
  return figure(10 + num_joueur);
}

int finances(int num_joueur) {
  if (num_joueur < 0 || num_joueur > 2) return JOUEUR_INCORRECT;
  return figure(7 + num_joueur);
}

int monument_en_cours(void) {
  return figure(3);
}

int distance(int x1, int y1, int x2, int y2) {
#ifdef PROLOGIN_CHECK_RULES
  {
    /* The local answer first: it may ask `etat`, which must not come between. */
    int local = rule_distance(x1, y1, x2, y2);
    char request[80];
    snprintf(request, sizeof request, "distance %d %d %d %d", x1, y1, x2, y2);
    send_line("%s", request);
    return checked_rule(request, local);
  }
#else
  return rule_distance(x1, y1, x2, y2);
#endif
}

int route_possible(int x, int y) {
#ifdef PROLOGIN_CHECK_RULES
  {
    /* The local answer first: it may ask `etat`, which must not come between. */
    int local = rule_route_possible(x, y);
    char request[80];
    snprintf(request, sizeof request, "route_possible %d %d", x, y);
    send_line("%s", request);
    return checked_rule(request, local);
  }
#else
  return rule_route_possible(x, y);
#endif
}

int construction_possible(int x, int y) {
#ifdef PROLOGIN_CHECK_RULES
  {
    /* The local answer first: it may ask `etat`, which must not come between. */
    int local = rule_construction_possible(x, y);
    char request[80];
    snprintf(request, sizeof request, "construction_possible %d %d", x, y);
    send_line("%s", request);
    return checked_rule(request, local);
  }
#else
  return rule_construction_possible(x, y);
#endif
}

int cout_achat_maison(void) {
  return figure(5);
}

int cout_achat_route(void) {
  return figure(6);
}

int mon_tour(void) {
  return figure(1);
}

int construire_route(int x, int y) {
  send_line("construire_route %d %d", x, y);
  return act_answer("construire_route");
}

int construire_maison(int x, int y) {
  send_line("construire_maison %d %d", x, y);
  return act_answer("construire_maison");
}

int reserver_case(int x, int y) {
  send_line("reserver_case %d %d", x, y);
  return act_answer("reserver_case");
}

int detruire_maison(int x, int y) {
  send_line("detruire_maison %d %d", x, y);
  return act_answer("detruire_maison");
}

int vendre_maison(int x, int y) {
  send_line("vendre_maison %d %d", x, y);
  return act_answer("vendre_maison");
}

int encherir(int montant) {
  send_line("encherir %d", montant);
  return act_answer("encherir");
}

int construire_monument(int x, int y) {
  send_line("construire_monument %d %d", x, y);
  return act_answer("construire_monument");
}
