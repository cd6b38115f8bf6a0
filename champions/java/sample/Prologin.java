import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

// sample: a Java champion that plays sensibly: roads and houses near the town hall, a
// bid on a good monument, the monument placed among its own houses (a bad one among the
// others'). Random choices are seeded from PROLOGIN_SEED: a match replays identically.
public class Prologin extends Interface {
  private static final int CENTRE = TAILLE_CARTE / 2; // the town hall's road, (50, 50)
  private long state = 1;

  /** Park-Miller: the same sequence in every kit's sample. */
  private int rand(int n) {
    state = state * 48271 % 2147483647;
    return (int) (state % n);
  }

  private static final class Cell {
    final int x;
    final int y;
    int gain;

    Cell(int x, int y) {
      this.x = x;
      this.y = y;
    }

    int near() {
      return Math.abs(x - CENTRE) + Math.abs(y - CENTRE);
    }

    int index() {
      return y * TAILLE_CARTE + x;
    }
  }

  /** Empty cells with a road among their 4 (or 8) neighbours, row after row. */
  private static List<Cell> candidates(boolean diagonals) {
    List<Cell> found = new ArrayList<>();
    for (int y = 0; y < TAILLE_CARTE; y++) {
      for (int x = 0; x < TAILLE_CARTE; x++) {
        if (type_case(x, y) != VIDE) continue;
        boolean road = false;
        for (int dy = -1; dy <= 1 && !road; dy++) {
          for (int dx = -1; dx <= 1 && !road; dx++) {
            if ((dx == 0 && dy == 0) || (!diagonals && dx != 0 && dy != 0)) continue;
            road = type_case(x + dx, y + dy) == ROUTE;
          }
        }
        if (road) found.add(new Cell(x, y));
      }
    }
    return found;
  }

  public void init_game() {
    String seed = System.getenv("PROLOGIN_SEED");
    if (seed == null || seed.isEmpty()) seed = "1";
    seed = seed.substring(Math.max(0, seed.length() - 9));
    state = Long.parseLong(seed) % 2147483646 + 1;
    System.out.println("sample (Java): first player " + commence());
  }

  public void jouer() {
    if (mon_tour() == 0) return;
    List<Cell> roads = candidates(false);
    roads.sort(Comparator.comparingInt(Cell::near).thenComparingInt(Cell::index));
    if (!roads.isEmpty() && cout_achat_route() <= finances(0)) {
      Cell c = roads.get(rand(Math.min(4, roads.size())));
      construire_route(c.x, c.y);
    }
    for (int built = 0; built < 2 && cout_achat_maison() <= finances(0); built++) {
      List<Cell> houses = candidates(true);
      houses.sort(Comparator.comparingInt((Cell c) -> -valeur_case(c.x, c.y))
          .thenComparingInt(Cell::near).thenComparingInt(Cell::index));
      boolean ok = false;
      for (int k = 0; k < Math.min(3, houses.size()) && !ok; k++) {
        ok = construire_maison(houses.get(k).x, houses.get(k).y) == SUCCES;
      }
      if (!ok) break;
    }
  }

  public void enchere() {
    int m = monument_en_cours();
    if (m == PAS_DE_MONUMENT || prestige_monument(m) <= 0) return;
    int bid = Math.min(finances(0), prestige_monument(m) - 1 + rand(2));
    if (bid > 0) encherir(bid);
  }

  public void placement() {
    int m = monument_en_cours();
    int r = portee_monument(m);
    int sign = prestige_monument(m) >= 0 ? 1 : -1;
    List<Cell> cells = candidates(true);
    // Our houses in range count for a good monument, the others' for a bad one.
    for (Cell c : cells) {
      for (int dy = -r; dy <= r; dy++) {
        for (int dx = -r; dx <= r; dx++) {
          if (type_case(c.x + dx, c.y + dy) != MAISON) continue;
          c.gain += appartenance(c.x + dx, c.y + dy) == 0 ? sign : -sign;
        }
      }
    }
    cells.sort(Comparator.comparingInt((Cell c) -> -c.gain)
        .thenComparingInt(Cell::near).thenComparingInt(Cell::index));
    for (int k = 0; k < Math.min(10, cells.size()); k++) {
      if (construire_monument(cells.get(k).x, cells.get(k).y) == SUCCES) return;
    }
  }

  public void end_game() {
    System.out.println("sample (Java) end: money " + finances(0) + " houses " + score(0));
  }
}
