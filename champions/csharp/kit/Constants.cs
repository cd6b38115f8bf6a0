// The constants of the 2009 API (docs/rules.md section 6.1) and the monument tables, C#
// kit: this half of the partial class Prologin.Api holds them (`Api.SUCCES`).
//
// Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
// template champions/api/templates/csharp/Constants.cs: edit those, not this file.
namespace Prologin
{
    public partial class Api
    {
        // Error codes.
        /// The action succeeded.
        public const int SUCCES = 0;
        /// There is no house on the cell.
        public const int PAS_DE_MAISON = -2;
        /// There is no monument on the cell, no such monument id, or none drawn yet.
        public const int PAS_DE_MONUMENT = -3;
        /// You would spend more money than you have.
        public const int FINANCES_DEPASSEES = -4;
        /// The building would cut every road off from outside the map (rule 21).
        public const int BLOCAGE = -5;
        /// The player id is not 0, 1 or 2.
        public const int JOUEUR_INCORRECT = -7;
        /// No road next to the cell (4-neighbours for a road, 8 for anything else, rule 20).
        public const int NON_CONNEXE = -8;
        /// The cell is not buildable by you (rule 19).
        public const int CASE_OCCUPEE = -9;
        /// Not your turn, not this phase, or the action is forbidden.
        public const int ACTION_INTERDITE = -10;
        /// The coordinates are off the map.
        public const int HORS_TERRAIN = -12;
        /// distance: further than MAX_DISTANCE, or no path.
        public const int TROP_LOIN = 50;
        /// cout_achat_maison: no more house in this callback.
        public const int INFINI = 30000;
        // Ownership.
        /// The town hall: owner of everything no player owns.
        public const int MAIRIE = 3;
        // Cell kinds.
        /// An empty cell.
        public const int VIDE = 0;
        /// A house.
        public const int MAISON = 1;
        /// A reserved cell.
        public const int RESERVATION = 2;
        /// A monument.
        public const int MONUMENT = 3;
        /// A road.
        public const int ROUTE = 4;
        // Bounds, sizes.
        /// Monuments auctioned in a game.
        public const int MAX_MONUMENTS = 14;
        /// Width and height of the map.
        public const int TAILLE_CARTE = 100;
        /// The longest distance `distance` computes.
        public const int MAX_DISTANCE = 12;
        /// Each player's money at the start.
        public const int ARGENT_INITIAL = 10;

        // Monument id -> prestige and range (rule 5).
        static readonly int[] Prestige = { 5, 4, 4, 3, 3, 2, 2, 2, 2, 1, 1, 1, -1, -2 };
        static readonly int[] Portee = { 1, 1, 1, 1, 2, 2, 2, 2, 1, 3, 3, 2, 2, 1 };
    }
}
