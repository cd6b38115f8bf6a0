import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The API of "La loi du plus riche" (Prologin 2009 final), Java kit: the 26 functions as
 * static methods of class {@code Interface}, with the 2009 names, and the constants (from
 * {@link Constants}, generated from the API's description). As in 2009 the champion is {@code public class Prologin extends
 * Interface} with the callbacks {@code init_game}, {@code jouer}, {@code enchere},
 * {@code placement}, {@code end_game} as public methods; the rules and every function's
 * error codes: docs/rules.md (rule N, section 6).
 *
 * <p>Owns: the protocol streams, the state cache (one {@code etat} per callback and after
 * each successful action) and the local argument checks. {@link ProloginMain} runs the
 * loop.
 */
public class Interface implements Constants {
  private static InputStream in;
  private static OutputStream out;
  static String callback = "(none)";

  private static final byte[] buf = new byte[65536];
  private static int bufStart = 0;
  private static int bufEnd = 0;
  private static byte[] line = new byte[1024];

  private static boolean dirty = true;
  private static final int[] figures = new int[16];
  private static final byte[] kinds = new byte[10000];
  private static final byte[] owners = new byte[10000];
  private static final byte[] monuments = new byte[10000];
  private static final byte[] values = new byte[10000];

  protected Interface() {}

  static void connect(InputStream protoIn, OutputStream protoOut) {
    in = protoIn;
    out = protoOut;
  }

  /** The conversation with the referee broke down: say so and exit at once. */
  static void fail(String message) {
    System.out.flush();
    System.err.println("prologin kit (Java): error in " + callback + ": " + message);
    System.err.flush();
    Runtime.getRuntime().halt(2);
  }

  static void send(String text) {
    try {
      out.write(text.getBytes(StandardCharsets.US_ASCII));
      out.flush();
    } catch (IOException e) {
      fail("writing to the referee: " + e.getMessage());
    }
  }

  /** Reads one line into {@code line}; its length, or -1 at end of file. */
  static int readLine() {
    int len = 0;
    for (;;) {
      if (bufStart == bufEnd) {
        try {
          bufEnd = in.read(buf);
        } catch (IOException e) {
          fail("reading from the referee: " + e.getMessage());
        }
        bufStart = 0;
        if (bufEnd <= 0) {
          bufEnd = 0;
          return len == 0 ? -1 : len;
        }
      }
      while (bufStart < bufEnd) {
        byte b = buf[bufStart++];
        if (b == '\n') {
          if (len > 0 && line[len - 1] == '\r') len--;
          return len;
        }
        if (len == line.length) line = java.util.Arrays.copyOf(line, 2 * len);
        line[len++] = b;
      }
    }
  }

  static String readText() {
    int len = readLine();
    return len < 0 ? null : new String(line, 0, len, StandardCharsets.US_ASCII);
  }

  private static int expectLine(String what) {
    int len = readLine();
    if (len < 0) fail("the referee closed the connection while we waited for `" + what + "`");
    return len;
  }

  private static int parse(int from, int to, String what) {
    long v = 0;
    int i = from;
    boolean neg = i < to && line[i] == '-';
    if (neg) i++;
    if (i == to || to - i > 10) fail("unparsable answer to `" + what + "`: expected an integer");
    for (; i < to; i++) {
      int d = line[i] - '0';
      if (d < 0 || d > 9) fail("unparsable answer to `" + what + "`: expected an integer");
      v = v * 10 + d;
    }
    return (int) (neg ? -v : v);
  }

  private static int ask(String request) {
    send(request + "\n");
    int len = expectLine(request);
    return parse(0, len, request);
  }

  private static int act(String request) {
    int r = ask(request);
    if (r == SUCCES) dirty = true;
    return r;
  }

  private static void refresh() {
    send("etat\n");
    int len = expectLine("etat");
    int field = 0;
    int start = 0;
    for (int i = 0; i <= len; i++) {
      if (i < len && line[i] != ' ') continue;
      if (field < 16) {
        figures[field] = parse(start, i, "etat");
      } else if (field < 20) {
        if (i - start != 10000) {
          fail("unparsable answer to `etat`: expected 16 integers and 4 strings of 10000 characters");
        }
        byte[] to = field == 16 ? kinds : field == 17 ? owners : field == 18 ? monuments : values;
        System.arraycopy(line, start, to, 0, 10000);
      }
      field++;
      start = i + 1;
    }
    if (field != 20) {
      fail("unparsable answer to `etat`: expected 16 integers and 4 strings of 10000 characters");
    }
    dirty = false;
    if (LOCAL_RULES) rulesBoard(kinds, owners);
  }

  static void markDirty() {
    dirty = true;
  }

  private static int figure(int i) {
    if (dirty) refresh();
    return figures[i];
  }

  private static int cell(int x, int y) {
    if (x < 0 || x >= 100 || y < 0 || y >= 100) return -1;
    if (dirty) refresh();
    return y * 100 + x;
  }

  // Information functions.

  public static int type_case(int x, int y) {
    int i = cell(x, y);
    return i < 0 ? HORS_TERRAIN : kinds[i] - '0';
  }

