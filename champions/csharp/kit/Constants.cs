// The constants of the 2009 API (docs/rules.md section 6.1), C# kit. One place for every
// value: this half of the partial class Prologin.Api holds them (`Api.SUCCES`).
namespace Prologin
{
    public partial class Api
    {
        // Error codes.
        public const int SUCCES = 0;
        public const int PAS_DE_MAISON = -2;
        public const int PAS_DE_MONUMENT = -3;
        public const int FINANCES_DEPASSEES = -4;
        public const int BLOCAGE = -5;
        public const int JOUEUR_INCORRECT = -7;
        public const int NON_CONNEXE = -8;
        public const int CASE_OCCUPEE = -9;
        public const int ACTION_INTERDITE = -10;
        public const int HORS_TERRAIN = -12;
        public const int TROP_LOIN = 50;
        public const int INFINI = 30000;
        // Ownership.
        public const int MAIRIE = 3;
        // Cell kinds.
        public const int VIDE = 0;
        public const int MAISON = 1;
        public const int RESERVATION = 2;
        public const int MONUMENT = 3;
        public const int ROUTE = 4;
        // Bounds, sizes.
        public const int MAX_MONUMENTS = 14;
        public const int TAILLE_CARTE = 100;
        public const int MAX_DISTANCE = 12;
        public const int ARGENT_INITIAL = 10;
    }
}
