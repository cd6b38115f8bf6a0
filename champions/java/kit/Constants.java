// The constants of the 2009 API (docs/rules.md section 6.1) and the monument tables, Java
// kit. Class Interface implements this interface, so `Interface.SUCCES` works, and
// `SUCCES` alone in a champion that `extends Interface`.
//
// Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
// template champions/api/templates/java/Constants.java: edit those, not this file.
public interface Constants {
  // Error codes.
  /** The action succeeded. */
  int SUCCES = 0;
  /** There is no house on the cell. */
  int PAS_DE_MAISON = -2;
  /** There is no monument on the cell, no such monument id, or none drawn yet. */
  int PAS_DE_MONUMENT = -3;
  /** You would spend more money than you have. */
  int FINANCES_DEPASSEES = -4;
  /** The building would cut every road off from outside the map (rule 21). */
  int BLOCAGE = -5;
  /** The player id is not 0, 1 or 2. */
  int JOUEUR_INCORRECT = -7;
  /** No road next to the cell (4-neighbours for a road, 8 for anything else, rule 20). */
  int NON_CONNEXE = -8;
  /** The cell is not buildable by you (rule 19). */
  int CASE_OCCUPEE = -9;
  /** Not your turn, not this phase, or the action is forbidden. */
  int ACTION_INTERDITE = -10;
  /** The coordinates are off the map. */
  int HORS_TERRAIN = -12;
  /** distance: further than MAX_DISTANCE, or no path. */
  int TROP_LOIN = 50;
  /** cout_achat_maison: no more house in this callback. */
  int INFINI = 30000;
  // Ownership.
  /** The town hall: owner of everything no player owns. */
  int MAIRIE = 3;
  // Cell kinds.
  /** An empty cell. */
  int VIDE = 0;
  /** A house. */
  int MAISON = 1;
  /** A reserved cell. */
  int RESERVATION = 2;
  /** A monument. */
  int MONUMENT = 3;
  /** A road. */
  int ROUTE = 4;
  // Bounds, sizes.
  /** Monuments auctioned in a game. */
  int MAX_MONUMENTS = 14;
  /** Width and height of the map. */
  int TAILLE_CARTE = 100;
  /** The longest distance `distance` computes. */
  int MAX_DISTANCE = 12;
  /** Each player's money at the start. */
  int ARGENT_INITIAL = 10;
}

/** Monument id -> prestige and range (rule 5), for the kit. */
final class MonumentTables {
  static final int[] PRESTIGE = {5, 4, 4, 3, 3, 2, 2, 2, 2, 1, 1, 1, -1, -2};
  static final int[] PORTEE = {1, 1, 1, 1, 2, 2, 2, 2, 1, 3, 3, 2, 2, 1};

  private MonumentTables() {}
}