  public static int valeur_case(int x, int y) {
    int i = cell(x, y);
    return i < 0 ? HORS_TERRAIN : values[i] - 64;
  }

  public static int appartenance(int x, int y) {
    int i = cell(x, y);
    return i < 0 ? HORS_TERRAIN : owners[i] - '0';
  }

  public static int type_monument(int x, int y) {
    int i = cell(x, y);
    if (i < 0) return HORS_TERRAIN;
    return monuments[i] == '.' ? PAS_DE_MONUMENT : monuments[i] - 'a';
  }

  public static int portee_monument(int num_monument) {
    return num_monument >= 0 && num_monument < MAX_MONUMENTS ? MonumentTables.PORTEE[num_monument] : PAS_DE_MONUMENT;
  }

  public static int prestige_monument(int num_monument) {
    return num_monument >= 0 && num_monument < MAX_MONUMENTS ? MonumentTables.PRESTIGE[num_monument] : PAS_DE_MONUMENT;
  }

  public static int numero_tour() {
    return figure(0);
  }

  public static int commence() {
    return figure(2);
  }

  public static int montant_encheres(int num_joueur) {
    return num_joueur >= 0 && num_joueur <= 2 ? figure(13 + num_joueur) : JOUEUR_INCORRECT;
  }

  public static int vainqueur_encheres() {
    return figure(4);
  }

  /** The player's houses' worth, money excluded: not the final score (rule 9). */
  public static int score(int num_joueur) {
    return num_joueur >= 0 && num_joueur <= 2 ? figure(10 + num_joueur) : JOUEUR_INCORRECT;
  }

  public static int finances(int num_joueur) {
    return num_joueur >= 0 && num_joueur <= 2 ? figure(7 + num_joueur) : JOUEUR_INCORRECT;
  }

  public static int monument_en_cours() {
    return figure(3);
  }

  public static int distance(int x1, int y1, int x2, int y2) {
    if (!LOCAL_RULES) return ask("distance " + x1 + " " + y1 + " " + x2 + " " + y2);
    if (dirty) refresh();
    return rulesDistance(x1, y1, x2, y2);
  }

  public static int route_possible(int x, int y) {
    if (!LOCAL_RULES) return ask("route_possible " + x + " " + y);
    if (dirty) refresh();
    return rulesRoutePossible(x, y);
  }

  public static int construction_possible(int x, int y) {
    if (!LOCAL_RULES) return ask("construction_possible " + x + " " + y);
    if (dirty) refresh();
    return rulesConstructionPossible(x, y);
  }

  // The board's rules (rules 19 to 21): the C kit's, one implementation for every kit
  // (c/kit/prologin_rules_lib.c), called through JNI in libprologin_rules_jni.so
  // (c/kit/prologin_rules_jni.c), which scripts/build-champions.sh builds in the C kit:
  // $PROLOGIN_KITS/c (the referee sets PROLOGIN_KITS: /kits in the jail), or the file
  // PROLOGIN_RULES_LIB names. The board is given to it at each fill of the cache. Without
  // the library, each of the three calls is a round trip, said once on stderr.
  private static final boolean LOCAL_RULES = loadRules();

  private static native void rulesBoard(byte[] kinds, byte[] owners);

  private static native int rulesRoutePossible(int x, int y);

  private static native int rulesConstructionPossible(int x, int y);

  private static native int rulesDistance(int x1, int y1, int x2, int y2);

  private static boolean loadRules() {
    String path = System.getenv("PROLOGIN_RULES_LIB");
    String kits = System.getenv("PROLOGIN_KITS");
    if ((path == null || path.isEmpty()) && kits != null && !kits.isEmpty()) {
      path = kits + "/c/libprologin_rules_jni.so";
    }
    String why;
    if (path == null || path.isEmpty()) {
      why = "neither PROLOGIN_RULES_LIB nor PROLOGIN_KITS is set";
    } else {
      try {
        System.load(path);
        return true;
      } catch (UnsatisfiedLinkError e) {
        why = e.getMessage();
      }
    }
    System.err.println("prologin kit (Java): no rules library (" + why + "): construction_possible, "
        + "route_possible and distance ask the referee, a round trip each (build it: scripts/build-champions.sh)");
    return false;
  }

  public static int cout_achat_maison() {
    return figure(5);
  }

  public static int cout_achat_route() {
    return figure(6);
  }

  /** 1 in your own turn, else 0 (rule 16). */
  public static int mon_tour() {
    return figure(1);
  }

  // Actions.

  public static int construire_route(int x, int y) {
    return act("construire_route " + x + " " + y);
  }

  public static int construire_maison(int x, int y) {
    return act("construire_maison " + x + " " + y);
  }

  public static int reserver_case(int x, int y) {
    return act("reserver_case " + x + " " + y);
  }

  public static int detruire_maison(int x, int y) {
    return act("detruire_maison " + x + " " + y);
  }

  public static int vendre_maison(int x, int y) {
    return act("vendre_maison " + x + " " + y);
  }

  public static int encherir(int montant) {
    return act("encherir " + montant);
  }

  public static int construire_monument(int x, int y) {
    return act("construire_monument " + x + " " + y);
  }
}
