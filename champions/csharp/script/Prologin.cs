// The C# kit's `script` champion: the cross-language script
// (champions/api/scenario.toml), every answer logged as `script: <call> = <answer>`
// (champions/api/README.md) with Console.WriteLine, which the kit sends to the log.
//
// Generated from champions/api/loi.toml by `cargo run -p loi_api -- write` with the
// template champions/api/templates/csharp/Prologin.cs: edit those, not this file.
using System;

#pragma warning disable 0219 // `t`, unused in a callback without a turn-specific step

namespace Prologin
{
    class Prologin
    {
        static void Say(string call, int answer)
        {
            Console.WriteLine("script: " + call + " = " + answer);
        }

        /// One digest per cell getter over the whole map: h = (31 h + answer + 100) mod 1000003.
        static void Scan()
        {
            long[] h = { 0, 0, 0, 0 };
            for (int y = 0; y < Api.TAILLE_CARTE; y++)
                for (int x = 0; x < Api.TAILLE_CARTE; x++)
                {
                    h[0] = (h[0] * 31 + Api.TypeCase(x, y) + 100) % 1000003;
                    h[1] = (h[1] * 31 + Api.ValeurCase(x, y) + 100) % 1000003;
                    h[2] = (h[2] * 31 + Api.Appartenance(x, y) + 100) % 1000003;
                    h[3] = (h[3] * 31 + Api.TypeMonument(x, y) + 100) % 1000003;
                }
            Console.WriteLine("script: scan = " + h[0] + " " + h[1] + " " + h[2] + " " + h[3]);
        }

        static int Start(string callback)
        {
            int t = Api.NumeroTour();
            Console.WriteLine("script: " + callback + " " + t);
            return t;
        }

        public void InitGame()
        {
            int t = Start("init_game");
            if (true)
            {
                Say("numero_tour", Api.NumeroTour());
                Say("mon_tour", Api.MonTour());
                Say("commence", Api.Commence());
                Say("monument_en_cours", Api.MonumentEnCours());
                Say("vainqueur_encheres", Api.VainqueurEncheres());
                Say("cout_achat_maison", Api.CoutAchatMaison());
                Say("cout_achat_route", Api.CoutAchatRoute());
                Say("finances 0", Api.Finances(0));
                Say("finances 1", Api.Finances(1));
                Say("finances 2", Api.Finances(2));
                Say("finances 3", Api.Finances(3));
                Say("finances -1", Api.Finances(-1));
                Say("score 0", Api.Score(0));
                Say("score 1", Api.Score(1));
                Say("score 2", Api.Score(2));
                Say("score 3", Api.Score(3));
                Say("montant_encheres 0", Api.MontantEncheres(0));
                Say("montant_encheres 2", Api.MontantEncheres(2));
                Say("montant_encheres -1", Api.MontantEncheres(-1));
                Say("portee_monument 0", Api.PorteeMonument(0));
                Say("portee_monument 9", Api.PorteeMonument(9));
                Say("portee_monument 13", Api.PorteeMonument(13));
                Say("portee_monument 14", Api.PorteeMonument(14));
                Say("portee_monument -1", Api.PorteeMonument(-1));
                Say("prestige_monument 0", Api.PrestigeMonument(0));
                Say("prestige_monument 12", Api.PrestigeMonument(12));
                Say("prestige_monument 13", Api.PrestigeMonument(13));
                Say("prestige_monument 14", Api.PrestigeMonument(14));
                Say("type_case 50 50", Api.TypeCase(50, 50));
                Say("type_case 0 0", Api.TypeCase(0, 0));
                Say("type_case -1 0", Api.TypeCase(-1, 0));
                Say("type_case 100 5", Api.TypeCase(100, 5));
                Say("type_case 5 100", Api.TypeCase(5, 100));
                Say("valeur_case 50 50", Api.ValeurCase(50, 50));
                Say("valeur_case 99 99", Api.ValeurCase(99, 99));
                Say("valeur_case -1 -1", Api.ValeurCase(-1, -1));
                Say("appartenance 50 50", Api.Appartenance(50, 50));
                Say("appartenance 0 99", Api.Appartenance(0, 99));
                Say("appartenance 100 100", Api.Appartenance(100, 100));
                Say("type_monument 50 50", Api.TypeMonument(50, 50));
                Say("type_monument 0 0", Api.TypeMonument(0, 0));
                Say("type_monument -5 3", Api.TypeMonument(-5, 3));
                Say("distance 50 50 50 52", Api.Distance(50, 50, 50, 52));
                Say("distance 50 50 62 50", Api.Distance(50, 50, 62, 50));
                Say("distance 50 50 63 50", Api.Distance(50, 50, 63, 50));
                Say("distance 0 0 99 99", Api.Distance(0, 0, 99, 99));
                Say("distance -1 0 0 0", Api.Distance(-1, 0, 0, 0));
                Say("route_possible 50 51", Api.RoutePossible(50, 51));
                Say("route_possible 51 51", Api.RoutePossible(51, 51));
                Say("route_possible 70 70", Api.RoutePossible(70, 70));
                Say("route_possible -1 0", Api.RoutePossible(-1, 0));
                Say("construction_possible 51 51", Api.ConstructionPossible(51, 51));
                Say("construction_possible 50 50", Api.ConstructionPossible(50, 50));
                Say("construction_possible 70 70", Api.ConstructionPossible(70, 70));
                Say("construction_possible 0 100", Api.ConstructionPossible(0, 100));
                Say("construire_route 50 51", Api.ConstruireRoute(50, 51));
                Say("construire_maison 51 51", Api.ConstruireMaison(51, 51));
                Say("encherir 1", Api.Encherir(1));
                Say("detruire_maison -1 0", Api.DetruireMaison(-1, 0));
                Scan();
            }
        }

