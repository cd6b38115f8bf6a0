// The 2009 form of the C# kit's API: the class Prologin.API that the 2009 generator gave
// (`API.type_case(x, y)`, `API.SUCCES`, `API.mon_tour()` a bool), each function the
// method of Prologin.Api of the same name in today's spelling (`Api.TypeCase`), the
// constants inherited from it. A 2009 champion's callbacks (static lowercase methods of
// class Prologin: `static void jouer()`) are found by Main.cs.
//
// Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
// template champions/api/templates/csharp/Api2009.cs: edit those, not this file.
namespace Prologin
{
    public class API : Api
    {
        protected API() { }

        public static int type_case(int x, int y)
        {
            return Api.TypeCase(x, y);
        }

        public static int valeur_case(int x, int y)
        {
            return Api.ValeurCase(x, y);
        }

        public static int appartenance(int x, int y)
        {
            return Api.Appartenance(x, y);
        }

        public static int type_monument(int x, int y)
        {
            return Api.TypeMonument(x, y);
        }

        public static int portee_monument(int num_monument)
        {
            return Api.PorteeMonument(num_monument);
        }

        public static int prestige_monument(int num_monument)
        {
            return Api.PrestigeMonument(num_monument);
        }

        public static int numero_tour()
        {
            return Api.NumeroTour();
        }

        public static int commence()
        {
            return Api.Commence();
        }

        public static int montant_encheres(int num_joueur)
        {
            return Api.MontantEncheres(num_joueur);
        }

        public static int vainqueur_encheres()
        {
            return Api.VainqueurEncheres();
        }

        public static int score(int num_joueur)
        {
            return Api.Score(num_joueur);
        }

        public static int finances(int num_joueur)
        {
            return Api.Finances(num_joueur);
        }

        public static int monument_en_cours()
        {
            return Api.MonumentEnCours();
        }

        public static int distance(int x1, int y1, int x2, int y2)
        {
            return Api.Distance(x1, y1, x2, y2);
        }

        public static int route_possible(int x, int y)
        {
            return Api.RoutePossible(x, y);
        }

        public static int construction_possible(int x, int y)
        {
            return Api.ConstructionPossible(x, y);
        }

        public static int cout_achat_maison()
        {
            return Api.CoutAchatMaison();
        }

        public static int cout_achat_route()
        {
            return Api.CoutAchatRoute();
        }

        public static bool mon_tour()
        {
            return Api.MonTour() != 0;
        }

        public static int construire_route(int x, int y)
        {
            return Api.ConstruireRoute(x, y);
        }

        public static int construire_maison(int x, int y)
        {
            return Api.ConstruireMaison(x, y);
        }

        public static int reserver_case(int x, int y)
        {
            return Api.ReserverCase(x, y);
        }

        public static int detruire_maison(int x, int y)
        {
            return Api.DetruireMaison(x, y);
        }

        public static int vendre_maison(int x, int y)
        {
            return Api.VendreMaison(x, y);
        }

        public static int encherir(int montant)
        {
            return Api.Encherir(montant);
        }

        public static int construire_monument(int x, int y)
        {
            return Api.ConstruireMonument(x, y);
        }
    }
}
