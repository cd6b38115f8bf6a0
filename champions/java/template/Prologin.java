// template: a Java champion that does nothing, validly. Copy this folder, write the
// callbacks, `make`. The API: static methods of Interface (type_case(x, y),
// construire_route(x, y), ...) and its constants (SUCCES, ROUTE, ...), docs/rules.md
// section 6. System.out goes to your log (stderr), never to the referee.
public class Prologin extends Interface {
  public void init_game() {
    // Once, before turn 1 (10 s of CPU, the JVM's start-up included).
  }

  public void jouer() {
    // Phase I of every turn 1..15: build roads and houses when mon_tour() == 1.
  }

  public void enchere() {
    // Phase II of turns 1..14: encherir(montant) for monument_en_cours().
  }

  public void placement() {
    // Phase III, if you won the auction: construire_monument(x, y).
  }

  public void end_game() {
    // Once, after turn 15: the final board, for your log.
  }
}