        public void Jouer()
        {
            int t = Start("jouer");
            if (true)
            {
                Say("mon_tour", Api.MonTour());
                Say("commence", Api.Commence());
                Say("monument_en_cours", Api.MonumentEnCours());
                Say("vainqueur_encheres", Api.VainqueurEncheres());
                Say("cout_achat_maison", Api.CoutAchatMaison());
                Say("cout_achat_route", Api.CoutAchatRoute());
                Say("finances 0", Api.Finances(0));
                Say("finances 1", Api.Finances(1));
                Say("finances 2", Api.Finances(2));
                Say("score 0", Api.Score(0));
                Say("score 1", Api.Score(1));
                Say("score 2", Api.Score(2));
                Say("montant_encheres 0", Api.MontantEncheres(0));
                Say("montant_encheres 1", Api.MontantEncheres(1));
                Say("montant_encheres 2", Api.MontantEncheres(2));
            }
            if (t == 1)
            {
                Say("construire_route 50 51", Api.ConstruireRoute(50, 51));
                Say("construire_route 50 51", Api.ConstruireRoute(50, 51));
                Say("construire_route 70 70", Api.ConstruireRoute(70, 70));
                Say("construire_route -1 5", Api.ConstruireRoute(-1, 5));
                Say("cout_achat_route", Api.CoutAchatRoute());
                Say("finances 0", Api.Finances(0));
                Say("type_case 50 51", Api.TypeCase(50, 51));
                Say("appartenance 50 51", Api.Appartenance(50, 51));
                Say("route_possible 50 52", Api.RoutePossible(50, 52));
                Say("construction_possible 51 52", Api.ConstructionPossible(51, 52));
                Say("construire_maison 51 52", Api.ConstruireMaison(51, 52));
                Say("type_case 51 52", Api.TypeCase(51, 52));
                Say("appartenance 51 52", Api.Appartenance(51, 52));
                Say("valeur_case 51 52", Api.ValeurCase(51, 52));
                Say("score 0", Api.Score(0));
                Say("cout_achat_maison", Api.CoutAchatMaison());
                Say("finances 0", Api.Finances(0));
                Say("construire_maison 49 52", Api.ConstruireMaison(49, 52));
                Say("construire_maison 49 50", Api.ConstruireMaison(49, 50));
                Say("cout_achat_maison", Api.CoutAchatMaison());
                Say("reserver_case 51 50", Api.ReserverCase(51, 50));
                Say("reserver_case 51 50", Api.ReserverCase(51, 50));
                Say("type_case 51 50", Api.TypeCase(51, 50));
                Say("appartenance 51 50", Api.Appartenance(51, 50));
                Say("distance 50 50 50 53", Api.Distance(50, 50, 50, 53));
                Say("distance 50 51 51 50", Api.Distance(50, 51, 51, 50));
                Say("detruire_maison 49 52", Api.DetruireMaison(49, 52));
                Say("vendre_maison 80 80", Api.VendreMaison(80, 80));
                Say("encherir 1", Api.Encherir(1));
                Say("construire_monument 52 52", Api.ConstruireMonument(52, 52));
                Say("finances 0", Api.Finances(0));
                Scan();
            }
            if (t == 2)
            {
                Say("construire_route 50 52", Api.ConstruireRoute(50, 52));
                Say("construire_route 50 53", Api.ConstruireRoute(50, 53));
                Say("construire_route 50 54", Api.ConstruireRoute(50, 54));
                Say("cout_achat_route", Api.CoutAchatRoute());
                Say("construire_maison 49 53", Api.ConstruireMaison(49, 53));
                Say("construire_maison 51 53", Api.ConstruireMaison(51, 53));
                Say("cout_achat_maison", Api.CoutAchatMaison());
                Say("vendre_maison 51 52", Api.VendreMaison(51, 52));
                Say("appartenance 51 52", Api.Appartenance(51, 52));
                Say("type_case 51 52", Api.TypeCase(51, 52));
                Say("finances 0", Api.Finances(0));
                Say("detruire_maison 49 53", Api.DetruireMaison(49, 53));
                Say("finances 0", Api.Finances(0));
                Scan();
            }
            if (t == 5)
            {
                Say("construire_route 49 50", Api.ConstruireRoute(49, 50));
                Say("construire_route 48 50", Api.ConstruireRoute(48, 50));
                Say("construire_maison 48 49", Api.ConstruireMaison(48, 49));
                Say("construire_maison 48 51", Api.ConstruireMaison(48, 51));
                Say("reserver_case 47 50", Api.ReserverCase(47, 50));
                Say("detruire_maison 48 49", Api.DetruireMaison(48, 49));
                Say("finances 0", Api.Finances(0));
                Say("score 0", Api.Score(0));
                Scan();
            }
            if (t == 15)
            {
                Say("construire_route 51 49", Api.ConstruireRoute(51, 49));
                Say("construire_maison 52 49", Api.ConstruireMaison(52, 49));
                Say("score 0", Api.Score(0));
                Say("finances 0", Api.Finances(0));
                Scan();
            }
        }

