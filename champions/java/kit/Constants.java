// The constants of the 2009 API (docs/rules.md section 6.1), Java kit. One place for
// every value: class Interface implements this interface, so `Interface.SUCCES` works,
// and `SUCCES` alone in a champion that `extends Interface`.
public interface Constants {
  // Error codes.
  int SUCCES = 0;
  int PAS_DE_MAISON = -2;
  int PAS_DE_MONUMENT = -3;
  int FINANCES_DEPASSEES = -4;
  int BLOCAGE = -5;
  int JOUEUR_INCORRECT = -7;
  int NON_CONNEXE = -8;
  int CASE_OCCUPEE = -9;
  int ACTION_INTERDITE = -10;
  int HORS_TERRAIN = -12;
  int TROP_LOIN = 50;
  int INFINI = 30000;
  // Ownership.
  int MAIRIE = 3;
  // Cell kinds.
  int VIDE = 0;
  int MAISON = 1;
  int RESERVATION = 2;
  int MONUMENT = 3;
  int ROUTE = 4;
  // Bounds, sizes.
  int MAX_MONUMENTS = 14;
  int TAILLE_CARTE = 100;
  int MAX_DISTANCE = 12;
  int ARGENT_INITIAL = 10;
}