        public void Enchere()
        {
            int t = Start("enchere");
            if (true)
            {
                Say("mon_tour", Api.MonTour());
                Say("monument_en_cours", Api.MonumentEnCours());
                Say("finances 0", Api.Finances(0));
                Say("encherir -1", Api.Encherir(-1));
                Say("encherir 100000", Api.Encherir(100000));
                Say("encherir 1", Api.Encherir(1));
                Say("encherir 1", Api.Encherir(1));
                Say("finances 0", Api.Finances(0));
                Say("montant_encheres 0", Api.MontantEncheres(0));
                Say("construire_route 50 49", Api.ConstruireRoute(50, 49));
            }
            if (t == 3)
            {
                Scan();
                Say("vendre_maison 49 50", Api.VendreMaison(49, 50));
            }
        }

        public void Placement()
        {
            int t = Start("placement");
            if (true)
            {
                Say("mon_tour", Api.MonTour());
                Say("monument_en_cours", Api.MonumentEnCours());
                Say("vainqueur_encheres", Api.VainqueurEncheres());
                Say("montant_encheres 0", Api.MontantEncheres(0));
                Say("construire_monument -1 -1", Api.ConstruireMonument(-1, -1));
                Say("construire_monument 50 50", Api.ConstruireMonument(50, 50));
                Say("construire_maison 60 60", Api.ConstruireMaison(60, 60));
                Say("construction_possible 52 48", Api.ConstructionPossible(52, 48));
                Say("construire_monument 52 48", Api.ConstruireMonument(52, 48));
                Say("construire_monument 52 48", Api.ConstruireMonument(52, 48));
                Say("type_monument 52 48", Api.TypeMonument(52, 48));
                Say("valeur_case 52 48", Api.ValeurCase(52, 48));
                Say("valeur_case 51 49", Api.ValeurCase(51, 49));
                Say("construire_monument 53 47", Api.ConstruireMonument(53, 47));
                Say("construire_monument 49 55", Api.ConstruireMonument(49, 55));
                Say("construire_monument 51 55", Api.ConstruireMonument(51, 55));
                Say("construire_monument 49 54", Api.ConstruireMonument(49, 54));
                Say("construire_monument 51 54", Api.ConstruireMonument(51, 54));
                Say("type_monument 49 55", Api.TypeMonument(49, 55));
                Say("type_monument 51 55", Api.TypeMonument(51, 55));
                Say("valeur_case 50 55", Api.ValeurCase(50, 55));
                Scan();
            }
        }

        public void EndGame()
        {
            int t = Start("end_game");
            if (true)
            {
                Say("numero_tour", Api.NumeroTour());
                Say("mon_tour", Api.MonTour());
                Say("commence", Api.Commence());
                Say("score 0", Api.Score(0));
                Say("score 1", Api.Score(1));
                Say("score 2", Api.Score(2));
                Say("finances 0", Api.Finances(0));
                Say("finances 1", Api.Finances(1));
                Say("finances 2", Api.Finances(2));
                Say("montant_encheres 0", Api.MontantEncheres(0));
                Say("vainqueur_encheres", Api.VainqueurEncheres());
                Say("construire_route 50 49", Api.ConstruireRoute(50, 49));
                Say("vendre_maison 51 53", Api.VendreMaison(51, 53));
                Say("encherir 1", Api.Encherir(1));
                Say("construire_monument 1 1", Api.ConstruireMonument(1, 1));
                Scan();
            }
        }
    }
}
